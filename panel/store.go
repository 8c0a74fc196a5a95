package panel

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

type dashboardData struct {
	Stores []*app.Store
	New    app.NewStore // the create form, kept after an error
	// Test marks the stores that take test payments (a sandbox method, not live).
	Test map[uint64]bool
}

// dashboard serves GET /admin/: the stores the admin may open.
func (p *panel) dashboard(c *fiber.Ctx, v *view) error {
	return p.showDashboard(c, v, fiber.StatusOK, app.NewStore{Currency: "USD"})
}

func (p *panel) showDashboard(c *fiber.Ctx, v *view, status int, form app.NewStore) error {
	all, err := p.h.svc.Stores.List()
	if err != nil {
		return err
	}
	mine := []*app.Store{}
	test := map[uint64]bool{}
	for _, st := range all {
		if v.Admin.CanAccess(st.ID) {
			mine = append(mine, st)
			test[st.ID] = p.h.svc.Payments.TakesTestPayments(st)
		}
	}
	v.Title, v.Data = "Stores", dashboardData{Stores: mine, New: form, Test: test}
	return p.render(c, status, "dashboard", v)
}

// createStore serves POST /admin/stores/ (owner): the new API key is shown once.
func (p *panel) createStore(c *fiber.Ctx, v *view) error {
	in := app.NewStore{Name: formValue(c, "name"), Subdomain: formValue(c, "subdomain"), Currency: formValue(c, "currency")}
	st, key, err := p.h.svc.Stores.Create(in)
	if err != nil {
		return p.showDashboard(c, v, p.formError(c, v, err), in)
	}
	return p.redirect(c, v, storePath(st, ""), &flash{Kind: "ok",
		Message: "Store “" + st.Name + "” created. Copy its API key now: it is not shown again.", Secret: key})
}

type storeData struct {
	Dash     *dashData
	Config   string // the config editor's text
	Delivery []app.DeliveryOption
	Name     string
	Payments app.PaymentSettingsView // secrets masked
	// OpenCallbacks: the store lists neither callback_origins nor
	// allowed_origins, so its checkouts return only to its own shop; the
	// page says so (issues 14 and 38).
	OpenCallbacks bool
	// Chosen is the provider posted per method when the payments form is
	// shown again after an error: the select keeps it beside its error.
	Chosen map[string]string
}

// storePage serves GET /admin/stores/{id}/.
func (p *panel) storePage(c *fiber.Ctx, v *view) error {
	return p.showStore(c, v, fiber.StatusOK, "", "")
}

// showStore renders the store page; config and name, when not "", replace
// the stored values in their forms (a form shown again after an error).
func (p *panel) showStore(c *fiber.Ctx, v *view, status int, config, name string) error {
	st := v.Store
	if config == "" {
		config = prettyJSON(st.Config)
	}
	if name == "" {
		name = st.Name
	}
	dash, err := p.storeDashboard(st)
	if err != nil {
		return err
	}
	v.Title, v.Tab = st.Name, "overview"
	pay, err := p.h.svc.Payments.PaymentSettings(st.ID)
	if err != nil {
		return err
	}
	set := st.Settings()
	chosen := map[string]string{}
	if c.Method() == fiber.MethodPost {
		for _, m := range pay.Methods {
			chosen[m.Method] = formValue(c, m.Method+"_provider")
		}
	}
	v.Data = storeData{Dash: dash, Config: config, Delivery: set.DeliveryOptions, Name: name, Payments: pay,
		OpenCallbacks: len(set.CallbackOrigins) == 0 && len(set.AllowedOrigins) == 0, Chosen: chosen}
	return p.render(c, status, "store", v)
}

