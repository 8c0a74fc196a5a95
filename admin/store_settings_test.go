package admin_test

import (
	"fmt"
	"sync"
	"testing"

	"storefront/testenv"
)

func TestStoreSettings(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	a, _ := e.Store("Shop A")
	b, _ := e.Store("Shop B")
	path := fmt.Sprintf("%s/stores/%d/", api, a)
	type settings struct {
		AllowedOrigins     []string        `json:"allowed_origins"`
		NotificationEmails []string        `json:"notification_emails"`
		Notifications      map[string]bool `json:"notifications"`
	}
	t.Run("Defaults", func(t *testing.T) {
		var got settings
		e.Do(testenv.Req{Method: "GET", Path: path, Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &got)
		if got.AllowedOrigins == nil || len(got.AllowedOrigins) != 0 || got.NotificationEmails == nil || !got.Notifications["order_paid"] || len(got.Notifications) != 7 {
			t.Fatalf("got %+v, want empty lists and every kind on", got)
		}
	})
	t.Run("OK", func(t *testing.T) {
		var got settings
		e.Do(testenv.Req{Method: "PATCH", Path: path, Token: e.OwnerToken, Body: map[string]any{
			"allowed_origins":     []string{"HTTPS://Shop.Example:443", "http://localhost:5173", "https://shop.example"},
			"notification_emails": []string{"owner@shop.example", " ops@shop.example "},
			"notifications":       map[string]bool{"low_stock": false},
		}}).Expect(t, 200, "").Decode(t, &got)
		if fmt.Sprint(got.AllowedOrigins) != "[https://shop.example http://localhost:5173]" ||
			fmt.Sprint(got.NotificationEmails) != "[owner@shop.example ops@shop.example]" || got.Notifications["low_stock"] || !got.Notifications["order_paid"] {
			t.Fatalf("got %+v", got)
		}
		// a patch of one field keeps the others
		e.Do(testenv.Req{Method: "PATCH", Path: path, Token: e.OwnerToken, Body: map[string]any{"notifications": map[string]bool{"low_stock": true, "contact_received": false}}}).Expect(t, 200, "").Decode(t, &got)
		if len(got.AllowedOrigins) != 2 || !got.Notifications["low_stock"] || got.Notifications["contact_received"] {
			t.Fatalf("got %+v", got)
		}
	})
	for _, tc := range []struct {
		name, body, field string
	}{
		{"ErrWildcard", `{"allowed_origins":["*"]}`, "allowed_origins[0]"},
		{"ErrPath", `{"allowed_origins":["https://shop.example/app"]}`, "allowed_origins[0]"},
		{"ErrTrailingSlash", `{"allowed_origins":["https://shop.example/"]}`, "allowed_origins[0]"},
		{"ErrScheme", `{"allowed_origins":["ftp://shop.example"]}`, "allowed_origins[0]"},
		{"ErrSubWildcard", `{"allowed_origins":["https://*.shop.example"]}`, "allowed_origins[0]"},
		{"ErrEmail", `{"notification_emails":["not-an-address"]}`, "notification_emails[0]"},
		{"ErrKind", `{"notifications":{"everything":false}}`, "notifications.everything"},
		{"ErrType", `{"allowed_origins":"https://shop.example"}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.Do(testenv.Req{Method: "PATCH", Path: path, Token: e.OwnerToken, Body: tc.body}).Expect(t, 400, "validation_failed")
			if tc.field != "" && r.Body.Errors[tc.field] == "" {
				t.Fatalf("got errors %v, want one for %s", r.Body.Errors, tc.field)
			}
		})
	}
	t.Run("ErrNoCredentials", func(t *testing.T) {
		e.Do(testenv.Req{Method: "PATCH", Path: path, Body: `{"allowed_origins":[]}`}).Expect(t, 401, "unauthorized")
	})
	t.Run("ErrWrongTenant", func(t *testing.T) {
		tok := e.Staff(b, "staff-b@example.com")
		e.Do(testenv.Req{Method: "PATCH", Path: path, Token: tok, Body: `{"allowed_origins":[]}`}).Expect(t, 404, "not_found")
	})
}

func TestProductLowStockThreshold(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	a, _ := e.Store("Shop A")
	path := fmt.Sprintf("%s/stores/%d/products/", api, a)
	var p struct {
		ID                uint64 `json:"id"`
		LowStockThreshold int64  `json:"low_stock_threshold"`
	}
	e.Do(testenv.Req{Method: "POST", Path: path, Token: e.OwnerToken, Body: map[string]any{"name": "Mug", "price": "5.00", "stock": 10, "low_stock_threshold": 3}}).Expect(t, 201, "").Decode(t, &p)
	if p.LowStockThreshold != 3 {
		t.Fatalf("got %+v, want threshold 3", p)
	}
	e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("%s%d/", path, p.ID), Token: e.OwnerToken, Body: map[string]any{"low_stock_threshold": 0}}).Expect(t, 200, "").Decode(t, &p)
	if p.LowStockThreshold != 0 {
		t.Fatalf("got %+v, want threshold 0", p)
	}
	r := e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("%s%d/", path, p.ID), Token: e.OwnerToken, Body: map[string]any{"low_stock_threshold": -1}}).Expect(t, 400, "validation_failed")
	if r.Body.Errors["low_stock_threshold"] == "" {
		t.Fatalf("got %s", r.Raw)
	}
}

func TestStoreDomainsSetting(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	a, _ := e.Store("Shop A")
	b, _ := e.Store("Shop B")
	pathA, pathB := fmt.Sprintf("%s/stores/%d/", api, a), fmt.Sprintf("%s/stores/%d/", api, b)
	var got struct {
		Domains []string `json:"domains"`
	}
	e.Do(testenv.Req{Method: "GET", Path: pathA, Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &got)
	if got.Domains == nil || len(got.Domains) != 0 {
		t.Fatalf("got %v, want []", got.Domains)
	}
	e.Do(testenv.Req{Method: "PATCH", Path: pathA, Token: e.OwnerToken, Body: `{"domains":["Shop.A.Example."]}`}).
		Expect(t, 200, "").Decode(t, &got)
	if fmt.Sprint(got.Domains) != "[shop.a.example]" {
		t.Fatalf("got %v", got.Domains)
	}
	r := e.Do(testenv.Req{Method: "PATCH", Path: pathB, Token: e.OwnerToken, Body: `{"domains":["shop.a.example"]}`}).Expect(t, 409, "conflict")
	if r.Body.Errors["domains[0]"] == "" {
		t.Fatalf("got %s, want errors.domains[0]", r.Raw)
	}
	r = e.Do(testenv.Req{Method: "PATCH", Path: pathB, Token: e.OwnerToken, Body: `{"domains":["shop.b.example:8080"]}`}).Expect(t, 400, "validation_failed")
	if r.Body.Errors["domains[0]"] == "" {
		t.Fatalf("got %s", r.Raw)
	}
	tok := e.Staff(b, "staff-b@example.com")
	e.Do(testenv.Req{Method: "PATCH", Path: pathA, Token: tok, Body: `{"domains":[]}`}).Expect(t, 404, "not_found")
}

// TestStoreDomainClaimedOnce: stores claiming one domain at the same moment
// get it once, on both backends (on PostgreSQL the check reads every store
// under the all-stores lock, so the claims take turns), and a released
// domain can be claimed again.
func TestStoreDomainClaimedOnce(t *testing.T) {
	t.Parallel()
	testenv.ForEachBackend(t, testenv.Options{}, func(t *testing.T, e *testenv.Env) {
		const n = 6
		paths := make([]string, n)
		for i := range paths {
			id, _ := e.Store(fmt.Sprintf("Shop %d", i))
			paths[i] = fmt.Sprintf("%s/stores/%d/", api, id)
		}
		statuses := make([]int, n)
		var wg sync.WaitGroup
		for i, p := range paths {
			wg.Go(func() {
				r := e.Do(testenv.Req{Method: "PATCH", Path: p, Token: e.OwnerToken, Body: `{"domains":["shop.example"]}`})
				statuses[i] = r.Status
				if r.Status == 409 && r.Body.Errors["domains"] == "" && r.Body.Errors["domains[0]"] == "" {
					t.Errorf("409 without the domains field: %s", r.Raw)
				}
			})
		}
		wg.Wait()
		winner := -1
		for i, st := range statuses {
			switch {
			case st == 200 && winner < 0:
				winner = i
			case st != 409:
				t.Fatalf("claims answered %v, want one 200 and 409s", statuses)
			}
		}
		if winner < 0 {
			t.Fatalf("claims answered %v, want one 200", statuses)
		}
		other := paths[(winner+1)%n]
		e.Do(testenv.Req{Method: "PATCH", Path: other, Token: e.OwnerToken, Body: `{"domains":["shop.example"]}`}).Expect(t, 409, "conflict")
		e.Do(testenv.Req{Method: "PATCH", Path: paths[winner], Token: e.OwnerToken, Body: `{"domains":[]}`}).Expect(t, 200, "")
		e.Do(testenv.Req{Method: "PATCH", Path: other, Token: e.OwnerToken, Body: `{"domains":["shop.example"]}`}).Expect(t, 200, "")
	})
}
