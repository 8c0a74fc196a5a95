package admin_test

import (
	"fmt"
	"strings"
	"testing"

	"storefront/testenv"
)

// TestConfigRulesThroughAPI (issue 27 point 8): every value the panel's
// settings forms refuse is refused by the admin API's PATCH config too,
// 400 naming the field, and the configuration stays as it was.
func TestConfigRulesThroughAPI(t *testing.T) {
	t.Parallel()
	testenv.ForEachBackend(t, testenv.Options{}, func(t *testing.T, e *testenv.Env) {
		sid, _ := e.Store("Rules")
		path := fmt.Sprintf("%s/stores/%d/config/", api, sid)
		long := strings.Repeat("x", 2001)
		for _, tc := range []struct {
			name, field string
			patch       map[string]any
		}{
			{"ThemeColorWord", "theme_color", map[string]any{"theme_color": "banana"}},
			{"ThemeColorCSS", "theme_color", map[string]any{"theme_color": "red;background:url(x)"}},
			{"LogoScript", "store.logo", map[string]any{"store": map[string]any{"logo": "javascript:alert(1)"}}},
			{"LogoRelative", "store.logo", map[string]any{"store": map[string]any{"logo": "//evil.example/x.png"}}},
			{"Email", "store.email", map[string]any{"store": map[string]any{"email": "not-an-email"}}},
			{"LogoDisplay", "store.logo_display", map[string]any{"store": map[string]any{"logo_display": "huge"}}},
			{"LogoSize", "store.logo_size", map[string]any{"store": map[string]any{"logo_size": "giant"}}},
			{"StoreTextLong", "store.name", map[string]any{"store": map[string]any{"name": long}}},
			{"SEOTextLong", "seo.title", map[string]any{"seo": map[string]any{"title": long}}},
			{"ThemeWordLong", "template", map[string]any{"template": strings.Repeat("t", 101)}},
			{"NavNoLabel", "navigation[0].label", map[string]any{"navigation": []any{map[string]any{"label": "", "url": "/shoes"}}}},
			{"NavScriptURL", "navigation[0].url", map[string]any{"navigation": []any{map[string]any{"label": "Go", "url": "javascript:alert(1)"}}}},
			{"NavProtocolRelative", "navigation[0].url", map[string]any{"navigation": []any{map[string]any{"label": "Go", "url": "//evil.example"}}}},
			{"NoPaymentMethod", "payment_methods", map[string]any{"payment_methods": []any{}}},
			{"MethodNoName", "payment_methods[0].name", map[string]any{"payment_methods": []any{map[string]any{"code": "WALLET_A", "name": ""}}}},
			{"MethodUnknown", "payment_methods[0].code", map[string]any{"payment_methods": []any{map[string]any{"code": "WALLET_C", "name": "C"}}}},
			{"NoDelivery", "delivery_options", map[string]any{"delivery_options": []any{}}},
			{"DeliveryIDSpace", "delivery_options[0].id", map[string]any{"delivery_options": []any{map[string]any{"id": "a b", "name": "A", "fee": 0}}}},
			{"DeliveryNoName", "delivery_options[0].name", map[string]any{"delivery_options": []any{map[string]any{"id": "a", "name": "", "fee": 0}}}},
			{"CallbackNotOrigin", "callback_origins", map[string]any{"callback_origins": []any{"https://shop.example/path"}}},
			{"StoreCountry", "store.country", map[string]any{"store": map[string]any{"country": "usa"}}},
			{"StoreRegion", "store.region", map[string]any{"store": map[string]any{"region": "new york"}}},
			{"TaxesNotObject", "taxes", map[string]any{"taxes": []any{}}},
			{"TaxesIncludeNotBool", "taxes.prices_include_tax", map[string]any{"taxes": map[string]any{"prices_include_tax": "yes"}}},
			{"TaxesDeliveryNotBool", "taxes.tax_delivery", map[string]any{"taxes": map[string]any{"tax_delivery": 1}}},
			{"TaxesRatesNotList", "taxes.rates", map[string]any{"taxes": map[string]any{"rates": "20"}}},
			{"TaxRateNoName", "taxes.rates[0].name", map[string]any{"taxes": map[string]any{"rates": []any{map[string]any{"name": "", "rate": "20"}}}}},
			{"TaxRateWord", "taxes.rates[0].rate", map[string]any{"taxes": map[string]any{"rates": []any{map[string]any{"name": "VAT", "rate": "twenty"}}}}},
			{"TaxRateNumber", "taxes.rates[0].rate", map[string]any{"taxes": map[string]any{"rates": []any{map[string]any{"name": "VAT", "rate": 20}}}}},
			{"TaxRateOver100", "taxes.rates[0].rate", map[string]any{"taxes": map[string]any{"rates": []any{map[string]any{"name": "VAT", "rate": "100.5"}}}}},
			{"TaxRateDecimals", "taxes.rates[0].rate", map[string]any{"taxes": map[string]any{"rates": []any{map[string]any{"name": "VAT", "rate": "7.12345"}}}}},
			{"TaxRateCountry", "taxes.rates[0].country", map[string]any{"taxes": map[string]any{"rates": []any{map[string]any{"name": "VAT", "rate": "20", "country": "gb"}}}}},
			{"TaxRateRegionAlone", "taxes.rates[0].region", map[string]any{"taxes": map[string]any{"rates": []any{map[string]any{"name": "CA", "rate": "7.25", "region": "CA"}}}}},
			{"TaxRateClass", "taxes.rates[0].class", map[string]any{"taxes": map[string]any{"rates": []any{map[string]any{"name": "VAT", "rate": "5", "class": "Reduced Rate"}}}}},
			{"TaxRateTwice", "taxes.rates[1]", map[string]any{"taxes": map[string]any{"rates": []any{map[string]any{"name": "A", "rate": "20", "country": "GB"}, map[string]any{"name": "B", "rate": "5", "country": "GB"}}}}},
			{"TaxPrefixSpace", "taxes.invoice_prefix", map[string]any{"taxes": map[string]any{"invoice_prefix": "INV 2026"}}},
			{"TaxCreditPrefixLong", "taxes.credit_note_prefix", map[string]any{"taxes": map[string]any{"credit_note_prefix": strings.Repeat("C", 21)}}},
			{"TaxIDLong", "taxes.tax_id", map[string]any{"taxes": map[string]any{"tax_id": strings.Repeat("1", 51)}}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := e.Do(testenv.Req{Method: "PATCH", Path: path, Token: e.OwnerToken, Body: tc.patch}).Expect(t, 400, "validation_failed")
				if r.Body.Errors[tc.field] == "" {
					t.Fatalf("errors: got %v, want %s named", r.Body.Errors, tc.field)
				}
			})
		}
		var cfg map[string]any
		e.Do(testenv.Req{Method: "GET", Path: path, Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &cfg)
		if cfg["theme_color"] != "#1f6feb" || cfg["store"].(map[string]any)["logo"] != "" {
			t.Fatalf("config after refused patches: %v", cfg)
		}
		t.Run("OK", func(t *testing.T) {
			e.Do(testenv.Req{Method: "PATCH", Path: path, Token: e.OwnerToken, Body: map[string]any{"theme_color": "#AA3300",
				"store":      map[string]any{"logo": "https://cdn.example/logo.png", "email": "shop@example.com"},
				"navigation": []any{map[string]any{"label": "Shoes", "url": "/categories/shoes"}, map[string]any{"label": "Blog", "url": "https://blog.example"}}}}).Expect(t, 200, "")
		})
	})
}
