package browser_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"storefront/e2e/browser"
)

// shop calls the storefront API with the store's key (and a shopper token);
// want 0 takes any 2xx.
func shop(t *testing.T, srv *browser.Server, key, token, method, path string, body any, want int, out any) {
	t.Helper()
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, srv.URL+path, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Service-Key", key)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if (want == 0 && resp.StatusCode/100 != 2) || (want != 0 && resp.StatusCode != want) {
		t.Fatalf("%s %s: got %d, want %d: %s", method, path, resp.StatusCode, want, b)
	}
	if out != nil {
		var env struct{ Data json.RawMessage }
		if err := json.Unmarshal(b, &env); err != nil || json.Unmarshal(env.Data, out) != nil {
			t.Fatalf("%s %s: %s", method, path, b)
		}
	}
}

// TestCustomerAndMessages: a shopper's page shows their order, address and
// ticket, and fits the screen (reviews: admin's TestPanelCustomerDetail); a contact message is answered by
// email from the panel and the answer is in the outbox.
func TestCustomerAndMessages(t *testing.T) {
	t.Parallel()
	srv, st, prods := catalogFixture(t)
	const web = "/api/v1/business/website"
	var reg struct {
		AccessToken string `json:"access_token"`
		Customer    struct {
			ID uint64 `json:"id"`
		} `json:"customer"`
	}
	shop(t, srv, st.APIKey, "", "POST", "/api/v1/customer/auth/register/", map[string]string{"email": "ann@example.com", "password": "password123",
		"password_confirm": "password123", "first_name": long("Ann", 100), "last_name": "Lee", "phone": "+15550100"}, 0, &reg)
	tok := reg.AccessToken
	// the checkout returns to the store's front-end: its origin is listed
	srv.API(t, "PATCH", fmt.Sprintf("/api/v1/admin/stores/%d/config/", st.ID), srv.OwnerToken(t), map[string]any{"callback_origins": []string{"https://shop.example"}}, 200, nil)
	shop(t, srv, st.APIKey, tok, "POST", web+"/payment/initiate/", map[string]any{"receiver_name": "Ann Lee", "phone": "+15550100", "address": "1 Main St",
		"currency": "USD", "items": []map[string]any{{"product_id": prods[1].ID, "quantity": 1}}, "payment_method": "WALLET_A",
		"callback_url": "https://shop.example/return"}, 0, nil)
	shop(t, srv, st.APIKey, tok, "POST", web+"/addresses/", map[string]any{"receiver_name": long("R", 100), "phone": "+15550100",
		"address_line1": long("Street", 200), "city": "Springfield", "is_default": true}, 0, nil)
	shop(t, srv, st.APIKey, tok, "POST", web+"/tickets/", map[string]any{"subject": long("T", 200), "description": "Where is it?"}, 0, nil)
	shop(t, srv, st.APIKey, "", "POST", web+"/contact/", map[string]any{"name": "Bob", "email": "bob@example.com", "subject": long("Q", 200),
		"message": long("M", 300)}, 0, nil)

	p := catalogPage(t, srv)
	p.LoginOwner()
	p.Go(fmt.Sprintf("/admin/stores/%d/customers/%d/", st.ID, reg.Customer.ID))
	for sel, want := range map[string]int{`#orders tbody tr`: 1, `#addresses li`: 1, `#tickets tbody tr`: 1} {
		if n := p.Count(sel); n != want {
			t.Fatalf("%s: got %d, want %d", sel, n, want)
		}
	}
	p.CheckNoOverflow()
	p.Submit(`#tickets tbody a`)
	p.CheckNoOverflow()

	p.Go(fmt.Sprintf("/admin/stores/%d/messages/", st.ID))
	p.CheckNoOverflow()
	p.Fill(`.reply-form textarea`, "Thanks Bob, we will call you.")
	p.Submit(`.reply-form button[type=submit]`)
	if msg := p.Text(`.flash`); !strings.Contains(msg, "Reply to bob@example.com queued") {
		t.Fatalf("flash: got %q", msg)
	}
	// The message is read now, so its <details> is closed: read the text, not what shows.
	if got := browser.Eval[string](p, `document.querySelector(".messages .reply pre.mail").textContent`); got != "Thanks Bob, we will call you." {
		t.Fatalf("reply shown: got %q", got)
	}
	p.CheckNoOverflow()
	var mails struct {
		Items []struct{ To, Subject, Text string } `json:"items"`
	}
	srv.API(t, "GET", fmt.Sprintf("/api/v1/admin/stores/%d/outbox/", st.ID), srv.OwnerToken(t), nil, 200, &mails)
	found := false
	for _, m := range mails.Items {
		if m.To == "bob@example.com" && strings.Contains(m.Subject, "Re: Qwww") && strings.Contains(m.Text, "> Mwww") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no reply to bob in the outbox: %+v", mails.Items)
	}
}
