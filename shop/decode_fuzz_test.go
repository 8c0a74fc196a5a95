package shop_test

import (
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"storefront/shop"
)

// FuzzFormDecoders feeds arbitrary query strings to the shop's form and
// query decoders: they never panic, keep values bounded, and a sort they
// accept is one of the API's.
func FuzzFormDecoders(f *testing.F) {
	for _, s := range []string{"q=kite&sort=price_asc&min_price=1.50&max_price=20&in_stock=1",
		"sort=relevance", "min_price=-1&in_stock=maybe", "q=%00%ff&cursor=abc", "name=Ann&email=a@b.example&message=hi",
		"rating=5&title=" + strings.Repeat("x", 300), "min_price=99999999999999999999"} {
		f.Add(s)
	}
	sorts := map[string]bool{"newest": true, "price_asc": true, "price_desc": true, "name_asc": true, "rating_desc": true, "relevance": true}
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		get := v.Get
		for _, def := range []string{"newest", "relevance"} {
			sort, errs := shop.DecodeListForm(get, def)
			if errs == nil && !sorts[sort] {
				t.Fatalf("accepted sort %q", sort)
			}
			if sort == "relevance" && errs == nil && strings.TrimSpace(v.Get("q")) == "" {
				t.Fatalf("relevance without a search")
			}
		}
		for _, vals := range [][]string{shop.DecodeContactForm(raw), shop.DecodeReviewForm(raw)} {
			for _, s := range vals {
				if utf8.RuneCountInString(s) > 5001 {
					t.Fatalf("unbounded value of %d runes", utf8.RuneCountInString(s))
				}
			}
		}
	})
}
