package pagekit

import (
	"net/url"
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
	// Options are a select's values.
	Options []string
}

// Secret reports whether the field's value is never written back (a password).
func (f Field) Secret() bool { return f.Type == "password" }

// DecodeForm reads a urlencoded body of at most max bytes holding fields:
// values are trimmed (passwords are not); one over its length, or not
// UTF-8, is a validation error naming it (ProblemOf(err).Fields). Fields not listed
// are ignored; a missing one reads "" (Required is the service's to check,
// with its own message).
func DecodeForm(body []byte, max int, fields []Field) (map[string]string, error) {
	vals := make(map[string]string, len(fields))
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
		if !f.Secret() {
			s = strings.TrimSpace(s)
		}
		if !utf8.ValidString(s) || utf8.RuneCountInString(s) > f.Max {
			v.Add(f.Name, "is too long or not text")
			s = ""
		}
		vals[f.Name] = s
	}
	return vals, v.Err()
}
