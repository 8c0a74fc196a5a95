package panel

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// maxOptionsText bounds the option builder's text (a few options of a few
// values each fit in far less).
const maxOptionsText = 4000

// productOption is one line of the option builder: "Size: S, M, L".
type productOption struct {
	Name   string
	Values []string
}

// parseOptions reads the builder's text, one option a line as
// "Name: value, value". Errors name the line as a person counts.
func parseOptions(text string) ([]productOption, error) {
	if len(text) > maxOptionsText {
		return nil, app.Invalid("options", "at most "+strconv.Itoa(maxOptionsText)+" characters")
	}
	var opts []productOption
	seen := map[string]bool{}
	for i, line := range strings.Split(text, "\n") {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		at := "Line " + strconv.Itoa(i+1) + ": "
		name, list, ok := strings.Cut(line, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, "=;") {
			return nil, app.Invalid("options", at+"write an option as Size: S, M, L (no = or ; in the name)")
		}
		if seen[strings.ToLower(name)] {
			return nil, app.Invalid("options", at+"the option “"+name+"” is there twice")
		}
		seen[strings.ToLower(name)] = true
		o := productOption{Name: name}
		for _, val := range strings.Split(list, ",") {
			val = strings.TrimSpace(val)
			if val == "" || slices.ContainsFunc(o.Values, func(x string) bool { return strings.EqualFold(x, val) }) {
				continue
			}
			if strings.ContainsAny(val, "=;") {
				return nil, app.Invalid("options", at+"a value cannot contain = or ;")
			}
			o.Values = append(o.Values, val)
		}
		if len(o.Values) == 0 {
			return nil, app.Invalid("options", at+"give “"+name+"” at least one value, e.g. "+name+": S, M, L")
		}
		opts = append(opts, o)
	}
	if len(opts) == 0 {
		return nil, app.Invalid("options", "type at least one option, e.g. Size: S, M, L")
	}
	return opts, nil
}

// combinations is the cross product of the options' values as variant rows
// (name "S / Red", attributes "Size=S; Colour=Red"), or an error when it
// would make more than limit rows.
func combinations(opts []productOption, limit int) ([]variantRow, error) {
	n := 1
	for _, o := range opts {
		n *= len(o.Values)
		if n > limit {
			return nil, app.Invalid("options", "these options make more than "+strconv.Itoa(limit)+
				" variants (a product has at most "+strconv.Itoa(app.MaxVariants)+"); use fewer values")
		}
	}
	rows := []variantRow{{}}
	for _, o := range opts {
		next := make([]variantRow, 0, len(rows)*len(o.Values))
		for _, r := range rows {
			for _, val := range o.Values {
				next = append(next, variantRow{Name: joinNonEmpty(r.Name, " / ", val),
					Attrs: joinNonEmpty(r.Attrs, "; ", o.Name+"="+val)})
			}
		}
		rows = next
	}
	return rows, nil
}

func joinNonEmpty(a, sep, b string) string {
	if a == "" {
		return b
	}
	return a + sep + b
}

// sameAttrs reports whether two attribute texts say the same (any order).
func sameAttrs(a, b string) bool {
	ma, okA := parseAttrs(a)
	mb, okB := parseAttrs(b)
	return okA && okB && len(ma) > 0 && maps.Equal(ma, mb)
}

// buildVariants makes the variant rows for the builder's options: saved
// variants (with an id) stay as they are; the unsaved rows are replaced by
// one row per combination not saved yet, keeping what was typed in an
// unsaved row of the same attributes.
func buildVariants(rows []variantRow, options string) ([]variantRow, error) {
	opts, err := parseOptions(options)
	if err != nil {
		return nil, err
	}
	var saved, typed []variantRow
	for _, r := range rows {
		if r.ID != 0 {
			saved = append(saved, r)
		} else {
			typed = append(typed, r)
		}
	}
	combos, err := combinations(opts, app.MaxVariants-len(saved))
	if err != nil {
		return nil, err
	}
	out := saved
next:
	for _, c := range combos {
		for _, r := range saved {
			if sameAttrs(r.Attrs, c.Attrs) {
				continue next
			}
		}
		for _, r := range typed {
			if sameAttrs(r.Attrs, c.Attrs) {
				c = r
				break
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// makeVariants answers the form's "Make variants" button: the same form
// again, with the variant rows made from the options (nothing is saved).
func (p *panel) makeVariants(c *fiber.Ctx, v *view, form productForm, pr *app.Product) error {
	rows, err := buildVariants(form.Variants, form.Options)
	if err != nil {
		form.variantIndex = nil
		for i := range form.Variants {
			form.Variants[i].Err = ""
		}
		return p.showProduct(c, v, p.formError(c, v, err), form, pr)
	}
	form.Variants = rows
	v.Flash = ok1(strconv.Itoa(len(rows)) + " variant rows made: check them, then save the product.")
	return p.showProduct(c, v, fiber.StatusOK, form.withBlankRows(), pr)
}

// wantsVariants reports whether the form was sent with "Make variants".
func wantsVariants(c *fiber.Ctx) bool { return readForm(c, nil, "action")["action"] == "make_variants" }
