package panel_test

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// postFile posts a multipart form (fields and one file) with the browser's cookies.
func (b *browser) postFile(path string, fields map[string]string, field, name string, data []byte) page {
	b.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	w, _ := mw.CreateFormFile(field, name)
	w.Write(data)
	mw.Close()
	req := httptest.NewRequest("POST", path, &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	for k, v := range b.cookies {
		req.AddCookie(&http.Cookie{Name: k, Value: v})
	}
	resp, err := b.e.App.Test(req, -1)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return page{Status: resp.StatusCode, Header: resp.Header, Body: string(raw)}
}

func TestPanelProductCSV(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	sidB, _ := e.Store("Shop B")
	e.Product(sid, 0, "Mug <b>", 1250, 7)
	b := owner(t, e)
	base := fmt.Sprintf("/admin/stores/%d/products/", sid)
	exp := b.get(base+"export/").expect(t, 200, "id,slug,name", "Mug <b>,")
	if !strings.HasPrefix(exp.Header.Get("Content-Type"), "text/csv") || !strings.Contains(exp.Header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("export headers: %v", exp.Header)
	}
	b.get(base+"import/").expect(t, 200, `enctype="multipart/form-data"`, "low_stock_threshold")
	token := b.csrf(base + "import/")
	// A bad row: the page lists it (escaped), nothing is imported.
	bad := b.postFile(base+"import/", map[string]string{"csrf": token}, "file", "x.csv", []byte("name,price\nCup,1\n<i>Plate</i>,abc\n"))
	bad.expect(t, 400, "Nothing was imported", "<td data-label=\"Row\" class=\"num\">3</td><td data-label=\"Column\">price</td>", "must be a decimal")
	if productCount(t, e, sid) != 1 {
		t.Fatal("a refused import wrote products")
	}
	// No CSRF token: 403, nothing imported.
	b.postFile(base+"import/", nil, "file", "x.csv", []byte("name,price\nCup,1\n")).expect(t, 403)
	// No file: the form again with the message.
	b.postFile(base+"import/", map[string]string{"csrf": token}, "other", "x.csv", []byte("x")).expect(t, 400, "no file")
	ok := b.postFile(base+"import/", map[string]string{"csrf": token}, "file", "x.csv", []byte("name,price\nCup,1\nPlate,2\n"))
	ok.redirectsTo(t, base)
	b.get(base).expect(t, 200, "Imported 2 new and 0 updated products.")
	if productCount(t, e, sid) != 3 {
		t.Fatal("the import did not write its products")
	}
	// Another store's pages are the 404 page for its staff.
	staff := newBrowser(t, e)
	e.Svc.Admins.Create(app.NewAdmin{Email: "b@example.com", Password: "staff-password", Role: app.RoleStaff, StoreID: sidB})
	staff.login("b@example.com", "staff-password")
	staff.get(base+"export/").expect(t, 404)
	staff.get(base+"import/").expect(t, 404)
	// Logged out: to the login page.
	if p := newBrowser(t, e).get(base + "export/"); p.Status != http.StatusSeeOther {
		t.Fatalf("export logged out: got %d", p.Status)
	}
}
