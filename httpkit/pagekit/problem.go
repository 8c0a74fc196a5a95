package pagekit

import (
	"bytes"
	"cmp"
	"errors"
	"html/template"
	"maps"
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

// Problem is what an error page says about an error.
type Problem struct {
	Status  int
	Code    string // the app error code
	Heading string // "Not found", "Forbidden", ...
	Message string
	// Fields are the per-field messages of a validation error.
	Fields map[string]string
	// Internal: not the visitor's doing; log it, show a generic message.
	Internal bool
}

var headings = map[int]string{400: "Bad request", 401: "Not logged in", 403: "Forbidden", 404: "Not found",
	409: "Conflict", 413: "Too large", 429: "Too many requests", 500: "Server error", 503: "Unavailable"}

// ProblemOf describes err: an app error keeps its status and message; any
// other error is internal (500).
func ProblemOf(err error) Problem {
	var ae *app.Error
	if !errors.As(err, &ae) || ae.Code == app.EInternal {
		return Problem{Status: 500, Code: app.EInternal, Heading: headings[500], Message: app.ErrorMessage(err), Internal: true}
	}
	status := httpkit.StatusOf(ae.Code)
	return Problem{Status: status, Code: ae.Code, Heading: Heading(status), Message: ae.Message, Fields: ae.Fields}
}

// Heading is the error page's heading for status.
func Heading(status int) string {
	return cmp.Or(headings[status], "Error")
}

// FieldsText is the per-field messages in one line, by label, sorted:
// "Name: is required; Price: must be positive".
func (p Problem) FieldsText(label func(string) string) string {
	names := slices.Sorted(maps.Keys(p.Fields))
	for i, k := range names {
		names[i] = label(k) + ": " + p.Fields[k]
	}
	return strings.Join(names, "; ")
}

// plainPage is the page of an error where no set of pages answers (a host
// without a shop, the sandbox gateway): a heading, a message, a detail.
var plainPage = template.Must(template.New("plain").Parse(`<!doctype html><html lang="en"><head><meta charset="utf-8">` +
	`<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">` +
	`<title>{{.Title}}</title></head><body><main><h1>{{.Title}}</h1><p>{{.Message}}</p>` +
	`{{with .Detail}}<p><small>{{.}}</small></p>{{end}}</main></body></html>`))

// SendPlain answers with the plain error page: title, message and a small
// detail line ("" : none), never cached.
func SendPlain(c *fiber.Ctx, status int, title, message, detail string) {
	var buf bytes.Buffer
	_ = plainPage.Execute(&buf, struct{ Title, Message, Detail string }{title, message, detail})
	Send(c, Page{Status: status, Body: buf.Bytes(), Keep: true, Caching: NoStore})
}
