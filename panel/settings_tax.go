package panel

import (
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// The "Taxes and invoices" settings section (docs/taxes.md): the config key
// taxes and the store's country and region, as one form. The rates are a
// text area, one rate a line: "name | rate | country | region | class".
// The rules are app's (MergeConfig): this form only reads and shows.

// taxFields are the section's text fields.
var taxFields = []settingField{
	{"store.country", "Country", "ISO code in upper case, like GB, DE or US: where the shop's prices are taxed by default", 0, false},
	{"store.region", "Region", "optional: a state or province code, like CA, for rates set per region", 0, false},
	{"taxes.invoice_prefix", "Invoice number prefix", "like INV- (numbers follow without gaps)", 0, false},
	{"taxes.credit_note_prefix", "Credit note prefix", "like CN-", 0, false},
	{"taxes.tax_id", "Tax id", "your VAT or sales-tax number, printed on invoices", 0, false},
}

// taxesFromConfig fills the form from the configuration.
func taxesFromConfig(cfg map[string]any, d *settingsData) {
	fillTexts(cfg, d, taxFields)
	taxes, _ := cfg["taxes"].(map[string]any)
	for _, k := range []string{"prices_include_tax", "tax_delivery"} {
		if b, _ := taxes[k].(bool); b {
			d.Values["taxes."+k] = "on"
		}
	}
	var lines []string
	for _, r := range objects(taxes, "rates") {
		cells := []string{}
		for _, k := range []string{"name", "rate", "country", "region", "class"} {
			cells = append(cells, cellString(r[k]))
		}
		lines = append(lines, strings.TrimRight(strings.Join(cells, " | "), " |"))
	}
	d.Values["taxes.rates"] = strings.Join(lines, "\n")
}

// readTaxesForm reads the section into patch (store.country and .region,
// the whole taxes object).
func readTaxesForm(c *fiber.Ctx, d *settingsData, v *app.Validation, patch map[string]any) {
	readTexts(c, d, v, patch, taxFields)
	store, taxes := patch["store"].(map[string]any), patch["taxes"].(map[string]any)
	store["country"], store["region"] = strings.ToUpper(d.Values["store.country"]), strings.ToUpper(d.Values["store.region"])
	for _, k := range []string{"prices_include_tax", "tax_delivery"} {
		on := formOn(c, "taxes."+k)
		if on {
			d.Values["taxes."+k] = "on"
		}
		taxes[k] = on
	}
	d.Values["taxes.rates"] = formValue(c, "taxes.rates")
	rates := []any{}
	for i, line := range strings.Split(d.Values["taxes.rates"], "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		cells := strings.Split(line, "|")
		if len(cells) < 2 || len(cells) > 5 {
			v.Add("taxes.rates", "line "+strconv.Itoa(i+1)+": write name | rate | country | region | class (the last three optional)")
			continue
		}
		cells = append(cells, "", "", "")
		rates = append(rates, map[string]any{"name": strings.TrimSpace(cells[0]), "rate": strings.TrimSpace(cells[1]),
			"country": strings.TrimSpace(cells[2]), "region": strings.TrimSpace(cells[3]), "class": strings.TrimSpace(cells[4])})
	}
	taxes["rates"] = rates
}
