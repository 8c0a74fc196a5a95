package web_test

import (
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
)

// TestSandboxRefusesOtherGatewaysSessions (issue 38 point 8): the sandbox
// page is 404 for a session it does not own (a Stripe session), GET and
// POST: it never signs an outcome for another gateway's session, whose order
// stays unpaid. Before: the page offered the buttons and the POST signed a
// success.
func TestSandboxRefusesOtherGatewaysSessions(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	p := e.Product(sid, 0, "Mug", 1250, 10)
	in := initiate(t, e, key, "", order(1, p))
	err := e.DB.Update(func(tx app.Tx) error { // as a Stripe checkout stores it
		for n := uint64(1); n < 10; n++ {
			ps, err := tx.PaymentSession(sid, n)
			if err != nil || ps.ID != in.PaymentSessionID {
				continue
			}
			ps.Provider, ps.Test, ps.ProviderRef = app.ProviderStripe, false, "cs_test_123"
			return tx.PutPaymentSession(ps)
		}
		t.Fatal("session not found")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	path := strings.TrimPrefix(in.RedirectURL, "http://shop.test")
	if r := e.Do(testenv.Req{Method: "GET", Path: path}); r.Status != 404 {
		t.Fatalf("GET a Stripe session's sandbox page: %d, want 404", r.Status)
	}
	r := e.Do(testenv.Req{Method: "POST", Path: path, Body: "outcome=success", Header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}})
	if r.Status != 404 || r.Header.Get("Location") != "" {
		t.Fatalf("POST a Stripe session's sandbox page: %d %q, want 404 and no redirect", r.Status, r.Header.Get("Location"))
	}
}
