package pagekit

import (
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"storefront/app"
)

// Field is one field of a form: how it is read, and how a page draws it.
type Field struct {
	Name     string
	Type     string // input type; "textarea" and "select" draw those
	Auto     string // autocomplete
	Max      int    // longest accepted value, in characters
	Required bool
	// Clip cuts a longer value to Max+1 characters instead of refusing it,
	// so the service's own message about its length shows.
	Clip bool
	// Raw reads the value as typed, not trimmed (as a password is).
	Raw bool
	// Options are a select's values.
	Options []string
}

// Secret reports whether the field's value is never written back (a password).
func (f Field) Secret() bool { return f.Type == "password" }

// Values are a decoded form's values by field name.
type Values map[string]string

// DecodeForm reads a urlencoded body of at most max bytes holding fields:
// values are trimmed (passwords are not); one over its length (unless
// Clip), or not UTF-8, is a validation error naming it
// (ProblemOf(err).Fields). Fields not listed are ignored; a missing one
// reads "" (Required is the service's to check, with its own message).
func DecodeForm(body []byte, max int, fields []Field) (Values, error) {
	vals := make(Values, len(fields))
	if len(body) > max {
		return vals, app.Invalid("body", "is too large")
	}
	q, err := url.ParseQuery(string(body))
	if err != nil {
		return vals, app.Invalid("body", "is not a form")
	}
	var v app.Validation
	for _, f := range fields {
		s := q.Get(f.Name)
		if !f.Secret() && !f.Raw {
			s = strings.TrimSpace(s)
		}
		limit := f.Max
		if f.Clip {
			s, limit = clip(s, f.Max+1), f.Max+1
		}
		if !utf8.ValidString(s) || utf8.RuneCountInString(s) > limit {
			v.Add(f.Name, "is too long or not text")
			s = ""
		}
		vals[f.Name] = s
	}
	return vals, v.Err()
}

// clip bounds s to n runes.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// Int reads name as a whole number in [min, max]; empty reads def, and
// anything else adds msg to v.
func (vs Values) Int(v *app.Validation, name string, def, min, max int64, msg string) int64 {
	s := vs[name]
	if s == "" {
		return def
	}
	n, err := strconv.ParseInt(s, 10, 64)
	v.Check(err == nil && n >= min && n <= max, name, msg)
	return n
}

// ID reads name as an id (empty reads 0); anything else adds msg to v.
func (vs Values) ID(v *app.Validation, name, msg string) uint64 {
	s := vs[name]
	if s == "" {
		return 0
	}
	n, err := strconv.ParseUint(s, 10, 64)
	v.Check(err == nil, name, msg)
	return n
}

// On reads a checkbox or a yes/no button: "on", "yes", "true" or "1".
func (vs Values) On(name string) bool {
	switch vs[name] {
	case "on", "yes", "true", "1":
		return true
	}
	return false
}

// Money reads name as an amount (app.ParseMoney); empty reads 0 when
// optional, and anything else that is not an amount adds msg to v.
func (vs Values) Money(v *app.Validation, name string, optional bool, msg string) app.Money {
	if optional && vs[name] == "" {
		return 0
	}
	m, err := app.ParseMoney(vs[name])
	v.Check(err == nil, name, msg)
	return m
}
