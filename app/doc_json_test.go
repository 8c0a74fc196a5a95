package app_test

import (
	"encoding/json"
	"testing"

	"storefront/app"
)

func TestDocTrim(t *testing.T) {
	d, err := app.NewDoc(
		app.DocMember{Name: "id", Value: 7},
		app.DocMember{Name: "name", Value: "A \"quoted\" name"},
		app.DocMember{Name: "variants", Value: []int{1, 2}, Heavy: true},
		app.DocMember{Name: "price", Value: app.Money(1250)},
	)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		fields app.FieldSet
		heavy  []string
		want   string
	}{
		{"Full", nil, nil, `{"id":7,"name":"A \"quoted\" name","price":"12.50"}`},
		{"Trimmed", app.FieldSet{"price": {}, "bogus": {}}, nil, `{"id":7,"price":"12.50"}`},
		{"Heavy", app.FieldSet{"variants": {}}, nil, `{"id":7,"variants":[1,2]}`},
		{"With", nil, []string{"variants"}, `{"id":7,"name":"A \"quoted\" name","price":"12.50","variants":[1,2]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []byte
			if tc.heavy != nil {
				got, err = d.AppendJSONWith(nil, tc.heavy...)
			} else {
				got, err = d.AppendJSON(nil, tc.fields)
			}
			if err != nil || string(got) != tc.want {
				t.Fatalf("got %s (%v), want %s", got, err, tc.want)
			}
			if !json.Valid(got) {
				t.Fatalf("invalid JSON %s", got)
			}
		})
	}
}

// AppendJSONWith copies members that lie one comma apart as one run: a
// skipped member between two written ones, and a header whose order is not
// the body's, still write each member once, in header order.
func TestDocAppendWithRuns(t *testing.T) {
	d, err := app.NewDoc(
		app.DocMember{Name: "id", Value: 7},
		app.DocMember{Name: "variants", Value: []int{1, 2}, Heavy: true},
		app.DocMember{Name: "extra", Value: "e", Heavy: true},
		app.DocMember{Name: "price", Value: 5},
	)
	if err != nil {
		t.Fatal(err)
	}
	for heavy, want := range map[string]string{
		"extra":    `{"id":7,"price":5,"extra":"e"}`,
		"variants": `{"id":7,"price":5,"variants":[1,2]}`,
		"none":     `{"id":7,"price":5}`,
	} {
		if got, err := d.AppendJSONWith(nil, heavy); err != nil || string(got) != want {
			t.Errorf("with %s: got %s (%v), want %s", heavy, got, err, want)
		}
	}
	if got, err := d.AppendJSONWith(nil, "variants", "extra"); err != nil || string(got) != `{"id":7,"price":5,"variants":[1,2],"extra":"e"}` {
		t.Errorf("with both: got %s (%v)", got, err)
	}
	// body `"a":1,"b":2`, header b then a
	body := `"a":1,"b":2`
	swapped := []byte{0, 2, 1, 'b', 0, 0, 0, 6, 0, 0, 0, 11, 0, 1, 'a', 0, 0, 0, 0, 0, 0, 0, 5, 0}
	swapped = append(swapped, body...)
	if got, err := app.Doc(swapped).AppendJSONWith(nil); err != nil || string(got) != `{"b":2,"a":1}` {
		t.Errorf("swapped header: got %s (%v)", got, err)
	}
}

func FuzzDocAppend(f *testing.F) {
	d, _ := app.NewDoc(app.DocMember{Name: "id", Value: 1}, app.DocMember{Name: "x", Value: "y"})
	f.Add([]byte(d))
	f.Add([]byte{0, 1, 2})
	f.Fuzz(func(t *testing.T, b []byte) {
		// a corrupt doc must give an error, never a panic
		_, _ = app.Doc(b).AppendJSON(nil, nil)
		_, _ = app.Doc(b).AppendJSON(nil, app.FieldSet{"x": {}})
		_ = app.Doc(b).Names()
		_, _ = app.Doc(b).AppendJSONWith(nil, "x")
		if l := app.Doc(b).AppendLight(nil); len(l) != app.Doc(b).LightLen() {
			t.Fatalf("AppendLight wrote %d bytes, LightLen says %d", len(l), app.Doc(b).LightLen())
		}
		tr := app.Trimmer{Fields: app.FieldSet{"x": {}}}
		_, _ = tr.Append(nil, app.Doc(b))
		_, _ = tr.Append(nil, app.Doc(b))
	})
}
