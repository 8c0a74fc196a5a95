package app_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"storefront/app"
)

// TestTrimmerMatchesAppendJSON checks that Trimmer writes what AppendJSON
// writes, also when docs of different layouts alternate.
func TestTrimmerMatchesAppendJSON(t *testing.T) {
	mk := func(members ...app.DocMember) app.Doc {
		d, err := app.NewDoc(members...)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	docs := []app.Doc{
		mk(app.DocMember{Name: "id", Value: 1}, app.DocMember{Name: "name", Value: "A"}, app.DocMember{Name: "price", Value: "1.00"}, app.DocMember{Name: "variants", Value: []int{1}, Heavy: true}),
		mk(app.DocMember{Name: "id", Value: 2}, app.DocMember{Name: "name", Value: "B"}, app.DocMember{Name: "price", Value: "2.00"}, app.DocMember{Name: "variants", Value: []int{2}, Heavy: true}),
		mk(app.DocMember{Name: "id", Value: 3}, app.DocMember{Name: "title", Value: "C"}, app.DocMember{Name: "price", Value: "3.00"}),
		mk(app.DocMember{Name: "id", Value: 4}, app.DocMember{Name: "name", Value: "D"}),
		mk(app.DocMember{Name: "id", Value: 5}, app.DocMember{Name: "nam", Value: "E"}, app.DocMember{Name: "eprice", Value: "5.00"}),
	}
	sets := []app.FieldSet{nil, {}, {"name": {}}, {"name": {}, "price": {}}, {"variants": {}}, {"title": {}, "nope": {}}}
	for _, fs := range sets {
		tr := app.Trimmer{Fields: fs}
		for round := 0; round < 2; round++ {
			for i, d := range append(docs, docs[0], docs[0]) {
				want, err := d.AppendJSON([]byte("x"), fs)
				if err != nil {
					t.Fatal(err)
				}
				got, err := tr.Append([]byte("x"), d)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("fields %v doc %d: got %s, want %s", fs, i, got, want)
				}
				if !json.Valid(got[1:]) {
					t.Errorf("fields %v doc %d: not JSON: %s", fs, i, got[1:])
				}
			}
		}
	}
	// the default (nil) path copies the light members in one slice: the same
	// bytes as naming every light member
	for i, d := range docs {
		light := app.FieldSet{}
		for _, n := range d.Names() {
			if n != "variants" {
				light[n] = struct{}{}
			}
		}
		got, _ := d.AppendJSON(nil, nil)
		want, _ := d.AppendJSON(nil, light)
		if !bytes.Equal(got, want) {
			t.Errorf("doc %d: default got %s, want %s", i, got, want)
		}
	}
	// AppendJSONWith writes what AppendJSON writes for every light member
	// plus the heavy ones named
	for i, d := range docs {
		for _, heavy := range [][]string{nil, {"variants"}, {"variants", "nope"}, {"price"}} {
			fs := app.FieldSet{}
			for _, n := range d.Names() {
				if n != "variants" {
					fs[n] = struct{}{}
				}
			}
			for _, h := range heavy {
				fs[h] = struct{}{}
			}
			want, _ := d.AppendJSON([]byte("x"), fs)
			got, err := d.AppendJSONWith([]byte("x"), heavy...)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("doc %d with %v: got %s (%v), want %s", i, heavy, got, err, want)
			}
		}
	}
	// a doc's light form writes what the doc writes for every field set
	// naming no heavy member, and is shorter when it had one
	for i, d := range docs {
		l := app.Doc(d.AppendLight([]byte("x"))[1:])
		if len(l) != d.LightLen() {
			t.Errorf("doc %d: AppendLight wrote %d bytes, LightLen says %d", i, len(l), d.LightLen())
		}
		if hasHeavy := slices.Contains(d.Names(), "variants"); hasHeavy != (len(l) < len(d)) {
			t.Errorf("doc %d: light form %d bytes of %d", i, len(l), len(d))
		}
		for _, fs := range sets {
			if fs.Wants("variants") {
				continue
			}
			want, _ := d.AppendJSON(nil, fs)
			got, err := l.AppendJSON(nil, fs)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("doc %d fields %v: light form wrote %s (%v), want %s", i, fs, got, err, want)
			}
			got, err = (&app.Trimmer{Fields: fs}).Append(nil, l)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("doc %d fields %v: light form trimmed to %s (%v), want %s", i, fs, got, err, want)
			}
		}
	}
	if _, err := (&app.Trimmer{Fields: app.FieldSet{"a": {}}}).Append(nil, app.Doc{0, 3, 9}); err == nil {
		t.Error("a malformed doc: got no error")
	}
}
