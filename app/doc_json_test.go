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

// TestPlainDoc: a plain doc (the JSON object itself, as PostgreSQL returns a
// page's items for ProductQuery.Whole) is written whole with no field set;
// whatever needs its members fails with an error, never a panic or a
// misread; and no doc NewDoc makes is plain.
func TestPlainDoc(t *testing.T) {
	d, err := app.NewDoc(app.DocMember{Name: "id", Value: 7}, app.DocMember{Name: "name", Value: "N"},
		app.DocMember{Name: "variants", Value: []int{1}, Heavy: true})
	if err != nil {
		t.Fatal(err)
	}
	want, err := d.AppendJSON(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.Plain() || app.Doc(d.AppendLight(nil)).Plain() {
		t.Fatal("NewDoc made a plain doc")
	}
	plain := app.Doc(want)
	if !plain.Plain() {
		t.Fatalf("%s is not plain", want)
	}
	if got, err := plain.AppendJSON([]byte("x"), nil); err != nil || string(got) != "x"+string(want) {
		t.Fatalf("AppendJSON = %s, %v; want x%s", got, err, want)
	}
	tr := app.Trimmer{}
	if got, err := tr.Append(nil, plain); err != nil || string(got) != string(want) {
		t.Fatalf("Trimmer.Append = %s, %v; want %s", got, err, want)
	}
	fs := app.FieldSet{"id": {}, "name": {}}
	if _, err := plain.AppendJSON(nil, fs); err == nil {
		t.Error("AppendJSON with a field set: no error")
	}
	tr = app.Trimmer{Fields: fs}
	if _, err := tr.Append(nil, plain); err == nil {
		t.Error("Trimmer.Append with a field set: no error")
	}
	if _, err := plain.AppendJSONWith(nil, "variants"); err == nil {
		t.Error("AppendJSONWith: no error")
	}
	if plain.Names() != nil {
		t.Errorf("Names = %v, want nil", plain.Names())
	}
	if got := plain.AppendLight(nil); string(got) != string(want) || plain.LightLen() != len(want) {
		t.Errorf("AppendLight = %s (LightLen %d), want the doc itself", got, plain.LightLen())
	}
	many := make([]app.DocMember, 0x7B00)
	for i := range many {
		many[i] = app.DocMember{Name: "m", Value: 1}
	}
	if _, err := app.NewDoc(many...); err == nil {
		t.Error("NewDoc of 0x7B00 members: no error (its count would begin with '{')")
	}
}
