package panel_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
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

// concretePath fills a route pattern's parameters: the store, a
// payment-methods settings section (a sub-page with its own permission),
// and ids that do not exist.
func concretePath(pattern string, sid uint64) string {
	segs := strings.Split(pattern, "/")
	for i, s := range segs {
		switch {
		case s == ":store_id" || s == ":sid":
			segs[i] = fmt.Sprint(sid)
		case s == ":section":
			segs[i] = "payment-methods"
		case strings.HasPrefix(s, ":"):
			segs[i] = "999999"
		}
	}
	return strings.Join(segs, "/")
}

// deliveredMails returns the store's "delivered" mails of order id.
func deliveredMails(e *testenv.Env, sid, id uint64) []*app.Mail {
	var out []*app.Mail
	for _, m := range e.Outbox(sid) {
		if m.Kind == app.MailOrderDelivered && strings.Contains(m.Subject, fmt.Sprintf("#%d", id)) {
			out = append(out, m)
		}
	}
	return out
}

func from(ip string) map[string]string { return map[string]string{"X-Forwarded-For": ip} }

func importCSV(e *testenv.Env, token string, sid uint64, body string) *testenv.Response {
	data, ct := multipartBody(e.T, "file", upload{name: "products.csv", data: []byte(body)})
	return e.Do(testenv.Req{Method: "POST", Path: importPath(sid), Token: token, Body: data, Header: map[string]string{"Content-Type": ct}})
}

func loginBody(password, device string) map[string]string {
	return map[string]string{"email": "owner@example.com", "password": password, "device_token": device}
}

type nopMailer struct{}

func opsPath(sid uint64, rest string, args ...any) string {
	return fmt.Sprintf("/api/v1/admin/stores/%d/", sid) + fmt.Sprintf(rest, args...)
}

// placeAs stores an order as PlaceOrder does, then sets who placed it.
func placeAs(e *testenv.Env, sid, cid uint64, status, pay, email, name, phone string, p *app.Product, qty int64) *app.Order {
	e.T.Helper()
	o := e.PlaceOrder(sid, cid, status, pay, testenv.Line{Product: p, Qty: qty})
	o.Email, o.ReceiverName, o.Phone = email, name, phone
	if err := e.DB.Update(func(tx app.Tx) error { return tx.PutOrder(o) }); err != nil {
		e.T.Fatal(err)
	}
	return o
}

func productCount(t *testing.T, e *testenv.Env, sid uint64) int {
	t.Helper()
	page, err := e.Svc.Catalog.AdminProducts(sid, app.AdminProductQuery{})
	if err != nil {
		t.Fatal(err)
	}
	return page.Total
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

type upload struct {
	name string
	data []byte
}

// walked reports whether a route is one of the admin's own (not a
// catch-all) with a method the routes use.
func walked(method, path string) bool {
	return !strings.Contains(path, "*") && strings.Contains("GET POST PUT PATCH DELETE", method)
}

// wantAllowed asks the role table about a concrete admin path, and fails
// when the route's resource is missing from it (a new route needs a line).
func wantAllowed(t *testing.T, u *app.AdminUser, method, path, prefix string) bool {
	t.Helper()
	segs := segsAfter(path, prefix)
	scoped := len(segs) >= 2 && segs[0] == "stores"
	var ok bool
	if scoped {
		segs = segs[2:]
		_, ok = app.StoreRoutePerm(method, segs)
	} else {
		_, ok = app.GlobalRoutePerm(method, segs)
	}
	if !ok {
		t.Errorf("%s %s: no permission in app.StoreRoutePerms/GlobalRoutePerms", method, path)
	}
	return app.Allow(u, scoped, method, segs) == nil
}

func (nopMailer) Send(app.Mail) error { return nil }

type auditItem struct {
	ID         uint64  `json:"id"`
	AdminEmail string  `json:"admin_email"`
	StoreID    *uint64 `json:"store_id"`
	Action     string  `json:"action"`
	Object     string  `json:"object"`
	IP         string  `json:"ip"`
	Via        string  `json:"via"`
	Status     int     `json:"status"`
}

// multipartBody builds a multipart body with one part per file, all named field.
func multipartBody(t testing.TB, field string, files ...upload) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, f := range files {
		w, err := mw.CreateFormFile(field, f.name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(f.data)
	}
	mw.Close()
	return buf.Bytes(), mw.FormDataContentType()
}

func importPath(sid uint64) string {
	return fmt.Sprintf("/api/v1/admin/stores/%d/products/import/", sid)
}

// segsAfter splits path after prefix into its segments.
func segsAfter(path, prefix string) []string {
	var out []string
	for _, s := range strings.Split(strings.TrimPrefix(path, prefix), "/") {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
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
