package shop

import (
	"net/url"
	"slices"

	"github.com/gofiber/fiber/v2"

	"storefront/app/i18n"
	"storefront/httpkit"
	"storefront/httpkit/pagekit"
)

// The account pages' forms are described in Go (fieldSpec) and drawn by
// one partial (_account_form.html): a label on every field, autocomplete,
// the server's message next to its field, the values kept on error (never
// a password's).

// maxAccountForm bounds an account form's body.
const maxAccountForm = 16 << 10

// fieldSpec is one field of a form. Its label is the string
// "account.field.<Name>"; a select's option labels "account.opt.<value>".
type fieldSpec = pagekit.Field

// fieldView is a field as the page draws it.
type fieldView struct {
	fieldSpec
	Label, Value, Error string
}

// formView is a form as the page draws it.
type formView struct {
	Action, Submit string // the submit button's label key
	CSRF           string
	Fields         []fieldView
	l              *i18n.Catalog // the store's language (refuse)
	Error          string        // about the whole form
	// Hidden are hidden fields (name -> value).
	Hidden map[string]string
	Class  string
}

// accountForm is an account form: its fields, the page it is drawn on
// from the values typed (view), and what sending it does (post: where to
// go next, or the refusal the form then shows).
type accountForm struct {
	fields []fieldSpec
	view   func(rq *request, vals map[string]string) accountView
	post   func(c *fiber.Ctx, rq *request, vals map[string]string) (to string, err error)
}

// send serves the form's POST: 303 to where post says, or the form again
// with the refusal's messages next to their fields (formFail).
func (s *Shop) send(f accountForm) pageFunc {
	return func(c *fiber.Ctx, rq *request) error {
		vals, err := decodeAccountForm(c.Body(), f.fields)
		to := ""
		if err == nil {
			to, err = f.post(c, rq, vals)
		}
		if err != nil {
			return s.formFail(c, rq, f.view(rq, vals), err)
		}
		return redirect(c, to)
	}
}

// decodeAccountForm reads a form of specs' fields (pagekit.DecodeForm).
func decodeAccountForm(body []byte, specs []fieldSpec) (map[string]string, error) {
	return pagekit.DecodeForm(body, maxAccountForm, specs)
}

// newForm is the form of specs filled with vals (passwords left empty).
func newForm(rq *request, action, submit string, specs []fieldSpec, vals map[string]string) formView {
	f := formView{Action: action, Submit: submit, CSRF: rq.FormToken(), Fields: make([]fieldView, len(specs)), l: rq.L}
	for i, sp := range specs {
		f.Fields[i] = fieldView{fieldSpec: sp, Label: rq.L.T("account.field." + sp.Name)}
		if !sp.Secret() {
			f.Fields[i].Value = vals[sp.Name]
		}
	}
	return f
}

// refuse puts err's messages on f: a field's next to it, the rest (and a
// summary) above the form (formError), and shows the page with err's
// status; an error that is not the shopper's (internal) is returned.
func (f *formView) refuse(err error, show func(status int) error) error {
	m, beside, status, ierr := formError(f.l, err, "account.err.", f.label)
	if ierr != nil {
		return ierr
	}
	for i := range f.Fields {
		f.Fields[i].Error = beside[f.Fields[i].Name]
	}
	f.Error = m
	return show(status)
}

// label is the label of f's field of that name ("": f has none).
func (f *formView) label(name string) string {
	if i := slices.IndexFunc(f.Fields, func(fd fieldView) bool { return fd.Name == name }); i >= 0 {
		return f.Fields[i].Label
	}
	return ""
}

// accountView is the data of the generic account form page
// (account_form.html): a heading, an intro, a notice, forms and links.
type accountView struct {
	Title  string
	Intro  string
	Notice string
	Forms  []formView
	Links  []link
}

type link struct{ Href, Label string }

// formPage is the view of an account page that is one form: its title
// account.{key}.title, the intro account.{key}.intro when intro is set,
// the submit button account.{key}.submit, and links (their labels are
// catalogue keys).
func formPage(key, action string, intro bool, specs []fieldSpec, links ...link) func(*request, map[string]string) accountView {
	return func(rq *request, vals map[string]string) accountView {
		v := accountView{Title: rq.L.T("account." + key + ".title"),
			Forms: []formView{newForm(rq, action, "account."+key+".submit", specs, vals)}}
		if intro {
			v.Intro = rq.L.T("account." + key + ".intro")
		}
		for _, l := range links {
			v.Links = append(v.Links, link{l.Href, rq.L.T(l.Label)})
		}
		return v
	}
}

// show serves the page of an account form, empty.
func (s *Shop) show(view func(*request, map[string]string) accountView) pageFunc {
	return func(c *fiber.Ctx, rq *request) error { return s.showForm(c, rq, fiber.StatusOK, view(rq, nil)) }
}

// showForm renders the generic account form page.
func (s *Shop) showForm(c *fiber.Ctx, rq *request, status int, v accountView) error {
	return s.render(c, rq, status, "account_form", pageMeta{Title: v.Title, NoIndex: true}, v)
}

// formFail renders v again with err on its first form (the status is
// err's), or returns err when it is not the shopper's.
func (s *Shop) formFail(c *fiber.Ctx, rq *request, v accountView, err error) error {
	return v.Forms[0].refuse(err, func(status int) error {
		httpkit.RetryAfter(c, err)
		return s.showForm(c, rq, status, v)
	})
}

// localNext is next when it is a path of this site (pagekit.LocalPath),
// else "/account/".
func localNext(next string) string {
	if !pagekit.LocalPath(next) {
		return "/account/"
	}
	return next
}

// signedIn wraps a page only a signed-in shopper sees: a guest goes to the
// login page, which comes back here after.
func signedIn(fn pageFunc) pageFunc {
	return func(c *fiber.Ctx, rq *request) error {
		if rq.Customer == nil {
			next := c.Path()
			if c.Method() != fiber.MethodGet {
				next = "/account/"
			} else if q := string(c.Request().URI().QueryString()); q != "" {
				next += "?" + q
			}
			return c.Redirect("/account/login/?next="+url.QueryEscape(next), fiber.StatusSeeOther)
		}
		return fn(c, rq)
	}
}
