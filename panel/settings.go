package panel

import (
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// The store settings pages: the configuration as forms, one section a page,
// each saved as a JSON merge patch of its keys only (so a form never touches
// what it does not show), plus the raw JSON editor as the "advanced" section.

// settingsSections are the sections, in the order of the sub-navigation.
var settingsSections = []tab{
	{Key: "identity", Label: "Identity"},
	{Key: "theme", Label: "Theme"},
	{Key: "navigation", Label: "Navigation"},
	{Key: "shop", Label: "Shop window"},
	{Key: "delivery", Label: "Delivery"},
	{Key: "payment-methods", Label: "Payment methods"},
	{Key: "taxes", Label: "Taxes and invoices"}, // settings_tax.go
	{Key: "origins", Label: "CORS origins"},
	{Key: "advanced", Label: "Advanced (JSON)"},
	{Key: "history", Label: "History"}, // its own page: panel_settings_history.go
}

// settingField is a text field of a settings form: its config key path
// ("store.email", or a top-level key like "template"), label and hint, the
// most characters the form takes (0: app's rules bound it), and whether it
// is a text area.
type settingField struct {
	Key, Label, Hint string
	Max              int
	Long             bool
}

// identityFields are the text fields of the identity form.
var identityFields = []settingField{
	{"store.name", "Shop name", "shown on the storefront (the panel's store name is separate)", 2000, false},
	{"store.description", "Description", "", 2000, false},
	{"store.logo", "Logo URL", "an http(s) URL", 2000, false},
	{"store.email", "Contact email", "", 2000, false},
	{"store.phone", "Phone", "", 2000, false},
	{"store.address", "Address", "", 2000, false},
	{"store.currency_symbol", "Currency symbol", "such as $ or €", 2000, false},
	{"seo.title", "Page title (SEO)", "", 2000, false},
	{"seo.description", "Meta description (SEO)", "", 2000, false},
	{"seo.keywords", "Keywords (SEO)", "separated by commas", 2000, false},
}

// languages are the shop's languages (config key locale, app.Locales),
// each by its own name.
var languages = []struct{ Code, Name string }{
	{"en", "English"}, {"de", "Deutsch"}, {"fr", "Français"}, {"es", "Español"}, {"ru", "Русский"}, {"uz", "Oʻzbekcha"},
}

// themeFields are the theme form's text fields (top-level string keys).
// header_layout and footer_layout are not among them: the shop has one
// header and one footer, shaped by the navigation, the announcement bar
// and the footer text (the keys stay in the config for a headless front
// end; docs/shop.md).
var themeFields = []settingField{
	{"template", "Template", "", 100, false}, {"business_type", "Business type", "", 100, false},
	{"product_grid_layout", "Product grid layout", "grid (the default) or list: product lists as cards side by side, or one product a row", 100, false},
	{"product_card_layout", "Product card layout", "default or compact: smaller cards, more to a row, no deal end date", 100, false},
	{"product_detail_layout", "Product detail layout", "default (pictures beside the details on a wide screen) or stacked (pictures above them)", 100, false},
}

// shopFields are the shop window form's fields: its home page, footer and
// content pages (text areas, as long as a page may be).
var shopFields = []settingField{
	{"hero.title", "Banner title", "the home page's heading (the shop name when empty)", 2000, false},
	{"hero.subtitle", "Banner text", "", 2000, false},
	{"hero.image", "Banner image URL", "an http(s) URL or a path", 2000, false},
	{"hero.cta_label", "Banner button label", "", 2000, false},
	{"hero.cta_url", "Banner button link", "a path like /categories/1/shoes/ or an http(s) URL", 2000, false},
	{"home.featured", "Featured products", "product slugs separated by commas (the newest products when empty)", 2000, false},
	{"home.sections", "Home page sections", "in order, separated by commas: hero, banners, featured, deals, categories, bundles, posts", 2000, false},
	{"footer.text", "Footer text", "", 2000, false},
	{"pages.about", "About us page", "blank lines separate paragraphs; empty: no page", 20000, true},
	{"pages.shipping", "Shipping and returns page", "", 20000, true},
	{"pages.terms", "Terms and conditions page", "", 20000, true},
	{"pages.privacy", "Privacy policy page", "", 20000, true},
}

// settingsRow is one row of a row form (navigation, delivery options).
type settingsRow struct {
	Cells  map[string]string
	Extra  string // the entry's other keys as JSON, carried through the form
	Delete bool
}

// methodRow is one payment method of the payment methods form.
type methodRow struct {
	Code, Name, Description string
	Offered                 bool
	Extra                   string
}

type settingsData struct {
	Section  string
	Sections []tab
	// identity and theme: values by key path
	Values   map[string]string
	Identity any
	// Languages are the choices of the identity form's language (locale).
	Languages any
	Theme     any
	Rows      []settingsRow // navigation, delivery
	Methods   []methodRow
	Allowed   string // one origin per line
	Domains   string // the shop's custom domains, one per line
	Shop      any
	Taxes     any // taxFields
	Callback  string
	Config    string // the advanced editor's text
	// ErrLine and ErrCol point at a JSON syntax error in Config (1-based; 0: none).
	ErrLine, ErrCol int
	// Removes are the changes of a save that removes keys, to confirm.
	Removes []historyLine
}

// blankSettingsRows is how many empty rows a row form offers.
const blankSettingsRows = 3

// settingsIndex serves GET /admin/stores/{id}/settings/: the first section.
func (p *panel) settingsIndex(c *fiber.Ctx, v *view) error {
	return c.Redirect(storePath(v.Store, "settings/identity/"), fiber.StatusSeeOther)
}

func settingsSection(c *fiber.Ctx) (string, error) {
	s := c.Params("section")
	for _, t := range settingsSections {
		if t.Key == s {
			return t.Key, nil
		}
	}
	return "", app.NotFound("settings section")
}

// settingsPage serves GET /admin/stores/{id}/settings/{section}/.
func (p *panel) settingsPage(c *fiber.Ctx, v *view) error {
	section, err := settingsSection(c)
	if err != nil {
		return err
	}
	d := settingsFromConfig(v.Store.Config, section)
	d.Allowed = strings.Join(v.Store.AllowedOrigins, "\n")
	d.Domains = strings.Join(v.Store.Domains, "\n")
	return p.showSettings(c, v, fiber.StatusOK, d)
}

func (p *panel) showSettings(c *fiber.Ctx, v *view, status int, d settingsData) error {
	d.Identity, d.Theme, d.Shop, d.Taxes, d.Languages = identityFields, themeFields, shopFields, taxFields, languages
	d.Sections = slices.DeleteFunc(slices.Clone(settingsSections), func(t tab) bool { // the sections the admin may open
		p, _ := app.StoreRoutePerm("GET", []string{"settings", t.Key})
		return !v.Admin.Has(p)
	})
	for _, t := range settingsSections {
		if t.Key == d.Section {
			v.Title = "Settings: " + t.Label
		}
	}
	v.Tab, v.Data = "settings", d
	return p.render(c, status, "settings", v)
}

// saveSettings serves POST /admin/stores/{id}/settings/{section}/: the
// section's form as a merge patch of its keys; a refused form is shown
// again as typed, with the problems.
func (p *panel) saveSettings(c *fiber.Ctx, v *view) error {
	section, err := settingsSection(c)
	if err != nil {
		return err
	}
	var d settingsData
	var patch []byte
	if section == "advanced" {
		d = settingsData{Section: section, Config: formValue(c, "config")}
		patch, err = configPatch(v.Store.Config, d.Config)
		if err != nil {
			var m map[string]any
			d.ErrLine, d.ErrCol = jsonErrorPosition(d.Config, decodeJSONNumbers([]byte(d.Config), &m))
		} else {
			d.Removes, err = removalGuard(c, v.Store.Config, patch)
		}
	} else {
		d, patch, err = readSettingsForm(c, v.Store.Config, section)
	}
	ch := app.StoreChange{Config: patch}
	if err == nil && section == "origins" {
		if list := lines(d.Allowed); !slices.Equal(list, v.Store.AllowedOrigins) {
			ch.AllowedOrigins = &list
		}
	}
	if err == nil && section == "shop" && v.MayChange(app.SettingDomains) { // the field is disabled for others
		if list := lines(d.Domains); !slices.Equal(list, v.Store.Domains) {
			ch.Domains = &list
		}
	}
	changed := patch != nil || ch.AllowedOrigins != nil || ch.Domains != nil
	if err == nil && changed {
		_, err = p.h.svc.Stores.Change(v.Store.ID, ch, v.Admin) // the form's parts in one change
	}
	if err != nil {
		status := p.formError(c, v, err)
		if status >= 500 {
			return err
		}
		return p.showSettings(c, v, status, d)
	}
	msg := "Settings saved."
	if !changed {
		msg = "Nothing changed."
	}
	return p.redirect(c, v, storePath(v.Store, "settings/"+section+"/"), ok1(msg))
}

// configMap decodes a stored configuration (numbers kept exact).
func configMap(raw []byte) map[string]any {
	var m map[string]any
	if err := decodeJSONNumbers(raw, &m); err != nil || m == nil {
		return map[string]any{}
	}
	return m
}

// lookupString reads "a.b" or "a" from the config as a string ("" otherwise).
func lookupString(cfg map[string]any, path string) string {
	top, sub, nested := strings.Cut(path, ".")
	if !nested {
		s, _ := cfg[top].(string)
		return s
	}
	m, _ := cfg[top].(map[string]any)
	s, _ := m[sub].(string)
	return s
}

// objects returns the config key's array of objects.
func objects(cfg map[string]any, key string) []map[string]any {
	arr, _ := cfg[key].([]any)
	out := make([]map[string]any, 0, len(arr))
	for _, e := range arr {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// extraEntry is a row's carried keys (extraJSON) as the start of its entry;
// text that is not a JSON object (null included) gives an empty one.
func extraEntry(extra string) map[string]any {
	entry := map[string]any{}
	if extra != "" && (json.Unmarshal([]byte(extra), &entry) != nil || entry == nil) {
		entry = map[string]any{}
	}
	return entry
}

// cellString is an entry's value as the form shows it.
func cellString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// extraJSON is the entry without the keys the form shows, as JSON ("" when
// nothing is left).
func extraJSON(m map[string]any, shown ...string) string {
	rest := map[string]any{}
	for k, v := range m {
		if !slices.Contains(shown, k) {
			rest[k] = v
		}
	}
	if len(rest) == 0 {
		return ""
	}
	b, _ := json.Marshal(rest)
	return string(b)
}

var rowColumns = map[string][]string{"navigation": {"label", "url"}, "delivery": {"id", "name", "fee", "free_over", "countries", "pickup"}}

// settingsFromConfig fills the section's form from the stored configuration.
func settingsFromConfig(raw []byte, section string) settingsData {
	cfg := configMap(raw)
	d := settingsData{Section: section, Values: map[string]string{}}
	switch section {
	case "identity":
		fillTexts(cfg, &d, identityFields, "locale", "store.logo_display", "store.logo_size")
		if b, _ := cfg["email_otp_enabled"].(bool); b {
			d.Values["email_otp_enabled"] = "on"
		}
	case "shop":
		fillTexts(cfg, &d, shopFields)
	case "theme":
		fillTexts(cfg, &d, themeFields, "theme_color")
	case "navigation", "delivery":
		key := map[string]string{"navigation": "navigation", "delivery": "delivery_options"}[section]
		cols := rowColumns[section]
		for _, m := range objects(cfg, key) {
			r := settingsRow{Cells: map[string]string{}, Extra: extraJSON(m, append(cols, "needs_address")...)}
			for _, col := range cols {
				r.Cells[col] = cellString(m[col])
			}
			if section == "delivery" {
				deliveryCells(r.Cells, m)
			}
			d.Rows = append(d.Rows, r)
		}
		for range blankSettingsRows { // a cell of an empty row reads "" (index of a missing key)
			d.Rows = append(d.Rows, settingsRow{Cells: map[string]string{}})
		}
	case "payment-methods":
		d.Methods = methodRows(cfg)
	case "taxes":
		taxesFromConfig(cfg, &d)
	case "origins":
		d.Callback = strings.Join(strings.Fields(stringList(cfg["callback_origins"])), "\n")
	case "advanced":
		d.Config = prettyJSON(raw)
	}
	return d
}

// fillTexts fills d's values of fields, and of the other keys, from cfg.
func fillTexts(cfg map[string]any, d *settingsData, fields []settingField, other ...string) {
	for _, f := range fields {
		other = append(other, f.Key)
	}
	for _, k := range other {
		d.Values[k] = lookupString(cfg, k)
	}
}

// deliveryCells writes a delivery option's rules as its row shows them:
// the countries space-separated, pickup ticked when it needs no address.
func deliveryCells(cells map[string]string, m map[string]any) {
	cells["countries"] = strings.TrimSpace(strings.ReplaceAll(stringList(m["countries"]), "\n", " "))
	cells["pickup"] = ""
	if na, ok := m["needs_address"].(bool); ok && !na {
		cells["pickup"] = "on"
	}
}

func stringList(v any) string {
	arr, _ := v.([]any)
	var b strings.Builder
	for _, e := range arr {
		if s, ok := e.(string); ok {
			b.WriteString(s + "\n")
		}
	}
	return b.String()
}

// methodRows lists every payment method the server knows, offered or not,
// with the stored entry's name, description and other keys.
func methodRows(cfg map[string]any) []methodRow {
	stored := objects(cfg, "payment_methods")
	var out []methodRow
	for _, code := range []string{app.WalletA, app.WalletB} {
		r := methodRow{Code: code, Name: map[string]string{app.WalletA: "Wallet A", app.WalletB: "Wallet B"}[code]}
		for _, m := range stored {
			if m["code"] == code {
				r.Offered, r.Name, r.Description = true, cellString(m["name"]), cellString(m["description"])
				r.Extra = extraJSON(m, "code", "name", "description")
			}
		}
		out = append(out, r)
	}
	return out
}

// readSettingsForm reads a section's form into the form data (as typed) and
// the merge patch of its keys (nil when nothing changed). Its checks name
// the form's fields; the rules themselves are app's (MergeConfig applies
// them to every write, the admin API's included).
func readSettingsForm(c *fiber.Ctx, raw []byte, section string) (settingsData, []byte, error) {
	cfg := configMap(raw)
	d := settingsData{Section: section, Values: map[string]string{}}
	var v app.Validation
	patch := map[string]any{}
	if read := settingsFormReaders[section]; read != nil {
		read(c, &d, &v, patch)
	}
	if err := v.Err(); err != nil {
		return d, nil, err
	}
	dropUnchanged(cfg, patch)
	if len(patch) == 0 {
		return d, nil, nil
	}
	b, err := json.Marshal(patch)
	return d, b, err
}

// settingsFormReaders read the form of each section of the settings page into
// d (to show it again) and patch (the configuration it sets), checking it in v.
var settingsFormReaders = map[string]func(c *fiber.Ctx, d *settingsData, v *app.Validation, patch map[string]any){
	"identity": readIdentityForm,
	"theme":    readThemeForm,
	"shop": func(c *fiber.Ctx, d *settingsData, v *app.Validation, patch map[string]any) {
		d.Domains = readForm(c, v, "domains")["domains"]
		readShopForm(c, d, v, patch)
	},
	"navigation":      readRowsForm,
	"delivery":        readRowsForm,
	"payment-methods": readMethodsForm,
	"taxes":           readTaxesForm,
	"origins":         readOriginsForm,
}

// readIdentityForm reads the store's identity, SEO and logo, and the email
// codes switch.
func readIdentityForm(c *fiber.Ctx, d *settingsData, v *app.Validation, patch map[string]any) {
	readTexts(c, d, v, patch, identityFields)
	if e := d.Values["store.email"]; e != "" {
		v.Check(app.ValidEmail(e), "store.email", "must be an email address")
	}
	if u := d.Values["store.logo"]; u != "" {
		v.Check(app.ValidHTTPURL(u), "store.logo", "must be an http(s) URL")
	}
	readTexts(c, d, v, patch, []settingField{{Key: "store.logo_display"}, {Key: "store.logo_size"}})
	v.OneOf("store.logo_display", d.Values["store.logo_display"], "logo_and_name", "logo_only", "name_only")
	v.OneOf("store.logo_size", d.Values["store.logo_size"], "small", "medium", "large")
	if d.Values["locale"] = formValue(c, "locale"); d.Values["locale"] != "" { // a form without it keeps the language
		v.OneOf("locale", d.Values["locale"], app.Locales...)
		patch["locale"] = d.Values["locale"]
	}
	otp := formOn(c, "email_otp_enabled")
	if otp {
		d.Values["email_otp_enabled"] = "on"
	}
	patch["email_otp_enabled"] = otp
}

// readThemeForm reads the theme's texts and colour.
func readThemeForm(c *fiber.Ctx, d *settingsData, v *app.Validation, patch map[string]any) {
	readTexts(c, d, v, patch, themeFields)
	color := formValue(c, "theme_color")
	d.Values["theme_color"] = color
	v.Check(app.ThemeColorRE.MatchString(color), "theme_color", "must be a colour like #1f6feb")
	patch["theme_color"] = strings.ToLower(color)
}

// readRowsForm reads the rows of the navigation or the delivery options.
func readRowsForm(c *fiber.Ctx, d *settingsData, v *app.Validation, patch map[string]any) {
	section := d.Section
	cols := rowColumns[section]
	n, _ := strconv.Atoi(formValue(c, "rows"))
	n = min(max(n, 0), 200+blankSettingsRows)
	entries := []any{}
	ids := map[string]int{}
	for i := range n {
		pre := "r" + strconv.Itoa(i) + "_"
		r := settingsRow{Cells: map[string]string{}, Extra: formValue(c, pre+"extra"), Delete: formOn(c, pre+"delete")}
		empty := true
		for _, col := range cols {
			r.Cells[col] = formValue(c, pre+col)
			if r.Cells[col] != "" {
				empty = false
			}
		}
		d.Rows = append(d.Rows, r)
		if empty || r.Delete {
			continue
		}
		entry := extraEntry(r.Extra)
		row := "row " + strconv.Itoa(i+1)
		if section == "navigation" {
			readNavigationRow(v, row, r, entry)
		} else {
			readDeliveryRow(v, row, i, r, entry, ids)
		}
		entries = append(entries, entry)
	}
	key := map[string]string{"navigation": "navigation", "delivery": "delivery_options"}[section]
	if section == "delivery" && len(entries) == 0 {
		v.Add("rows", "keep at least one delivery option: checkout needs a fee to charge")
	}
	patch[key] = entries
}

// readNavigationRow checks a navigation row into entry.
func readNavigationRow(v *app.Validation, row string, r settingsRow, entry map[string]any) {
	v.Check(r.Cells["label"] != "" && utf8.RuneCountInString(r.Cells["label"]) <= 100, row, "needs a label of at most 100 characters")
	u := r.Cells["url"]
	v.Check(u != "" && len(u) <= 2048 && (strings.HasPrefix(u, "/") || app.ValidHTTPURL(u)), row, "needs a link: a path like /categories/shoes or an http(s) URL")
	entry["label"], entry["url"] = r.Cells["label"], u
}

// readDeliveryRow checks the i-th delivery option row into entry; ids maps
// the ids of the rows before to their row numbers.
func readDeliveryRow(v *app.Validation, row string, i int, r settingsRow, entry map[string]any, ids map[string]int) {
	id := r.Cells["id"]
	if prev, dup := ids[id]; dup {
		v.Add(row, "has the same id as row "+strconv.Itoa(prev))
	}
	ids[id] = i + 1
	v.Check(id != "" && len(id) <= 50 && !strings.ContainsAny(id, " \t"), row, "needs an id without spaces (at most 50 characters)")
	v.Check(r.Cells["name"] != "" && utf8.RuneCountInString(r.Cells["name"]) <= 100, row, "needs a name of at most 100 characters")
	fee, err := app.ParseMoney(r.Cells["fee"])
	v.Check(err == nil && fee >= 0, row, "needs a fee like 4.90 (0 for free)")
	entry["id"], entry["name"], entry["fee"] = id, r.Cells["name"], fee
	readDeliveryRules(v, row, r, entry)
}

// readDeliveryRules checks a delivery row's rules into entry: free over an
// amount (empty: never), the countries offered in (empty: everywhere),
// pickup (needs no address).
func readDeliveryRules(v *app.Validation, row string, r settingsRow, entry map[string]any) {
	delete(entry, "free_over")
	if s := r.Cells["free_over"]; s != "" {
		over, err := app.ParseMoney(s)
		v.Check(err == nil && over >= 0, row, "needs a free-over amount like 50.00, or none")
		entry["free_over"] = over
	}
	delete(entry, "countries")
	if cs := strings.FieldsFunc(r.Cells["countries"], func(c rune) bool { return c == ' ' || c == ',' }); len(cs) > 0 {
		for i, c := range cs {
			cs[i] = app.NormalizeCountry(c)
			v.Check(app.ValidCountry(cs[i]), row, "needs countries as ISO codes like US DE, or none")
		}
		entry["countries"] = cs
	}
	delete(entry, "needs_address")
	if r.Cells["pickup"] == "on" {
		entry["needs_address"] = false
	}
}

// readMethodsForm reads the payment methods offered.
func readMethodsForm(c *fiber.Ctx, d *settingsData, v *app.Validation, patch map[string]any) {
	entries := []any{}
	for _, code := range []string{app.WalletA, app.WalletB} {
		r := methodRow{Code: code, Name: formValue(c, code+"_name"), Description: formValue(c, code+"_description"),
			Offered: formOn(c, code+"_offered"), Extra: formValue(c, code+"_extra")}
		d.Methods = append(d.Methods, r)
		if !r.Offered {
			continue
		}
		v.Check(r.Name != "" && utf8.RuneCountInString(r.Name) <= 100, code+"_name", "needs a name of at most 100 characters")
		entry := extraEntry(r.Extra)
		entry["code"], entry["name"] = code, r.Name
		if r.Description != "" {
			entry["description"] = r.Description
		} else {
			delete(entry, "description")
		}
		entries = append(entries, entry)
	}
	v.Check(len(entries) > 0, "payment_methods", "offer at least one payment method: checkout needs one")
	patch["payment_methods"] = entries
}

// readOriginsForm reads the callback origins (allowed_origins is a store
// field, Stores.SetSettings, saved by saveSettings; callback_origins is part
// of the configuration).
func readOriginsForm(c *fiber.Ctx, d *settingsData, v *app.Validation, patch map[string]any) {
	fv := readForm(c, v, "allowed_origins", "callback_origins")
	d.Allowed, d.Callback = fv["allowed_origins"], fv["callback_origins"]
	list := strings.Fields(d.Callback)
	for i, o := range list {
		if n := app.NormalizeOrigin(o); n != "" && bareOrigin(o) {
			list[i] = n
		} else {
			v.Add("callback_origins", "“"+o+"” is not an origin: write the scheme and host only, like https://shop.example")
		}
	}
	v.Check(len(list) <= app.MaxCallbackOrigins, "callback_origins", "at most "+strconv.Itoa(app.MaxCallbackOrigins)+" origins")
	patch["callback_origins"] = list
}

// dropUnchanged removes from patch what does not differ from the stored
// configuration cfg: saving an unchanged form changes nothing.
func dropUnchanged(cfg map[string]any, patch map[string]any) {
	for k, nv := range patch {
		old := cfg[k]
		om, oldObj := old.(map[string]any)
		if nm, newObj := nv.(map[string]any); oldObj && newObj { // an object's keys the form does not set stay
			sub := map[string]any{}
			for sk := range nm {
				sub[sk] = om[sk]
			}
			old = sub
		}
		b, _ := json.Marshal(nv)
		ob, _ := json.Marshal(old)
		if string(b) == string(ob) {
			delete(patch, k)
		}
	}
}

// bareOrigin reports whether s is a URL with nothing after the host (a "/" aside).
func bareOrigin(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Path == "" || u.Path == "/") && u.RawQuery == "" && u.Fragment == "" && !u.ForceQuery && u.User == nil
}

// jsonErrorPosition is the line and column (1-based, in characters) where
// the JSON text's syntax error is, or 0, 0.
func jsonErrorPosition(text string, err error) (int, int) {
	if _, off, ok := jsonError(text, err); ok {
		return lineCol(text, off)
	}
	return 0, 0
}

// readShopForm reads the shop window form's config fields into the patch
// (hero, home, footer and pages are merged key by key).
func readShopForm(c *fiber.Ctx, d *settingsData, v *app.Validation, patch map[string]any) {
	readTexts(c, d, v, patch, shopFields)
	for _, k := range []string{"hero.image", "hero.cta_url"} {
		if val := d.Values[k]; val != "" {
			v.Check(app.ValidHTTPURL(val) || (strings.HasPrefix(val, "/") && !strings.HasPrefix(val, "//")), k, "must be an http(s) URL or a path")
		}
	}
}

// readTexts reads the text fields of a form into d (as typed) and patch (at
// their key paths), each at most its Max characters.
func readTexts(c *fiber.Ctx, d *settingsData, v *app.Validation, patch map[string]any, fields []settingField) {
	for _, f := range fields {
		val := formValue(c, f.Key)
		d.Values[f.Key] = val
		if f.Max > 0 {
			v.MaxLen(f.Key, val, f.Max)
		}
		top, sub, nested := strings.Cut(f.Key, ".")
		if !nested {
			patch[top] = val
			continue
		}
		m, _ := patch[top].(map[string]any)
		if m == nil {
			m = map[string]any{}
			patch[top] = m
		}
		m[sub] = val
	}
}
