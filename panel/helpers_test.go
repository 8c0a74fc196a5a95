package panel_test

import (
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"storefront/app"
	"storefront/app/payment/stripe"
	"storefront/testenv"
)

// Helpers shared with the admin API tests (admin/*_test.go).

const api = "/api/v1/admin"

type auditPage struct {
	Items      []auditItem `json:"items"`
	NextCursor *string     `json:"next_cursor"`
}

func from(ip string) map[string]string { return map[string]string{"X-Forwarded-For": ip} }

func importCSV(e *testenv.Env, token string, sid uint64, body string) *testenv.Response {
	data, ct := testenv.Multipart(e.T, "file", testenv.File{Name: "products.csv", Data: []byte(body)})
	return e.Do(testenv.Req{Method: "POST", Path: importPath(sid), Token: token, Body: data, Header: map[string]string{"Content-Type": ct}})
}

func loginBody(password, device string) map[string]string {
	return map[string]string{"email": "owner@example.com", "password": password, "device_token": device}
}

func opsPath(sid uint64, rest string, args ...any) string {
	return fmt.Sprintf("/api/v1/admin/stores/%d/", sid) + fmt.Sprintf(rest, args...)
}

// providerEnv is a server that allows the sandbox and Stripe for WALLET_A
// (the sandbox by default) and only the sandbox for WALLET_B.
func providerEnv(t *testing.T, balanceCalls *atomic.Int64) *testenv.Env {
	e := testenv.New(t)
	e.Svc.Payments.RegisterGateway(stripe.New(app.WalletA, stripeAPI(t, balanceCalls)), app.GatewayAccount{})
	e.Svc.Payments.AllowProviders(app.WalletA, []string{app.ProviderSandbox, app.ProviderStripe}, app.ProviderSandbox)
	e.Svc.Payments.AllowProviders(app.WalletB, []string{app.ProviderSandbox}, "")
	return e
}

func ptr[T any](v T) *T { return &v }

var ticketRE = regexp.MustCompile(`name="ticket" value="([^"]+)"`)

func importPath(sid uint64) string {
	return fmt.Sprintf("/api/v1/admin/stores/%d/products/import/", sid)
}

var assetRE = regexp.MustCompile(`/admin/static/[a-z]+\.[0-9a-f]{8}\.[a-z]+`)

// asset is the fingerprinted URL of a static file, as the layout links it.
func (b *browser) asset(name string) string {
	b.t.Helper()
	ext := path.Ext(name)
	for _, u := range assetRE.FindAllString(b.get("/admin/").Body, -1) {
		if strings.HasPrefix(u, "/admin/static/"+strings.TrimSuffix(name, ext)+".") && strings.HasSuffix(u, ext) {
			return u
		}
	}
	b.t.Fatalf("the layout links no %s", name)
	return ""
}

var testJPEG, testPNG, stripeAPI = testenv.JPEG, testenv.PNG, testenv.FakeStripeAPI

type roleCase = testenv.RoleUser

func roleUsers(t *testing.T, e *testenv.Env, sid uint64) map[string]roleCase {
	return e.RoleUsers(t, sid)
}

func enrolTOTP(t *testing.T, e *testenv.Env, tok string) (string, []string) {
	return e.EnrolTOTP(t, tok)
}

// The role walk's helpers (testenv).
var concretePath, walked, wantAllowed = testenv.ConcretePath, testenv.RouteWalked, testenv.WantAllowed

func placeAs(e *testenv.Env, sid, cid uint64, status, pay, email, name, phone string, p *app.Product, qty int64) *app.Order {
	return e.PlaceOrderAs(sid, cid, status, pay, email, name, phone, p, qty)
}

func deliveredMails(e *testenv.Env, sid, id uint64) []*app.Mail { return e.DeliveredMails(sid, id) }

func productCount(t *testing.T, e *testenv.Env, sid uint64) int { return e.ProductCount(t, sid) }

type auditItem = testenv.AuditItem
