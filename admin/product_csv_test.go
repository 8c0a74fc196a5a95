package admin_test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

func exportPath(sid uint64) string {
	return fmt.Sprintf("/api/v1/admin/stores/%d/products/export/", sid)
}
func importPath(sid uint64) string {
	return fmt.Sprintf("/api/v1/admin/stores/%d/products/import/", sid)
}

func importCSV(e *testenv.Env, token string, sid uint64, body string) *testenv.Response {
	data, ct := testenv.Multipart(e.T, "file", testenv.File{Name: "products.csv", Data: []byte(body)})
	return e.Do(testenv.Req{Method: "POST", Path: importPath(sid), Token: token, Body: data, Header: map[string]string{"Content-Type": ct}})
}

func exportCSV(t *testing.T, e *testenv.Env, sid uint64) [][]string {
	t.Helper()
	r := e.Do(testenv.Req{Method: "GET", Path: exportPath(sid), Token: e.OwnerToken})
	if r.Status != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") ||
		!strings.HasPrefix(r.Header.Get("Content-Disposition"), `attachment; filename="products-`) {
		t.Fatalf("export: got %d %q %q: %s", r.Status, r.Header.Get("Content-Type"), r.Header.Get("Content-Disposition"), r.Raw)
	}
	recs, err := csv.NewReader(bytes.NewReader(r.Raw)).ReadAll()
	if err != nil {
		t.Fatalf("export is not CSV: %v\n%s", err, r.Raw)
	}
	return recs
}

type importData struct {
	Rows, Created, Updated int
}

func TestProductExport(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	cat := e.Category(sid, "Mugs & Cups")
	mug := e.Product(sid, cat.ID, "=SUM(A1:A9)", 1250, 7)
	hidden := false
	desc := "two\nlines, with \"quotes\""
	img := []string{"https://cdn.example/a.jpg", "https://cdn.example/b.jpg"}
	variants := []app.VariantInput{{Name: "Large", SKU: "L-1", Stock: 3, Attributes: map[string]string{"size": "L"}}}
	if _, err := e.Svc.Catalog.SaveProduct(sid, mug.ID, app.ProductInput{IsActive: &hidden, Description: &desc, Images: &img, Variants: &variants}); err != nil {
		t.Fatal(err)
	}
	plain := e.Product(sid, 0, "Plate", 900, 0)
	e.Product(sidB, 0, "Other shop", 100, 1)

	recs := exportCSV(t, e, sid)
	if got := strings.Join(recs[0], ","); got != strings.Join(app.ProductCSVColumns, ",") {
		t.Fatalf("header: got %s", got)
	}
	if len(recs) != 3 {
		t.Fatalf("rows: got %d, want a header and 2 products (not shop B's): %v", len(recs), recs)
	}
	// Newest first: the plate, then the mug.
	row := func(r []string) map[string]string {
		m := map[string]string{}
		for i, c := range app.ProductCSVColumns {
			m[c] = r[i]
		}
		return m
	}
	p, m := row(recs[1]), row(recs[2])
	if p["id"] != fmt.Sprint(plain.ID) || p["price"] != "9.00" || p["stock"] != "0" || p["status"] != "active" || p["category"] != "" || p["variants"] != "" {
		t.Fatalf("plate row: got %v", p)
	}
	if m["name"] != "'=SUM(A1:A9)" || m["description"] != desc || m["status"] != "hidden" || m["category"] != cat.Slug ||
		m["images"] != strings.Join(img, " ") || !strings.Contains(m["variants"], `"sku":"L-1"`) || !strings.Contains(m["variants"], `"price":"12.50"`) {
		t.Fatalf("mug row: got %v", m)
	}

	t.Run("ErrNoCredentials", func(t *testing.T) {
		e.Do(testenv.Req{Method: "GET", Path: exportPath(sid)}).Expect(t, 401, "unauthorized")
	})
	t.Run("ErrOtherStore", func(t *testing.T) {
		staffB := e.Staff(sidB, "staff-b@example.com")
		e.Do(testenv.Req{Method: "GET", Path: exportPath(sid), Token: staffB}).Expect(t, 404, "not_found")
	})
	t.Run("Empty", func(t *testing.T) {
		sidC, _ := e.Store("Shop C")
		if recs := exportCSV(t, e, sidC); len(recs) != 1 {
			t.Fatalf("empty store: got %v, want the header only", recs)
		}
	})
}

