package panel_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

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

// enrolTOTP enrols the admin of tok and returns the secret and recovery codes.
func enrolTOTP(t *testing.T, e *testenv.Env, tok string) (string, []string) {
	t.Helper()
	var en totpEnrolment
	e.Do(testenv.Req{Method: "POST", Path: api + "/auth/totp/", Token: tok}).Expect(t, 200, "").Decode(t, &en)
	if en.Secret == "" || !strings.HasPrefix(en.URI, "otpauth://totp/Storefront:") || !strings.Contains(en.URI, "secret="+en.Secret) {
		t.Fatalf("got enrolment %+v", en)
	}
	e.Do(testenv.Req{Method: "POST", Path: api + "/auth/totp/confirm/", Token: tok, Body: map[string]string{"code": "000000"}}).
		Expect(t, 400, "validation_failed")
	var out struct {
		RecoveryCodes []string `json:"recovery_codes"`
	}
	e.Do(testenv.Req{Method: "POST", Path: api + "/auth/totp/confirm/", Token: tok, Body: map[string]string{"code": app.TOTPCode(en.Secret, e.Now())}}).
		Expect(t, 200, "").Decode(t, &out)
	if len(out.RecoveryCodes) != app.RecoveryCodes {
		t.Fatalf("got %d recovery codes, want %d", len(out.RecoveryCodes), app.RecoveryCodes)
	}
	e.Advance(30 * time.Second) // the confirming code's step is spent
	return en.Secret, out.RecoveryCodes
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

// roleUsers makes a manager and a staff of store sid (and takes the owner).
func roleUsers(t *testing.T, e *testenv.Env, sid uint64) map[string]roleCase {
	out := map[string]roleCase{}
	for _, role := range app.Roles {
		email := role + "@roles.example.com"
		if role == app.RoleOwner {
			email = "owner@example.com"
		} else if _, err := e.Svc.Admins.Create(app.NewAdmin{Email: email, Password: "role-password", Role: role, StoreID: sid}); err != nil {
			t.Fatal(err)
		}
		u, err := e.Svc.Admins.Get(map[string]uint64{app.RoleOwner: 1, app.RoleStaff: 2, app.RoleManager: 3}[role])
		if err != nil || u.Role != role {
			t.Fatalf("admin of role %s: %v %v", role, u, err)
		}
		tok, _, err := e.Svc.Admins.Token(u)
		if err != nil {
			t.Fatal(err)
		}
		out[role] = roleCase{user: u, token: tok}
	}
	return out
}

// stripeAPI is a minimal Stripe API: the balance (a key containing
// "revoked" is refused with 401, as Stripe refuses a bad key) and Checkout
// Session creation. It counts the balance calls.
func stripeAPI(t *testing.T, balanceCalls *atomic.Int64) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		auth := r.Header.Get("Authorization")
		switch {
		case strings.Contains(auth, "revoked"):
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"error":{"type":"invalid_request_error","message":"Invalid API Key provided: sk_test_****oked"}}`)
		case r.Method == "GET" && r.URL.Path == "/v1/balance":
			balanceCalls.Add(1)
			fmt.Fprint(w, `{"object":"balance","available":[],"pending":[],"livemode":false}`)
		case r.Method == "POST" && r.URL.Path == "/v1/checkout/sessions":
			_ = r.ParseForm()
			b, _ := json.Marshal(map[string]any{"id": "cs_test_1", "object": "checkout.session", "mode": "payment",
				"status": "open", "payment_status": "unpaid", "url": "https://checkout.stripe.test/c/pay/cs_test_1",
				"client_reference_id": r.PostForm.Get("client_reference_id")})
			w.Write(b)
		default:
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprintf(w, `{"error":{"type":"invalid_request_error","message":"unknown route %s"}}`, r.URL.Path)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// testJPEG is a w×h gradient JPEG with an EXIF segment (GPS position
// included) spliced in after SOI, as a phone writes it.
func testJPEG(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 128, 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	exif := []byte("Exif\x00\x00MM\x00\x2aGPSLatitude 48.8584 GPSLongitude 2.2945 SECRET-LOCATION")
	seg := append([]byte{0xFF, 0xE1, byte((len(exif) + 2) >> 8), byte(len(exif) + 2)}, exif...)
	raw := buf.Bytes()
	return append(append(append([]byte{}, raw[:2]...), seg...), raw[2:]...)
}

func testPNG(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.NRGBA{200, uint8(x), uint8(y), uint8(x % 256)}) // transparent parts
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

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

type roleCase struct {
	user  *app.AdminUser
	token string
}
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

type totpEnrolment struct {
	Secret string `json:"secret"`
	URI    string `json:"otpauth_uri"`
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
