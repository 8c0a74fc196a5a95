package e2e

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestInvoiceNumbersTwoProcesses: two binaries on one PostgreSQL database
// take payments at once, each confirming half of them: the paid orders get
// the invoice numbers 1..n of the store's sequence, no gap, no duplicate.
func TestInvoiceNumbersTwoProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real binary")
	}
	ss := startCluster(t, 2)
	var login struct {
		AccessToken string `json:"access_token"`
	}
	ss[0].call("POST", "/api/v1/admin/auth/login/", "", "", map[string]string{"email": "owner@example.com", "password": "owner-password"}, 200, &login)
	tok := login.AccessToken
	var st struct {
		ID     uint64 `json:"id"`
		APIKey string `json:"api_key"`
	}
	ss[1].call("POST", "/api/v1/admin/stores/", "", tok, map[string]string{"name": "Numbered", "subdomain": "numbered", "currency": "USD"}, 201, &st)
	admin := fmt.Sprintf("/api/v1/admin/stores/%d/", st.ID)
	ss[1].call("PATCH", admin+"payments/", "", tok, map[string]any{"payments_live": false}, 200, nil)
	ss[0].call("PATCH", admin+"config/", "", tok, map[string]any{"callback_origins": []string{"https://shop.example"}, "taxes": map[string]any{"invoice_prefix": "INV-", "prices_include_tax": true,
		"rates": []map[string]any{{"name": "VAT", "rate": "20"}}}}, 200, nil)
	var p struct {
		ID uint64 `json:"id"`
	}
	ss[0].call("POST", admin+"products/", "", tok, map[string]any{"name": "Mug", "price": "10.00", "stock": 100}, 201, &p)
	const n = 16
	sessions := make([]string, n)
	orders := make([]uint64, n)
	for i := range n {
		var in struct {
			OrderID          uint64 `json:"order_id"`
			PaymentSessionID string `json:"payment_session_id"`
		}
		ss[i%2].call("POST", "/api/v1/business/website/payment/initiate/", st.APIKey, "", map[string]any{
			"receiver_name": "Buyer", "phone": "+15550100", "address": "1 Loop Rd", "email": fmt.Sprintf("b%d@example.com", i),
			"delivery_fee": "0.00", "currency": "USD", "payment_method": "WALLET_A", "callback_url": "https://shop.example/cb",
			"items": []map[string]any{{"product_id": p.ID, "quantity": 1}}}, 200, &in)
		sessions[i], orders[i] = in.PaymentSessionID, in.OrderID
	}
	params := make([]map[string]string, n)
	for i, sid := range sessions {
		params[i] = sandboxPaid(t, ss[0].base, sid)
	}
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			ss[i%2].call("POST", "/api/v1/business/website/payment/verify/", st.APIKey, "",
				map[string]any{"payment_session_id": sessions[i], "provider_params": params[i]}, 200, nil)
		})
	}
	wg.Wait()
	var got, want []string
	for i, id := range orders {
		var o struct {
			InvoiceNumber *string `json:"invoice_number"`
			TaxTotal      string  `json:"tax_total"`
		}
		ss[i%2].call("GET", fmt.Sprintf("%sorders/%d/", admin, id), "", tok, nil, 200, &o)
		if o.InvoiceNumber == nil || o.TaxTotal != "1.67" {
			t.Fatalf("order %d: invoice %v, tax %s; want a number and 1.67 (20%% of 10.00 included)", id, o.InvoiceNumber, o.TaxTotal)
		}
		got = append(got, *o.InvoiceNumber)
		want = append(want, fmt.Sprintf("TEST-INV-%d", i+1))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("invoice numbers %v, want %v", got, want)
	}
}

// sandboxPaid presses the sandbox's Pay button of a session and returns
// the parameters it sends the shopper back with.
func sandboxPaid(t *testing.T, base, session string) map[string]string {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Post(base+"/sandbox/pay/"+session+"/", "application/x-www-form-urlencoded", strings.NewReader("outcome=success"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusSeeOther || err != nil {
		t.Fatalf("sandbox: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	out := map[string]string{}
	for k, v := range loc.Query() {
		out[k] = v[0]
	}
	return out
}
