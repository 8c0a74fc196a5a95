package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"storefront/app"
	"storefront/app/auth"
	"storefront/app/demo"
	"storefront/storage"
	"storefront/storage/postgres/pgtest"
)

// TestMigrateDataRoundTrip seeds the demo shop with a shopper and an order
// into a bbolt file, moves it to PostgreSQL with migrate-data, and then asks
// both servers the same questions: the answers are the same bytes.
func TestMigrateDataRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real binary")
	}
	url := pgtest.NewDatabase(t)
	bin := binary(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "storefront.db")
	db, err := storage.Open(file, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	secret, _ := db.Secret("tokens")
	svc := app.NewServices(db, auth.NewJWT(secret, nil), auth.NewBcrypt(4), nil, nil, nil, app.Options{PublicURL: "http://shop.test"})
	res, err := demo.Seed(svc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Admins.Bootstrap("owner@example.com", "owner-password"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	// The shop runs once on bbolt (it makes its secrets), then stops.
	first := start(t, bin, dir)
	first.stop()

	migrate := func(force bool) (int, string) {
		args := []string{"migrate-data", "--from", "bolt:" + file, "--to", "postgres:" + url}
		if force {
			args = append(args, "--force")
		}
		cmd := exec.Command(bin, args...)
		out, _ := cmd.CombinedOutput()
		return cmd.ProcessState.ExitCode(), string(out)
	}
	if code, out := migrate(false); code != 0 || !strings.Contains(out, "counts match") {
		t.Fatalf("migrate-data: exit %d:\n%s", code, out)
	}
	if code, out := migrate(false); code != 1 || !strings.Contains(out, "--force") {
		t.Fatalf("migrate-data into a non-empty target: exit %d, want 1 and a word about --force:\n%s", code, out)
	}
	if code, out := migrate(true); code != 0 {
		t.Fatalf("migrate-data --force: exit %d:\n%s", code, out)
	}

	boltSrv := start(t, bin, dir)
	pgSrv := start(t, bin, t.TempDir(), "STOREFRONT_STORAGE__DRIVER=postgres", "STOREFRONT_STORAGE__POSTGRES__URL="+url)
	key := res.APIKey

	// A shopper on the bbolt server, before the move would have been nicer;
	// the login works on both after it: the password hash was copied.
	var login struct {
		AccessToken string `json:"access_token"`
	}
	boltSrv.call("POST", "/api/v1/admin/auth/login/", "", "", map[string]string{"email": "owner@example.com", "password": "owner-password"}, 200, &login)
	boltAdmin := login.AccessToken
	pgSrv.call("POST", "/api/v1/admin/auth/login/", "", "", map[string]string{"email": "owner@example.com", "password": "owner-password"}, 200, &login)
	pgAdmin := login.AccessToken

	var products struct {
		Items []struct {
			Slug string `json:"slug"`
		} `json:"items"`
		Products []struct {
			Slug string `json:"slug"`
		} `json:"products"`
	}
	boltSrv.call("GET", "/api/v1/business/website/products/?limit=100", key, "", nil, 200, &products)
	items := append(products.Items, products.Products...)
	if len(items) == 0 {
		t.Fatal("the demo shop has no products")
	}
	paths := []string{
		"/api/v1/business/website/config/",
		"/api/v1/business/website/categories/",
		"/api/v1/business/website/payment-methods/",
		"/api/v1/business/website/blog-posts/",
		"/api/v1/business/website/flash-deals/",
		"/api/v1/business/website/bundles/",
		"/api/v1/business/website/reviews/store/",
		"/api/v1/business/website/products/?limit=3",
		"/api/v1/business/website/products/?sort=price_asc&limit=5",
		"/api/v1/business/website/products/?sort=name_asc&limit=7",
		"/api/v1/business/website/products/?sort=rating_desc",
		"/api/v1/business/website/products/?q=a&in_stock=true",
	}
	for _, p := range items {
		paths = append(paths, "/api/v1/business/website/products/"+p.Slug+"/", "/api/v1/business/website/products/"+p.Slug+"/reviews/")
	}
	for i := 1; i <= 3; i++ {
		paths = append(paths, fmt.Sprintf("/api/v1/business/website/categories/%d/products/", i))
	}
	same := func(path, key, tokA, tokB string) []byte {
		sa, a := boltSrv.do("GET", path, key, tokA, nil)
		sb, b := pgSrv.do("GET", path, key, tokB, nil)
		if sa != sb || !bytes.Equal(a, b) {
			i := 0
			for i < len(a) && i < len(b) && a[i] == b[i] {
				i++
			}
			a, b = a[max(0, i-200):], b[max(0, i-200):]
			t.Fatalf("GET %s:\nbolt     %d %.600s\npostgres %d %.600s", path, sa, a, sb, b)
		}
		return a
	}
	for _, p := range paths {
		body := same(p, key, "", "")
		// Follow the next cursor once: the cursors are the same on both.
		var env struct {
			Data map[string]json.RawMessage `json:"data"`
		}
		if json.Unmarshal(body, &env) == nil {
			var next string
			if raw, ok := env.Data["next_cursor"]; ok && json.Unmarshal(raw, &next) == nil && next != "" {
				sep := "?"
				if strings.Contains(p, "?") {
					sep = "&"
				}
				same(p+sep+"cursor="+next, key, "", "")
			}
		}
	}
	for _, p := range []string{
		fmt.Sprintf("/api/v1/admin/stores/%d/", res.StoreID),
		fmt.Sprintf("/api/v1/admin/stores/%d/products/", res.StoreID),
		fmt.Sprintf("/api/v1/admin/stores/%d/categories/", res.StoreID),
		fmt.Sprintf("/api/v1/admin/stores/%d/orders/", res.StoreID),
		fmt.Sprintf("/api/v1/admin/stores/%d/customers/", res.StoreID),
		fmt.Sprintf("/api/v1/admin/stores/%d/reviews/", res.StoreID),
		fmt.Sprintf("/api/v1/admin/stores/%d/coupons/", res.StoreID),
	} {
		same(p, "", boltAdmin, pgAdmin)
	}
}
