package app_test

import (
	"testing"

	"storefront/app"
)

func TestCursorRoundTrip(t *testing.T) {
	cc := app.CursorCodec{Secret: []byte("secret")}
	c := &app.Cursor{Sort: app.SortPriceAsc, Key: []byte{0, 1, 2, 0xff}}
	s := cc.Encode("products", 1, c)
	got, err := cc.Decode("products", 1, app.SortPriceAsc, s)
	if err != nil || got.Sort != c.Sort || string(got.Key) != string(c.Key) {
		t.Fatalf("got %v, %v; want %v", got, err, c)
	}
	for name, tc := range map[string]struct {
		scope string
		store uint64
		sort  string
		s     string
	}{
		"OtherSort":  {"products", 1, app.SortNewest, s},
		"OtherStore": {"products", 2, app.SortPriceAsc, s},
		"OtherList":  {"category:1", 1, app.SortPriceAsc, s},
		"Tampered":   {"products", 1, app.SortPriceAsc, s[:len(s)-2] + "AA"},
		"Garbage":    {"products", 1, app.SortPriceAsc, "%%%"},
		"Empty":      {"products", 1, app.SortPriceAsc, "A"},
	} {
		if _, err := cc.Decode(tc.scope, tc.store, tc.sort, tc.s); app.ErrorCode(err) != app.EValidation {
			t.Errorf("%s: got %v, want validation_failed", name, err)
		}
	}
}

func FuzzCursorDecode(f *testing.F) {
	cc := app.CursorCodec{Secret: []byte("secret")}
	f.Add(cc.Encode("products", 1, &app.Cursor{Sort: "newest", Key: []byte{1, 2, 3}}))
	f.Add("")
	f.Add("AAAA")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := cc.Decode("products", 1, "newest", s)
		if err == nil && (c == nil || c.Sort != "newest") {
			t.Fatalf("accepted %q as %v", s, c)
		}
		if err != nil && app.ErrorCode(err) != app.EValidation {
			t.Fatalf("got %v, want validation_failed", err)
		}
	})
}
