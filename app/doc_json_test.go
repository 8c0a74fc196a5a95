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
