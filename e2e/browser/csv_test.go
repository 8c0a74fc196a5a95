package browser_test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"storefront/e2e/browser"
)

func writeFile(t *testing.T, name, body string) string {
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCatalogCSVImport: a file with bad rows shows every problem by row and
// column and imports nothing; the fixed file imports; the export has it all.
func TestCatalogCSVImport(t *testing.T) {
	t.Parallel()
	srv, st, prods := catalogFixture(t)
	tok := srv.OwnerToken(t)
	p := catalogPage(t, srv)
	p.LoginOwner()
	p.Go(fmt.Sprintf("/admin/stores/%d/products/", st.ID))
	p.Submit(`a[href$="/products/import/"]`)
	p.CheckNoOverflow()

	longName := long("N", 200)
	bad := "name,price,stock,category\n" +
		"Good one,4.00,3,\n" +
		longName + ",twelve,1,\n" + // bad price
		"Third,1.00,-1," + long("nocat", 300) + "\n" // bad stock and unknown category
	p.Upload(`input[type=file][name=file]`, writeFile(t, "bad.csv", bad))
	p.Submit(`form.upload button[type=submit]`, 400)
	rows := browser.Eval[[]string](p, `Array.from(document.querySelectorAll("table.row-errors tbody tr")).map(function(r){return r.innerText.replace(/\s+/g," ").trim()})`)
	want := []string{"3 price", "4 stock", "4 category"}
	if len(rows) != len(want) {
		t.Fatalf("error rows: got %q, want %d rows", rows, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(rows[i], w) {
			t.Fatalf("error row %d: got %q, want it to start with %q", i, rows[i], w)
		}
	}
	p.CheckNoOverflow()
	count := func() int {
		_, body, _ := srv.Request(t, "GET", fmt.Sprintf("/api/v1/admin/stores/%d/products/export/", st.ID), tok, "", nil)
		recs, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
		if err != nil {
			t.Fatalf("export: %v", err)
		}
		return len(recs) - 1
	}
	if n := count(); n != len(prods) {
		t.Fatalf("after a refused import: %d products, want %d (nothing imported)", n, len(prods))
	}

	good := "name,price,stock\nGood one,4.00,3\nSecond,12.00,1\n" + fmt.Sprintf("%s,1.00,9\n", long("Z", 200))
	p.Upload(`input[type=file][name=file]`, writeFile(t, "good.csv", good))
	p.Submit(`form.upload button[type=submit]`)
	if msg := p.Text(`.flash`); !strings.Contains(msg, "Imported 3 new and 0 updated products") {
		t.Fatalf("flash: got %q", msg)
	}
	if !strings.HasSuffix(strings.SplitN(p.URL(), "?", 2)[0], fmt.Sprintf("/admin/stores/%d/products/", st.ID)) {
		t.Fatalf("after the import: at %s, want the product list", p.URL())
	}
	p.CheckNoOverflow()
	if n := count(); n != len(prods)+3 {
		t.Fatalf("after the import: %d products, want %d", n, len(prods)+3)
	}
}
