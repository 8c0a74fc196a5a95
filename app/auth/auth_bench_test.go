package auth_test

import (
	"testing"
	"time"

	"storefront/app"
	"storefront/app/auth"
)

// BenchmarkVerify is the cost of the shopper token check on every shopper
// request: signature, kind, issuer and expiry, no database read.
func BenchmarkVerify(b *testing.B) {
	j := auth.NewJWT([]byte("0123456789abcdef0123456789abcdef"), nil)
	tok, err := j.Issue(app.Claims{Kind: app.TokenShopper, StoreID: 7, Subject: 42, ExpiresAt: time.Now().Add(15 * time.Minute)})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := j.Verify(tok, app.TokenShopper); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkIssue(b *testing.B) {
	j := auth.NewJWT([]byte("0123456789abcdef0123456789abcdef"), nil)
	c := app.Claims{Kind: app.TokenShopper, StoreID: 7, Subject: 42, ExpiresAt: time.Now().Add(15 * time.Minute)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := j.Issue(c); err != nil {
			b.Fatal(err)
		}
	}
}

func TestVerifyRejects(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	j := auth.NewJWT([]byte("secret-one"), func() time.Time { return now })
	tok, _ := j.Issue(app.Claims{Kind: app.TokenShopper, StoreID: 1, Subject: 2, ExpiresAt: now.Add(time.Minute)})
	if c, err := j.Verify(tok, app.TokenShopper); err != nil || c.StoreID != 1 || c.Subject != 2 {
		t.Fatalf("got %+v %v", c, err)
	}
	if _, err := j.Verify(tok, app.TokenAdmin); app.ErrorCode(err) != app.EUnauthorized {
		t.Fatalf("other kind: got %v, want unauthorized", err)
	}
	other := auth.NewJWT([]byte("secret-two"), func() time.Time { return now })
	if _, err := other.Verify(tok, app.TokenShopper); app.ErrorCode(err) != app.EUnauthorized {
		t.Fatalf("other secret: got %v, want unauthorized", err)
	}
}
