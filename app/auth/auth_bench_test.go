package auth_test

import (
	"testing"
	"time"

	"storefront/app"
	"storefront/app/auth"
)

// BenchmarkVerify is the cost of the shopper token check on every shopper
// request: signature, kind, issuer and expiry, no database read. The
// revocation check after it is app.BenchmarkRevoked.
func BenchmarkVerify(b *testing.B) {
	j := auth.NewJWT([]byte("0123456789abcdef0123456789abcdef"), nil)
	tok, err := j.Issue(app.Claims{Kind: app.TokenShopper, StoreID: 7, Subject: 42, Session: "0123456789abcdef", ExpiresAt: time.Now().Add(15 * time.Minute)})
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

func TestClaimsRoundTrip(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	j := auth.NewJWT([]byte("secret-one"), func() time.Time { return now })
	in := app.Claims{Kind: app.TokenShopper, StoreID: 1, Subject: 2, Session: "0123456789abcdef", IssuedAt: now.Add(-time.Minute), ExpiresAt: now.Add(time.Minute)}
	tok, _ := j.Issue(in)
	c, err := j.Verify(tok, app.TokenShopper)
	if err != nil || c.Session != in.Session || !c.IssuedAt.Equal(in.IssuedAt) {
		t.Fatalf("got %+v %v, want session %s issued %s", c, err, in.Session, in.IssuedAt)
	}
	// IssuedAt unset: the signer's clock
	tok, _ = j.Issue(app.Claims{Kind: app.TokenShopper, StoreID: 1, Subject: 2, ExpiresAt: now.Add(time.Minute)})
	if c, _ := j.Verify(tok, app.TokenShopper); !c.IssuedAt.Equal(now) || c.Session != "" {
		t.Fatalf("got %+v, want issued at %s and no session", c, now)
	}
}
