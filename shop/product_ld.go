package shop

import (
	"storefront/app"
)

// What the Product JSON-LD says beside the offer's price: the brand, the
// shipping details and the return policy, from the store's settings
// (docs/decisions.md, "Shop window").

// maxShippingLD bounds the delivery options the offer lists.
const maxShippingLD = 10

// brandLD is the product's brand: products have no brand field, so the
// shop's name stands for it.
func brandLD(l *look) map[string]any {
	return map[string]any{"@type": "Brand", "name": l.Name}
}

// shippingLD is an OfferShippingDetails for each delivery option that
// ships (pickups do not): its fee for one unit at price (free when price
// reaches its free_over), to its countries, else to the store's country.
func shippingLD(st app.Settings, price app.Money, currency string) []any {
	var out []any
	for _, o := range st.DeliveryOptions {
		if !o.NeedsAddress || len(out) == maxShippingLD {
			continue
		}
		d := map[string]any{"@type": "OfferShippingDetails",
			"shippingRate": map[string]any{"@type": "MonetaryAmount", "value": o.FeeFor(price).String(), "currency": currency}}
		countries := o.Countries
		if len(countries) == 0 && st.Home.Country != "" {
			countries = []string{st.Home.Country}
		}
		var dest []any
		for _, c := range countries {
			dest = append(dest, map[string]any{"@type": "DefinedRegion", "addressCountry": c})
		}
		if len(dest) > 0 {
			d["shippingDestination"] = dest
		}
		out = append(out, d)
	}
	return out
}

// returnPolicyLD is the MerchantReturnPolicy: the store's shipping and
// returns page (pages.shipping), where the owner writes the terms; nil
// without one (the shop has no return settings to state more).
func returnPolicyLD(base string, st app.Settings, l *look) map[string]any {
	if l.Pages["shipping"] == "" {
		return nil
	}
	p := map[string]any{"@type": "MerchantReturnPolicy", "merchantReturnLink": base + "/shipping/"}
	setNonEmpty(p, "applicableCountry", st.Home.Country)
	return p
}

// setNonEmpty sets m[k] to v unless v is "": the structured data leaves
// out what a store has not filled in.
func setNonEmpty(m map[string]any, k, v string) {
	if v != "" {
		m[k] = v
	}
}