// savePayments serves POST /admin/stores/{id}/payments/ {payments_live,
// <method>_provider, <method>_secret_key, <method>_webhook_secret, <method>_clear}: an empty
// secret field leaves the stored one (they are never shown), clear removes
// the store's own credentials of that method.
func (p *panel) savePayments(c *fiber.Ctx, v *view) error {
	methods := []string{app.WalletA, app.WalletB}
	names := []string{"payments_live"}
	for _, m := range methods {
		names = append(names, m+"_provider", m+"_clear", m+"_secret_key", m+"_webhook_secret")
	}
	f := readForm(c, nil, names...)
	live := f.On("payments_live")
	in := app.PaymentSettingsInput{PaymentsLive: &live, Methods: map[string]app.CredentialsInput{}}
	for _, m := range methods {
		var ci app.CredentialsInput
		if pr := f[m+"_provider"]; pr != "" {
			ci.Provider = &pr
		}
		if f.On(m + "_clear") {
			empty := ""
			ci.SecretKey, ci.WebhookSecret = &empty, &empty
		}
		if k := f[m+"_secret_key"]; k != "" {
			ci.SecretKey = &k
		}
		if w := f[m+"_webhook_secret"]; w != "" {
			ci.WebhookSecret = &w
		}
		if ci.Provider != nil || ci.SecretKey != nil || ci.WebhookSecret != nil {
			in.Methods[m] = ci
		}
	}
	if _, err := p.h.svc.Payments.SetPaymentSettingsBy(v.Store.ID, in, v.Admin); err != nil {
		return p.showStore(c, v, p.formError(c, v, err), "", "")
	}
	return p.redirect(c, v, storePath(v.Store, ""), ok1("Payment settings saved."))
}

// payTestOrder serves POST /admin/stores/{id}/payments/test-order/ {method}:
// a one-item order through the shoppers' checkout, paid by the sandbox (then
// its order page) or on Stripe's test-mode page (the browser goes there and
// comes back to the orders).
func (p *panel) payTestOrder(c *fiber.Ctx, v *view) error {
	back := strings.TrimSuffix(p.h.svc.Opt.PublicURL, "/") + storePath(v.Store, "orders/") // trusted as the return: never from a Host header
	t, err := p.h.svc.PayTestOrder(v.Store.ID, formValue(c, "method"), v.Admin.Email, back)
	if err != nil && t.OrderID == 0 {
		return p.redirect(c, v, storePath(v.Store, ""), &flash{Kind: "error", Message: "Test order not placed: " + app.ErrorMessage(err)})
	}
	order := storePath(v.Store, "orders/"+strconv.FormatUint(t.OrderID, 10)+"/")
	switch {
	case err != nil:
		return p.redirect(c, v, order, &flash{Kind: "error", Message: "Test order placed but not paid: " + app.ErrorMessage(err)})
	case t.RedirectURL != "":
		return c.Redirect(t.RedirectURL, fiber.StatusSeeOther)
	}
	return p.redirect(c, v, order, ok1("Test order paid with the sandbox: no money moved."))
}

// renameStore serves POST /admin/stores/{id}/name/.
func (p *panel) renameStore(c *fiber.Ctx, v *view) error {
	name := formValue(c, "name")
	st, err := p.h.svc.Stores.Change(v.Store.ID, app.StoreChange{Name: &name}, v.Admin)
	if err != nil {
		return p.showStore(c, v, p.formError(c, v, err), "", name)
	}
	return p.redirect(c, v, storePath(st, ""), ok1("Store renamed."))
}

// setStoreActive serves POST /admin/stores/{id}/active/ {active: "true"|"false"}.
func (p *panel) setStoreActive(c *fiber.Ctx, v *view) error {
	active := formOn(c, "active")
	st, err := p.h.svc.Stores.Change(v.Store.ID, app.StoreChange{IsActive: &active}, v.Admin)
	if err != nil {
		return p.showStore(c, v, p.formError(c, v, err), "", "")
	}
	msg := "Store deactivated: its API key now answers 403 store_inactive."
	if st.IsActive {
		msg = "Store activated."
	}
	return p.redirect(c, v, storePath(st, ""), ok1(msg))
}

// rotateStoreKey serves POST /admin/stores/{id}/rotate-key/; the new key is shown once.
func (p *panel) rotateStoreKey(c *fiber.Ctx, v *view) error {
	st, key, err := p.h.svc.Stores.RotateKey(v.Store.ID)
	if err != nil {
		return p.showStore(c, v, p.formError(c, v, err), "", "")
	}
	return p.redirect(c, v, storePath(st, ""), &flash{Kind: "ok",
		Message: "New API key made; the old one no longer works. Copy it now: it is not shown again.", Secret: key})
}

