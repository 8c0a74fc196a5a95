package web_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// TestProductDetailCache: the detail is served from the process's cache once
// read, and every catalog change a shopper could see in it shows on the next
// request: price, stock, the category's name, deactivation (404), a new slug,
// deletion. Another store's key never finds it.
func TestProductDetailCache(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sidA, keyA := e.Store("Shop A")
	sidB, keyB := e.Store("Shop B")
	cat := e.Category(sidA, "Shoes")
	p := e.Product(sidA, cat.ID, "Red Shoe", 1250, 3)
	path := site + "/products/red-shoe/"
	type detail struct {
		ID       uint64           `json:"id"`
		Price    string           `json:"price"`
		Stock    int64            `json:"stock"`
		Category app.CategoryRef  `json:"category"`
		Variants *json.RawMessage `json:"variants"`
	}
	get := func(key string) detail {
		t.Helper()
		var d detail
		e.Do(testenv.Req{Method: "GET", Path: path, Key: key}).Expect(t, 200, "").Decode(t, &d)
		return d
	}
	first := e.Do(testenv.Req{Method: "GET", Path: path, Key: keyA}).Expect(t, 200, "")
	if n := e.Svc.Catalog.CachedDetails(); n != 1 {
		t.Fatalf("%d cached details, want 1", n)
	}
	again := e.Do(testenv.Req{Method: "GET", Path: path, Key: keyA}).Expect(t, 200, "")
	if !bytes.Equal(first.Raw, again.Raw) || again.Header.Get("Content-Type") != first.Header.Get("Content-Type") {
		t.Fatalf("cached detail differs:\n%s %q\n%s %q", first.Raw, first.Header.Get("Content-Type"), again.Raw, again.Header.Get("Content-Type"))
	}
	if d := get(keyA); d.ID != p.ID || d.Price != "12.50" || d.Stock != 3 || d.Category.Name != "Shoes" || d.Variants == nil {
		t.Fatalf("got %+v", d)
	}
	// another store's key: not found, though the slug is cached for store A
	e.Do(testenv.Req{Method: "GET", Path: path, Key: keyB}).Expect(t, 404, "not_found")
	pb := e.Product(sidB, 0, "Red Shoe", 999, 1)
	if d := get(keyB); d.ID != pb.ID || d.Price != "9.99" {
		t.Fatalf("store B got %+v, want its own product %d", d, pb.ID)
	}
	if d := get(keyA); d.ID != p.ID {
		t.Fatalf("store A got %+v after store B's product", d)
	}

	save := func(in app.ProductInput) {
		t.Helper()
		if _, err := e.Svc.Catalog.SaveProduct(sidA, p.ID, in); err != nil {
			t.Fatal(err)
		}
	}
	price, stock := app.Money(1075), int64(7)
	save(app.ProductInput{Price: &price})
	if d := get(keyA); d.Price != "10.75" {
		t.Fatalf("price %s after the edit, want 10.75", d.Price)
	}
	save(app.ProductInput{Stock: &stock})
	if d := get(keyA); d.Stock != 7 {
		t.Fatalf("stock %d after the edit, want 7", d.Stock)
	}
	name := "Running Shoes"
	if _, err := e.Svc.Catalog.SaveCategory(sidA, cat.ID, app.CategoryInput{Name: &name}); err != nil {
		t.Fatal(err)
	}
	if d := get(keyA); d.Category.Name != name {
		t.Fatalf("category %q after the rename, want %q", d.Category.Name, name)
	}
	off, on := false, true
	save(app.ProductInput{IsActive: &off})
	e.Do(testenv.Req{Method: "GET", Path: path, Key: keyA}).Expect(t, 404, "not_found")
	save(app.ProductInput{IsActive: &on})
	get(keyA)
	slug := "scarlet-shoe"
	save(app.ProductInput{Slug: &slug})
	e.Do(testenv.Req{Method: "GET", Path: path, Key: keyA}).Expect(t, 404, "not_found")
	e.Do(testenv.Req{Method: "GET", Path: site + "/products/scarlet-shoe/", Key: keyA}).Expect(t, 200, "")
	if err := e.Svc.Catalog.DeleteProduct(sidA, p.ID); err != nil {
		t.Fatal(err)
	}
	e.Do(testenv.Req{Method: "GET", Path: site + "/products/scarlet-shoe/", Key: keyA}).Expect(t, 404, "not_found")
	if d := get(keyB); d.ID != pb.ID {
		t.Fatalf("store B got %+v", d)
	}
}

// TestProductDetailFieldsBypassCache: fields= trims the detail as before,
// whether or not the whole detail is cached.
func TestProductDetailFieldsBypassCache(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	e.Product(sid, 0, "Red Shoe", 1250, 3)
	path := site + "/products/red-shoe/"
	e.Do(testenv.Req{Method: "GET", Path: path, Key: key}).Expect(t, 200, "")
	var d map[string]json.RawMessage
	e.Do(testenv.Req{Method: "GET", Path: path + "?fields=name,price", Key: key}).Expect(t, 200, "").Decode(t, &d)
	if len(d) != 3 || string(d["price"]) != `"12.50"` {
		t.Fatalf("got %v, want id, name and price", d)
	}
}