// TestProductExportStreams walks more than one page of the export.
func TestProductExportStreams(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	// 1203 products seeded by one import (one transaction, where one
	// SaveProduct each cost 4 CPU seconds under -race).
	file := strings.Builder{}
	file.WriteString("name,price,stock\n")
	for i := range 1203 {
		fmt.Fprintf(&file, "P%04d,%s,%d\n", i, app.Money(100+i), i)
	}
	if res, _, err := e.Svc.Catalog.ImportProductsCSV(sid, strings.NewReader(file.String())); err != nil || res.Created != 1203 {
		t.Fatalf("seeding: %+v %v", res, err)
	}
	recs := exportCSV(t, e, sid)
	if len(recs) != 1204 {
		t.Fatalf("rows: got %d, want 1203 and the header", len(recs)-1)
	}
	seen := map[string]bool{}
	for _, r := range recs[1:] {
		if seen[r[0]] {
			t.Fatalf("id %s exported twice", r[0])
		}
		seen[r[0]] = true
	}
}

func TestProductImportRoundTrip(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	cat := e.Category(sid, "Mugs")
	mug := e.Product(sid, cat.ID, "@mug", 1250, 7)
	img := "https://cdn.example/mug-large.jpg"
	variants := []app.VariantInput{{Name: "Large", SKU: "L-1", Stock: 3, Attributes: map[string]string{"size": "L"}, Image: &img}}
	mug, err := e.Svc.Catalog.SaveProduct(sid, mug.ID, app.ProductInput{Variants: &variants})
	if err != nil {
		t.Fatal(err)
	}
	e.Product(sid, 0, "Plate", 900, 2)
	before := exportCSV(t, e, sid)
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.WriteAll(before)
	var res importData
	importCSV(e, e.OwnerToken, sid, buf.String()).Expect(t, 200, "").Decode(t, &res)
	if res != (importData{Rows: 2, Created: 0, Updated: 2}) {
		t.Fatalf("result: got %+v", res)
	}
	after := exportCSV(t, e, sid)
	if fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatalf("round trip changed the catalog:\nbefore %v\nafter  %v", before, after)
	}
	got, _ := e.Svc.Catalog.Product(sid, mug.ID)
	if got.Name != "@mug" || len(got.Variants) != 1 || got.Variants[0].ID != mug.Variants[0].ID || got.Variants[0].Image != img {
		t.Fatalf("mug after the round trip: got %+v", got)
	}
}

