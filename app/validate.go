package app

import (
	"net/mail"
	"net/url"
	"strings"
	"unicode/utf8"
)

// Validation collects per-field problems; Err returns them as one
// validation_failed error, or nil when there were none.
type Validation struct {
	fields map[string]string
}

// Add records msg for field unless the field already has a message.
func (v *Validation) Add(field, msg string) {
	if v.fields == nil {
		v.fields = map[string]string{}
	}
	if _, ok := v.fields[field]; !ok {
		v.fields[field] = msg
	}
}

// Check records msg for field when ok is false.
func (v *Validation) Check(ok bool, field, msg string) {
	if !ok {
		v.Add(field, msg)
	}
}

// Has reports whether field already has a problem.
func (v *Validation) Has(field string) bool { _, ok := v.fields[field]; return ok }

// Required checks that s is not blank.
func (v *Validation) Required(field, s string) {
	v.Check(strings.TrimSpace(s) != "", field, "is required")
}

// MaxLen checks that s has at most n characters.
func (v *Validation) MaxLen(field, s string, n int) {
	v.Check(utf8.RuneCountInString(s) <= n, field, "must be at most "+itoa(n)+" characters")
}

// Text checks a required or optional text field: valid UTF-8, no NUL, at most n characters.
func (v *Validation) Text(field, s string, required bool, n int) {
	if required {
		v.Required(field, s)
	}
	v.Check(utf8.ValidString(s) && !strings.ContainsRune(s, 0), field, "must be valid text")
	v.MaxLen(field, s, n)
}

// Email checks that s is a plain email address.
func (v *Validation) Email(field, s string) {
	if strings.TrimSpace(s) == "" {
		v.Add(field, "is required")
		return
	}
	v.Check(ValidEmail(s), field, "must be a valid email address")
}

// URLs checks a list of http(s) URLs of at most max entries.
func (v *Validation) URLs(field string, urls []string, max int) {
	if len(urls) > max {
		v.Add(field, "must have at most "+itoa(max)+" entries")
		return
	}
	for _, u := range urls {
		if !ValidHTTPURL(u) {
			v.Add(field, "must be http(s) URLs")
			return
		}
	}
}

// OneOf checks that s is one of the allowed values.
func (v *Validation) OneOf(field, s string, allowed ...string) {
	for _, a := range allowed {
		if s == a {
			return
		}
	}
	v.Add(field, "must be one of "+strings.Join(allowed, ", "))
}

// Slug checks the slug field of an entity (ValidSlug).
func (v *Validation) Slug(s string) {
	v.Check(ValidSlug(s), "slug", "must be lower-case letters, digits and dashes")
}

// Err returns the collected problems as an *Error, or nil.
func (v *Validation) Err() error {
	if len(v.fields) == 0 {
		return nil
	}
	return &Error{Code: EValidation, Message: "validation failed", Fields: v.fields}
}

// ValidEmail reports whether s is a bare address such as a@b.example.
func ValidEmail(s string) bool {
	if len(s) > 254 || strings.ContainsAny(s, " <>") {
		return false
	}
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && strings.Contains(s[strings.LastIndexByte(s, '@'):], ".")
}

// ValidHTTPURL reports whether s is an absolute http or https URL of sane length.
func ValidHTTPURL(s string) bool {
	if len(s) > 2048 {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// NormalizeEmail is the form emails are compared and indexed in.
func NormalizeEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
