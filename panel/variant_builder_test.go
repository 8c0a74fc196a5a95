package panel_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"storefront/testenv"
)

// The option builder makes the variant rows (the cross product of the
// options) without JavaScript: "Make variants" shows the form again with
// the rows, keeping what was typed; nothing is saved until the owner saves.
func TestPanelVariantBuilder(t *testing.T) {
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	b := owner(t, e)
	newPage := fmt.Sprintf("/admin/stores/%d/products/new/", sid)
	action := fmt.Sprintf("/admin/stores/%d/products/new/images/", sid)
	form := map[string]string{"name": "Tee", "price": "20.00", "stock": "0", "description": "Soft",
		"options": "Size: S, M, L\nColour: Red, Blue", "action": "make_variants", "variant_rows": "0"}
	p := b.postMultipart(newPage, action, form).expect(t, 200, "6 variant rows made",
		`value="S / Red"`, `value="Size=S; Colour=Red"`, `value="L / Blue"`, `value="Size=L; Colour=Blue"`,
		`value="Tee"`, `value="20.00"`, ">Soft</textarea>", "Size: S, M, L\nColour: Red, Blue</textarea>",
		`name="variant_rows" value="9"`)
	if n := strings.Count(p.Body, " / "); n != 6 {
		t.Fatalf("%d variant names, want 6", n)
	}
	if _, err := e.Svc.Catalog.Product(sid, 1); err == nil {
		t.Fatal("Make variants saved the product")
	}
	// The rows are edited (price, stock, SKU), then saved with the product.
	form = map[string]string{"name": "Tee", "price": "20.00", "stock": "0", "variant_rows": "6"}
	for i, c := range []string{"S / Red", "S / Blue", "M / Red", "M / Blue", "L / Red", "L / Blue"} {
		size, colour, _ := strings.Cut(c, " / ")
		pre := fmt.Sprintf("v%d_", i)
		form[pre+"name"], form[pre+"attrs"] = c, "Size="+size+"; Colour="+colour
		form[pre+"stock"], form[pre+"sku"] = fmt.Sprint(i+1), "TEE-"+size+"-"+colour
	}
	form["v5_price"], form["v5_image"] = "25.00", "https://img.example.com/tee-blue.jpg"
	b.postMultipart(newPage, action, form).redirectsTo(t, fmt.Sprintf("/admin/stores/%d/products/", sid))
	pr := lastProduct(t, e, sid)
	if len(pr.Variants) != 6 || pr.Variants[5].Price != 2500 || pr.Variants[5].Attributes["Colour"] != "Blue" ||
		pr.Variants[0].Attributes["Size"] != "S" || pr.Variants[2].Stock != 3 || pr.Variants[1].SKU != "TEE-S-Blue" ||
		pr.Variants[5].Image != "https://img.example.com/tee-blue.jpg" || pr.Variants[4].Image != "" {
		t.Fatalf("variants %+v", pr.Variants)
	}
	page := fmt.Sprintf("/admin/stores/%d/products/%d/", sid, pr.ID)
	t.Run("KeepsSavedAndTyped", func(t *testing.T) {
		v := url.Values{"name": {"Tee"}, "price": {"20.00"}, "options": {"Size: S, XL\nColour: Red"},
			"action": {"make_variants"}, "variant_rows": {"2"},
			"v0_id": {fmt.Sprint(pr.Variants[0].ID)}, "v0_name": {"S / Red"}, "v0_attrs": {"Size=S; Colour=Red"}, "v0_stock": {"1"},
			"v1_name": {"Big red"}, "v1_attrs": {"Colour=Red; Size=XL"}, "v1_price": {"30.00"}}
		p := b.submit(page, page, v).expect(t, 200, "2 variant rows made", `value="Big red"`, `value="30.00"`)
		if strings.Contains(p.Body, `value="XL / Red"`) || strings.Count(p.Body, `value="S / Red"`) != 1 {
			t.Fatal("a saved or typed row was made again")
		}
	})
	t.Run("ErrImage", func(t *testing.T) { // the picture's error lands on its row; the page shows it with the typed URL
		v := url.Values{"name": {"Tee"}, "price": {"20.00"}, "variant_rows": {"1"},
			"v0_id": {fmt.Sprint(pr.Variants[0].ID)}, "v0_name": {"S / Red"}, "v0_image": {"javascript:alert(1)"}}
		b.submit(page, page, v).expect(t, 400, "image must be an http(s) URL", `name="v0_image" value="javascript:alert(1)"`)
	})
	t.Run("ErrTooMany", func(t *testing.T) {
		v := url.Values{"name": {"Tee"}, "price": {"20.00"}, "options": {"A: 1,2,3,4,5\nB: 1,2,3,4,5\nC: 1,2,3,4,5"},
			"action": {"make_variants"}}
		b.submit(newPage, fmt.Sprintf("/admin/stores/%d/products/", sid), v).
			expect(t, 400, "make more than 100 variants", "A: 1,2,3,4,5")
	})
	for name, text := range map[string]string{"NoColon": "Size S M", "NoValues": "Size: , ,",
		"Twice": "Size: S\nsize: M", "Empty": " ", "Equals": "Size: S=1", "TooLong": strings.Repeat("x", 4001)} {
		t.Run("Err"+name, func(t *testing.T) {
			b.submit(page, page, url.Values{"name": {"Tee"}, "price": {"20.00"}, "options": {text}, "action": {"make_variants"}}).
				expect(t, 400, `class="ferr"`)
		})
	}
	t.Run("ErrOtherStore", func(t *testing.T) {
		sidB, _ := e.Store("Shop B")
		other := fmt.Sprintf("/admin/stores/%d/products/%d/", sidB, pr.ID)
		b.submit(page, other, url.Values{"options": {"Size: S"}, "action": {"make_variants"}}).expect(t, 404)
	})
}
