package shop

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"storefront/app"
	"storefront/app/i18n"
)

// The product page's variant picker: one group of radio buttons per option
// ("Size", "Colour": the names of the variants' attributes), one button per
// value. Without JavaScript the form posts the values chosen (option.NAME)
// and the cart resolves the variant (chosenVariant); with it, shop.js makes
// the price, stock and picture follow the choice from the page's variant
// data (variantView). Variants that do not each name one combination of
// the same options get one group of the variants themselves (variant_id).

// optionField prefixes an option's name in the form the picker posts.
const optionField = "option."

// optionGroup is one group of the picker.
type optionGroup struct {
	Legend string
	Field  string // the form field: optionField+name, or variant_id
	Values []optionValue
}

// optionValue is one radio button of a group.
type optionValue struct {
	Value, Label      string
	Checked, Disabled bool
}

// variantView is what shop.js knows of a variant: its value in each group
// (in order) and what the page shows when it is chosen.
type variantView struct {
	ID    uint64   `json:"id"`
	Opts  []string `json:"opts"`
	Price string   `json:"price"`
	Was   string   `json:"was,omitempty"`
	Stock string   `json:"stock"`
	In    bool     `json:"in"`
	Shot  int      `json:"shot"` // the gallery's picture of it (-1: none)
}

// optionNames are the options of vs, sorted: the attribute names every
// variant gives a value, when each variant has exactly those and no two
// share their values. nil: the variants are chosen by themselves.
func optionNames(vs []app.Variant) []string {
	if len(vs) == 0 {
		return nil
	}
	names := valued(vs[0])
	seen := make(map[string]bool, len(vs))
	for _, v := range vs {
		key := strings.Join(optionValues(v, names), "\x00")
		if len(names) == 0 || !slices.Equal(valued(v), names) || seen[key] {
			return nil
		}
		seen[key] = true
	}
	return names
}

// valued are the names of v's attributes that have a value, sorted.
func valued(v app.Variant) []string {
	var names []string
	for k, val := range v.Attributes {
		if strings.TrimSpace(val) != "" {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	return names
}

// optionValues are v's values of names, trimmed.
func optionValues(v app.Variant, names []string) []string {
	out := make([]string, len(names))
	for i, name := range names {
		out[i] = strings.TrimSpace(v.Attributes[name])
	}
	return out
}

// pickerGroups are the picker's groups for p's variants with chosen (an
// index into vs: the first in stock) checked. In a group a value is
// disabled when no variant in stock has it with the values chosen in the
// groups before it: the first group offers every value some stock has.
func pickerGroups(vs []app.Variant, names []string, chosen int) []optionGroup {
	groups := make([]optionGroup, len(names))
	for g, name := range names {
		groups[g] = optionGroup{Legend: capital(name), Field: optionField + name}
		for _, v := range vs {
			val := strings.TrimSpace(v.Attributes[name])
			if slices.ContainsFunc(groups[g].Values, func(o optionValue) bool { return o.Value == val }) {
				continue
			}
			groups[g].Values = append(groups[g].Values, optionValue{Value: val, Label: val,
				Checked:  chosen >= 0 && strings.TrimSpace(vs[chosen].Attributes[name]) == val,
				Disabled: !inStockWith(vs, names[:g+1], chosen, val)})
		}
	}
	return groups
}

// inStockWith reports whether a variant in stock has val for the last of
// names and the chosen variant's values for the others.
func inStockWith(vs []app.Variant, names []string, chosen int, val string) bool {
	before := names[:len(names)-1]
	return slices.ContainsFunc(vs, func(v app.Variant) bool { // one in stock: chosen is too
		return v.Stock > 0 && strings.TrimSpace(v.Attributes[names[len(before)]]) == val &&
			slices.Equal(optionValues(v, before), optionValues(vs[chosen], before))
	})
}

// fillPicker sets d's picker (Groups) and its script's data (VariantData)
// from d.P's variants at their prices now.
func fillPicker(l *i18n.Catalog, d *productData, deals *app.LiveDeals, currency string) {
	vs := d.P.Variants
	if len(vs) == 0 {
		return
	}
	chosen := slices.IndexFunc(vs, func(v app.Variant) bool { return v.Stock > 0 }) // the first in stock (-1: none)
	// The labels of a group of the variants themselves say how they differ
	// from the product's price; the price and stock shown are the chosen
	// variant's, what the form adds without JavaScript.
	base := d.Price.Unit()
	if chosen >= 0 {
		d.Price, d.Stock = deals.PriceOf(d.P, vs[chosen].ID), vs[chosen].Stock
	}
	names := optionNames(vs)
	if names != nil {
		d.Groups = pickerGroups(vs, names, chosen)
	} else {
		g := optionGroup{Legend: l.T("product.variant"), Field: "variant_id"}
		for i, v := range vs {
			price := deals.PriceOf(d.P, v.ID).Unit()
			g.Values = append(g.Values, optionValue{Value: strconv.FormatUint(v.ID, 10), Label: variantLabel(l, v, price, currency, base),
				Checked: i == chosen, Disabled: v.Stock <= 0})
		}
		d.Groups = []optionGroup{g}
	}
	for _, v := range vs {
		vv := variantViewOf(l, d.P, v, names, deals, currency)
		vv.Shot = d.shotOf(v.Image)
		d.VariantData = append(d.VariantData, vv)
	}
}

// variantViewOf is v as shop.js knows it.
func variantViewOf(l *i18n.Catalog, p *app.Product, v app.Variant, names []string, deals *app.LiveDeals, currency string) variantView {
	pr := deals.PriceOf(p, v.ID)
	vv := variantView{ID: v.ID, Price: l.Money(int64(pr.Unit()), currency), In: v.Stock > 0, Opts: []string{strconv.FormatUint(v.ID, 10)}}
	if was := pr.Was(); was != 0 {
		vv.Was = l.Money(int64(was), currency)
	}
	switch {
	case v.Stock <= 0:
		vv.Stock = l.T("product.outstock")
	case v.Stock <= 5:
		vv.Stock = l.TF("product.stock.low", v.Stock)
	default:
		vv.Stock = l.T("product.instock")
	}
	if names != nil {
		vv.Opts = optionValues(v, names)
	}
	return vv
}

// chosenVariant is the variant of productID whose options form names (the
// picker's option.NAME fields, posted without JavaScript): 0 when it
// names none. Errors: not_found, validation_failed (no variant has them).
func (s *Shop) chosenVariant(rq *request, productID uint64, form []byte) (uint64, error) {
	vals, err := url.ParseQuery(string(form))
	if err != nil || !hasOption(vals) {
		return 0, nil // decodeCartForm has refused a form that is not one
	}
	p, err := s.svc.Catalog.Product(rq.Store.ID, productID)
	if app.ErrorCode(err) == app.ENotFound {
		return 0, nil // the cart says so, as for any unknown product
	} else if err != nil {
		return 0, err
	}
	names := optionNames(p.Variants)
	for _, v := range p.Variants {
		match := names != nil
		for _, name := range names {
			match = match && strings.TrimSpace(v.Attributes[name]) == strings.TrimSpace(vals.Get(optionField+name))
		}
		if match {
			return v.ID, nil
		}
	}
	return 0, app.Invalid("variant_id", "no variant has the options chosen")
}

// hasOption reports whether vals has a picker's option field.
func hasOption(vals url.Values) bool {
	for k := range vals {
		if strings.HasPrefix(k, optionField) {
			return true
		}
	}
	return false
}