// saveConfig serves POST /admin/stores/{id}/config/ {config}. The editor holds
// the whole configuration; what is sent to PatchConfig is the merge patch from
// the stored configuration to the edited one, so removed keys are removed.
func (p *panel) saveConfig(c *fiber.Ctx, v *view) error {
	text := formValue(c, "config")
	patch, err := configPatch(v.Store.Config, text)
	if err != nil {
		return p.showStore(c, v, p.formError(c, v, err), text, "")
	}
	if patch == nil {
		return p.redirect(c, v, storePath(v.Store, ""), ok1("Nothing changed in the configuration."))
	}
	if _, err := removalGuard(c, v.Store.Config, patch); err != nil {
		return p.showStore(c, v, p.formError(c, v, err), text, "")
	}
	st, err := p.h.svc.Stores.PatchConfigBy(v.Store.ID, patch, v.Admin)
	if err != nil {
		return p.showStore(c, v, p.formError(c, v, err), text, "")
	}
	return p.redirect(c, v, storePath(st, ""), ok1("Configuration saved."))
}

// configPatch returns the JSON merge patch (RFC 7386) that turns the stored
// config into the edited text, or nil when nothing changed. It goes two
// levels deep, as app.MergeConfig merges: top-level keys, and the keys of
// top-level objects.
func configPatch(stored []byte, edited string) ([]byte, error) {
	var nw map[string]any
	if err := decodeJSONNumbers([]byte(edited), &nw); err != nil || nw == nil {
		return nil, app.Invalid("config", "must be one JSON object: "+jsonProblem(edited, err))
	}
	patch := mergePatch(configMap(stored), nw, true)
	if len(patch) == 0 {
		return nil, nil
	}
	return json.Marshal(patch)
}

// mergePatch is the merge patch from old to nw: a removed key null, a
// changed one its new value; deep, the keys of an object in both are
// compared one by one (one level down).
func mergePatch(old, nw map[string]any, deep bool) map[string]any {
	patch := map[string]any{}
	for k := range old {
		if _, kept := nw[k]; !kept {
			patch[k] = nil
		}
	}
	for k, nv := range nw {
		ov, had := old[k]
		if had && reflect.DeepEqual(ov, nv) {
			continue
		}
		om, oldObj := ov.(map[string]any)
		nm, newObj := nv.(map[string]any)
		if deep && oldObj && newObj {
			nv = mergePatch(om, nm, false)
		}
		patch[k] = nv
	}
	return patch
}

func decodeJSONNumbers(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.More() {
		off := d.InputOffset()
		for off < int64(len(b)) && strings.ContainsRune(" \t\r\n", rune(b[off])) {
			off++
		}
		return &trailingError{offset: off}
	}
	return nil
}

// trailingError is text after the JSON value, at offset (bytes).
type trailingError struct{ offset int64 }

func (e *trailingError) Error() string { return "unexpected text after the object" }

// jsonProblem describes a JSON problem of text with where it is (line and
// column, from the decoder's byte offset), without echoing internals.
func jsonProblem(text string, err error) string {
	if err == nil {
		return "got null"
	}
	what, off, ok := jsonError(text, err)
	if !ok {
		return what
	}
	line, col := lineCol(text, off)
	return "line " + strconv.Itoa(line) + ", column " + strconv.Itoa(col) + ": " + what
}

// jsonError is what is wrong with a JSON text by err, and the byte offset
// of the character it is at (ok false: err is not the text's syntax).
func jsonError(text string, err error) (what string, off int, ok bool) {
	var se *json.SyntaxError
	var te *trailingError
	switch {
	case errors.As(err, &se):
		return se.Error(), max(int(se.Offset)-1, 0), true // the offset counts the bad character
	case errors.As(err, &te):
		return te.Error(), int(te.offset), true
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return "the text ends before the object is closed (a missing } or \")", len(text), true
	}
	return "it is not an object", 0, false
}

// lineCol turns a byte offset of text into a 1-based line and column (in
// characters).
func lineCol(text string, off int) (int, int) {
	off = min(max(off, 0), len(text))
	before := text[:off]
	line := strings.Count(before, "\n") + 1
	start := strings.LastIndexByte(before, '\n') + 1
	return line, utf8.RuneCountInString(before[start:]) + 1
}

// prettyJSON indents stored JSON for an editor.
func prettyJSON(raw []byte) string {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return string(raw)
	}
	return b.String()
}

// formValue reads one trimmed field of a form (readForm).
func formValue(c *fiber.Ctx, name string) string {
	return strings.TrimSpace(readForm(c, nil, name)[name])
}