func TestProductImport(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	cups := e.Category(sid, "Cups")
	e.Category(sid, "Plates")
	mug := e.Product(sid, 0, "Mug", 1250, 7)
	bowl := e.Product(sid, 0, "Bowl", 500, 1)
	e.Product(sidB, 0, "Elsewhere", 100, 1)

	file := "\ufeffId,slug,name,price,stock,status,category,variants\n" +
		fmt.Sprintf("%d,,Big mug,13.00,9,hidden,cups,\n", mug.ID) + // update by id
		",bowl,,5.50,4,,Plates,\n" + // update by slug (name column empty: required)
		",,,,,,,\n" + // a blank row is skipped
		",,Tea cup,3.00,12,active,CUPS,\"[{\"\"name\"\":\"\"Small\"\",\"\"sku\"\":\"\"S\"\",\"\"price\"\":\"\"3.00\"\",\"\"stock\"\":2}]\"\n"
	// Row 3 has an empty name: the whole file is refused.
	r := importCSV(e, e.OwnerToken, sid, file).Expect(t, 400, "validation_failed")
	if len(r.Body.Errors) != 1 || r.Body.Errors["row 3: name"] != "is required" || !strings.Contains(r.Body.Message, "nothing was imported") {
		t.Fatalf("errors: got %q %v", r.Body.Message, r.Body.Errors)
	}
	if got, _ := e.Svc.Catalog.Product(sid, mug.ID); got.Name != "Mug" || got.Stock != 7 {
		t.Fatalf("a refused import changed row 2's product: %+v", got)
	}
	file = strings.Replace(file, ",bowl,,", ",bowl,Big bowl,", 1)
	var res importData
	importCSV(e, e.OwnerToken, sid, file).Expect(t, 200, "").Decode(t, &res)
	if res != (importData{Rows: 4, Created: 1, Updated: 2}) {
		t.Fatalf("result: got %+v", res)
	}
	got, _ := e.Svc.Catalog.Product(sid, mug.ID)
	if got.Name != "Big mug" || got.Price != 1300 || got.Stock != 9 || got.IsActive || got.CategoryID != cups.ID || got.Slug != "mug" {
		t.Fatalf("mug: got %+v", got)
	}
	got, _ = e.Svc.Catalog.Product(sid, bowl.ID)
	if got.Name != "Big bowl" || got.Price != 550 || got.Stock != 4 || !got.IsActive || got.CategoryID == 0 {
		t.Fatalf("bowl: got %+v", got)
	}
	page, _ := e.Svc.Catalog.AdminProducts(sid, app.AdminProductQuery{Q: "tea cup"})
	if page.Total != 1 || page.Items[0].Slug != "tea-cup" || len(page.Items[0].Variants) != 1 || page.Items[0].Variants[0].ID == 0 || page.Items[0].AvailableStock() != 2 {
		t.Fatalf("created: got %+v", page.Items)
	}
	// The new product is on the storefront at once (the category cache too).
	if got, _ := e.Svc.Catalog.ProductDocBySlug(sid, "tea-cup"); got == nil {
		t.Fatal("the imported product is not on the storefront")
	}
	// Only the columns sent change.
	importCSV(e, e.OwnerToken, sid, "slug,stock\nmug,1\n").Expect(t, 200, "")
	if got, _ := e.Svc.Catalog.Product(sid, mug.ID); got.Stock != 1 || got.Name != "Big mug" || got.Price != 1300 {
		t.Fatalf("stock-only import: got %+v", got)
	}

	n := productCount(t, e, sid)
	for _, tc := range []struct {
		name string
		body string
		want map[string]string // error key -> part of its message
	}{
		{"ErrEveryRowListed", "id,slug,name,price,stock,status,category,compare_at_price,low_stock_threshold,images,variants\n" +
			",new-one,New one,1.00,1,,,,,,\n" + // fine, but not written
			",,Bad price,12.345,1,,,,,,\n" +
			",,Bad stock,1.00,-3,weird,nowhere,x,1.5,ftp://x,[oops\n" +
			"9999,,Nobody,1.00,1,,,,,,\n" +
			fmt.Sprintf("%d,,Mug again,1.00,1,,,,,,\n", mug.ID) +
			fmt.Sprintf("%d,,Mug twice,1.00,1,,,,,,\n", mug.ID) +
			",bowl-2,Dup,1.00,1,,,,,,\n,bowl-2,Dup,1.00,1,,,,,,\n" +
			",big-mug-x,Taken,1.00,1,,,,,,\n" + // fine
			",,V,1.00,1,,,,,,\"[{\"\"name\"\":\"\"\"\",\"\"price\"\":\"\"-1\"\"}]\"\n",
			map[string]string{"row 3: price": "decimal", "row 4: stock": "between 0", "row 4: status": "active or hidden",
				"row 4: category": "no category", "row 4: compare_at_price": "decimal", "row 4: low_stock_threshold": "whole number",
				"row 4: variants": "JSON array", "row 4: images": "http(s)", "row 5: id": "no product has this id", "row 7: id": "same product as row 6",
				"row 9: slug": "also the slug of row 8", "row 11: variants": "variants[0].name"}},
		{"ErrImagesAndTakenSlug", "slug,name,price,images\nmug,x,1,ftp://nope\nbowl-9,y,1,\n,Mug,2,\n",
			map[string]string{"row 2: images": "http(s)", "row 4: slug": "another product"}},
		{"ErrSlugOfAnother", fmt.Sprintf("id,slug,name,price\n%d,bowl,Mug,1\n", mug.ID), map[string]string{"row 2: slug": "another product"}},
		{"ErrUnknownColumn", "name,price,colour,Price\nA,1,red,2\n", map[string]string{"row 1: colour": "unknown column", "row 1: price": "named twice"}},
		{"ErrMalformed", "name,price\n\"A,1\nB\"x,2\n", map[string]string{"row 2": "not valid CSV at line"}},
		{"ErrTooManyCells", "name,price\nA,1,extra\n", map[string]string{"row 2": "3 cells"}},
		{"ErrNoPriceColumn", "name\nA\n", map[string]string{"row 2: price": "no price column"}},
		{"ErrEmpty", "", map[string]string{"file": "empty"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := importCSV(e, e.OwnerToken, sid, tc.body).Expect(t, 400, "validation_failed")
			for k, part := range tc.want {
				if !strings.Contains(r.Body.Errors[k], part) {
					t.Errorf("errors[%q]: got %q, want it to say %q (all: %v)", k, r.Body.Errors[k], part, r.Body.Errors)
				}
			}
			if len(r.Body.Errors) != len(tc.want) {
				t.Errorf("errors: got %d %v, want %d", len(r.Body.Errors), r.Body.Errors, len(tc.want))
			}
			if got := productCount(t, e, sid); got != n {
				t.Fatalf("a refused import changed the catalog: %d products, want %d", got, n)
			}
		})
	}
	t.Run("ErrTooManyRows", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("name,price\n")
		for i := range app.MaxImportRows + 1 {
			fmt.Fprintf(&b, "P%d,1\n", i)
		}
		r := importCSV(e, e.OwnerToken, sid, b.String()).Expect(t, 400, "validation_failed")
		if !strings.Contains(r.Body.Errors["file"], "at most 5000") {
			t.Fatalf("got %v", r.Body.Errors)
		}
	})
	t.Run("ErrTooLarge", func(t *testing.T) {
		body := "name,description,price\n" + strings.Repeat("A,"+strings.Repeat("d", 1000)+",1\n", app.MaxImportBytes/1000)
		importCSV(e, e.OwnerToken, sid, body).Expect(t, 413, "payload_too_large")
	})
	t.Run("ErrNoFile", func(t *testing.T) {
		data, ct := testenv.Multipart(t, "other", testenv.File{Name: "x.csv", Data: []byte("name,price\n")})
		e.Do(testenv.Req{Method: "POST", Path: importPath(sid), Token: e.OwnerToken, Body: data, Header: map[string]string{"Content-Type": ct}}).Expect(t, 400, "validation_failed")
		e.Do(testenv.Req{Method: "POST", Path: importPath(sid), Token: e.OwnerToken, Body: map[string]any{"file": "x"}}).Expect(t, 400, "validation_failed")
	})
	t.Run("ErrNoCredentials", func(t *testing.T) {
		importCSV(e, "", sid, "name,price\nA,1\n").Expect(t, 401, "unauthorized")
	})
	t.Run("ErrOtherStore", func(t *testing.T) {
		staffB := e.Staff(sidB, "staff-b@example.com")
		importCSV(e, staffB, sid, "name,price\nA,1\n").Expect(t, 404, "not_found")
	})
	if got := productCount(t, e, sid); got != n {
		t.Fatalf("refused imports changed the catalog: %d products, want %d", got, n)
	}
	t.Run("Staff", func(t *testing.T) {
		staffA := e.Staff(sid, "staff-a@example.com")
		importCSV(e, staffA, sid, "name,price\nStaff made,1\n").Expect(t, 200, "")
	})
}

func productCount(t *testing.T, e *testenv.Env, sid uint64) int { return e.ProductCount(t, sid) }
