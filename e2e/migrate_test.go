package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"storefront/app"
	"storefront/app/auth"
	"storefront/app/demo"
	"storefront/app/imaging"
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
	// An uploaded image on the first product: its renditions and reference
	// count move too, and are served the same from PostgreSQL.
	var jpg bytes.Buffer
	if err := jpeg.Encode(&jpg, image.NewRGBA(image.Rect(0, 0, 600, 300)), nil); err != nil {
		t.Fatal(err)
	}
	up, err := imaging.Process("file", jpg.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	withImage, err := svc.Catalog.AddProductImages(res.StoreID, 1, []app.Media{{Hash: up.Hash, Ext: up.Ext, Files: up.Files}})
	if err != nil {
		t.Fatal(err)
	}
	mediaURL := withImage.Images[len(withImage.Images)-1]
	// A webhook endpoint and an event for it: migrate-data copies the
	// endpoints, events, deliveries and the outbox and checks them.
	hookURL, events := "https://hooks.example.com/storefront", []string{app.EvContactReceived}
	if _, err := svc.Webhooks.Create(res.StoreID, app.WebhookInput{URL: &hookURL, Events: &events}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Contact.Submit(res.StoreID, app.ContactInput{Name: "Ann", Email: "ann@example.com", Subject: "Hello", Message: "Do you ship abroad?"}); err != nil {
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
	} else {
		for _, table := range []string{"webhook_endpoints", "events", "webhook_deliveries", "outbox"} {
			if !regexp.MustCompile(`(?m)^` + table + ` +[1-9]`).MatchString(out) {
				t.Fatalf("migrate-data copied no %s:\n%s", table, out)
			}
		}
	}
	// The copy ends with VACUUM ANALYZE: the planner has statistics at once
	// (a table never analyzed or vacuumed has reltuples -1).
	if conn, err := pgx.Connect(context.Background(), url); err != nil {
		t.Fatal(err)
	} else {
		var tuples float64
		err := conn.QueryRow(context.Background(), `SELECT reltuples FROM pg_class WHERE relname = 'products'`).Scan(&tuples)
		conn.Close(context.Background())
		if err != nil || tuples < 1 {
			t.Fatalf("products after migrate-data: reltuples %v (%v), want the rows counted by ANALYZE", tuples, err)
		}
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
	for _, w := range app.MediaWidths {
		path := strings.Replace(strings.TrimPrefix(mediaURL, "http://shop.test"), "-1200.", fmt.Sprintf("-%d.", w), 1)
		if status, _ := boltSrv.do("GET", path, "", "", nil); status != 200 {
			t.Fatalf("GET %s on bbolt: got %d, want 200", path, status)
		}
		same(path, "", "", "")
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
