package admin_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"storefront/app"
	"storefront/testenv"
)

// TestProductImportLowStock: a CSV import that takes a product to its
// low-stock threshold or below tells the owner once (mail and
// product.low_stock webhook), in the import's transaction, like the store's
// own PATCH and bulk stock edits; rows that leave a product low, above its
// threshold, or create a product say nothing, and a refused import nothing.
func TestProductImportLowStock(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, _ := e.Store("Lamp Shop")
	admin := fmt.Sprintf("/api/v1/admin/stores/%d/", sid)
	e.Do(testenv.Req{Method: "PATCH", Path: admin, Token: e.OwnerToken, Body: map[string]any{"notification_emails": []string{"owner@lamp.example"}}}).Expect(t, 200, "")
	hooks := testenv.NewHookReceiver(t)
	var ep struct {
		Secret string `json:"secret"`
	}
	e.Do(testenv.Req{Method: "POST", Path: admin + "webhooks/", Token: e.OwnerToken, Body: map[string]any{"url": hooks.URL, "events": []string{app.EvProductLowStock}}}).Expect(t, 201, "").Decode(t, &ep)
	hooks.Secret = ep.Secret
	for _, p := range []struct {
		name             string
		stock, threshold int64
	}{{"Lamp", 10, 5}, {"Vase", 2, 5}, {"Cup", 10, 0}} {
		pr := e.Product(sid, 0, p.name, 1000, p.stock)
		e.Do(testenv.Req{Method: "PATCH", Path: fmt.Sprintf("%sproducts/%d/", admin, pr.ID), Token: e.OwnerToken,
			Body: map[string]any{"low_stock_threshold": p.threshold}}).Expect(t, 200, "")
	}
	lowMails := func() map[string]int {
		out := map[string]int{}
		for _, m := range e.Outbox(sid) {
			if _, name, ok := strings.Cut(m.Subject, "Low stock: "); ok {
				out[strings.Fields(name)[0]]++ // "Lamp (4 left)"
			}
		}
		return out
	}
	if got := fmt.Sprint(lowMails()); got != "map[Vase:1]" { // its threshold made it low
		t.Fatalf("before the import: %s", got)
	}
	// Lamp reaches its threshold; Vase was low already; Cup has none; Bowl is new.
	importCSV(e, e.OwnerToken, sid, "slug,stock\nlamp,4\nvase,1\ncup,0\n").Expect(t, 200, "")
	importCSV(e, e.OwnerToken, sid, "name,price,stock,low_stock_threshold\nBowl,5.00,1,3\n").Expect(t, 200, "")
	if got := fmt.Sprint(lowMails()); got != "map[Lamp:1 Vase:1]" {
		t.Fatalf("after the import: %s, want Lamp once", got)
	}
	// Restocked, then a refused import that would make it low again.
	importCSV(e, e.OwnerToken, sid, "slug,stock\nlamp,20\n").Expect(t, 200, "")
	importCSV(e, e.OwnerToken, sid, "slug,stock\nlamp,1\nvase,lots\n").Expect(t, 400, "validation_failed")
	if got := fmt.Sprint(lowMails()); got != "map[Lamp:1 Vase:1]" {
		t.Fatalf("after a refused import: %s", got)
	}
	// A threshold raised above the stock makes it low too.
	importCSV(e, e.OwnerToken, sid, "slug,low_stock_threshold\nlamp,25\n").Expect(t, 200, "")
	if got := fmt.Sprint(lowMails()); got != "map[Lamp:2 Vase:1]" {
		t.Fatalf("after the threshold import: %s", got)
	}
	if _, err := app.NewWebhookWorker(e.Svc, e.Svc.Webhooks.Sender).RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := hooks.WaitFor(t, 3, 10*time.Second) // Vase's PATCH, then Lamp twice
	for _, h := range got {
		if h.Type != app.EvProductLowStock || !h.SignatureOK {
			t.Fatalf("webhook: got %+v", h)
		}
	}
	if len(got) != 3 {
		t.Fatalf("product.low_stock webhooks: got %d, want 3", len(got))
	}
}
