package app

import (
	"reflect"
	"testing"
)

// TestProductClone: a clone shares nothing a caller could change through it,
// and Clone knows every field that could be shared.
func TestProductClone(t *testing.T) {
	shared := map[reflect.Type][]string{
		reflect.TypeFor[Product](): {"Images", "ImageAlts", "Variants"},
		reflect.TypeFor[Variant](): {"Attributes"},
	}
	for typ, want := range shared {
		var got []string
		for f := range typ.Fields() {
			switch f.Type.Kind() {
			case reflect.Slice, reflect.Map, reflect.Pointer, reflect.Interface:
				got = append(got, f.Name)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s has reference fields %v; Product.Clone copies %v: update Clone and this list", typ, got, want)
		}
	}
	p := &Product{ID: 1, Name: "Boot", Images: []string{"a"}, Variants: []Variant{{ID: 1, Stock: 2, Attributes: map[string]string{"size": "M"}}}}
	c := p.Clone()
	if !reflect.DeepEqual(c, p) {
		t.Fatalf("clone %+v differs from %+v", c, p)
	}
	c.Images[0], c.Variants[0].Stock, c.Variants[0].Attributes["size"] = "b", 0, "L"
	if p.Images[0] != "a" || p.Variants[0].Stock != 2 || p.Variants[0].Attributes["size"] != "M" {
		t.Fatalf("changing the clone changed the original: %+v", p)
	}
	empty := (&Product{Images: []string{}, Variants: []Variant{}}).Clone()
	if empty.Images == nil || empty.Variants == nil {
		t.Fatal("empty slices came back nil (they encode as null)")
	}
}
