package testenv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"storefront/app"
)

// What the admin API's and the panel's tests both need.

// JPEG is a w×h gradient JPEG with an EXIF segment (GPS position included)
// spliced in after SOI, as a phone writes it. Each size is encoded once per
// test binary (the caller gets its own copy): a 2000 x 1000 picture cost
// half a CPU second under the race detector, pixel by pixel through Set.
func JPEG(t testing.TB, w, h int) []byte {
	t.Helper()
	return picture(t, "jpeg", w, h, func(buf *bytes.Buffer) error {
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		for y := range h {
			row := img.Pix[y*img.Stride : y*img.Stride+4*w]
			for x := range w {
				copy(row[4*x:], []uint8{uint8(x), uint8(y), 128, 255})
			}
		}
		if err := jpeg.Encode(buf, img, &jpeg.Options{Quality: 90}); err != nil {
			return err
		}
		exif := []byte("Exif\x00\x00MM\x00\x2aGPSLatitude 48.8584 GPSLongitude 2.2945 SECRET-LOCATION")
		seg := append([]byte{0xFF, 0xE1, byte((len(exif) + 2) >> 8), byte(len(exif) + 2)}, exif...)
		raw := bytes.Clone(buf.Bytes())
		buf.Reset()
		buf.Write(raw[:2])
		buf.Write(seg)
		buf.Write(raw[2:])
		return nil
	})
}

// PNG is a w×h PNG with transparent parts (encoded once per size, as JPEG).
func PNG(t testing.TB, w, h int) []byte {
	t.Helper()
	return picture(t, "png", w, h, func(buf *bytes.Buffer) error {
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		for y := range h {
			row := img.Pix[y*img.Stride : y*img.Stride+4*w]
			for x := range w {
				copy(row[4*x:], []uint8{200, uint8(x), uint8(y), uint8(x % 256)}) // transparent parts
			}
		}
		return png.Encode(buf, img)
	})
}

// pictures holds the encoded test pictures by kind and size.
var pictures sync.Map // "kind wxh" -> []byte

// picture returns a copy of the picture of that kind and size, encoding it
// with enc the first time.
func picture(t testing.TB, kind string, w, h int, enc func(*bytes.Buffer) error) []byte {
	t.Helper()
	key := fmt.Sprintf("%s %dx%d", kind, w, h)
	if b, ok := pictures.Load(key); ok {
		return bytes.Clone(b.([]byte))
	}
	var buf bytes.Buffer
	if err := enc(&buf); err != nil {
		t.Fatal(err)
	}
	b, _ := pictures.LoadOrStore(key, bytes.Clone(buf.Bytes()))
	return bytes.Clone(b.([]byte))
}

// FakeStripeAPI is a minimal Stripe API: the balance (a key containing
// "revoked" is refused with 401, as Stripe refuses a bad key) and Checkout
// Session creation. It counts the balance calls.
func FakeStripeAPI(t *testing.T, balanceCalls *atomic.Int64) string {
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
			page := "https://checkout.stripe.com/c/pay/cs_test_1"
			if strings.Contains(auth, "elsewhere") { // an account whose pages are not Stripe's
				page = "https://pay.elsewhere.test/c/pay/cs_test_1"
			}
			b, _ := json.Marshal(map[string]any{"id": "cs_test_1", "object": "checkout.session", "mode": "payment",
				"status": "open", "payment_status": "unpaid", "url": page,
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

// RoleUser is an admin of one role and a token of theirs.
type RoleUser struct {
	User  *app.AdminUser
	Token string
}

// RoleUsers makes a manager and a staff of store sid (and takes the owner).
func (e *Env) RoleUsers(t *testing.T, sid uint64) map[string]RoleUser {
	out := map[string]RoleUser{}
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
		out[role] = RoleUser{User: u, Token: tok}
	}
	return out
}

// EnrolTOTP enrols the admin of tok through the admin API and returns the
// secret and recovery codes.
func (e *Env) EnrolTOTP(t *testing.T, tok string) (string, []string) {
	t.Helper()
	var en struct {
		Secret string `json:"secret"`
		URI    string `json:"otpauth_uri"`
	}
	e.Do(Req{Method: "POST", Path: "/api/v1/admin/auth/totp/", Token: tok}).Expect(t, 200, "").Decode(t, &en)
	if en.Secret == "" || !strings.HasPrefix(en.URI, "otpauth://totp/Storefront:") || !strings.Contains(en.URI, "secret="+en.Secret) {
		t.Fatalf("got enrolment %+v", en)
	}
	e.Do(Req{Method: "POST", Path: "/api/v1/admin/auth/totp/confirm/", Token: tok, Body: map[string]string{"code": "000000"}}).
		Expect(t, 400, "validation_failed")
	var out struct {
		RecoveryCodes []string `json:"recovery_codes"`
	}
	e.Do(Req{Method: "POST", Path: "/api/v1/admin/auth/totp/confirm/", Token: tok, Body: map[string]string{"code": app.TOTPCode(en.Secret, e.Now())}}).
		Expect(t, 200, "").Decode(t, &out)
	if len(out.RecoveryCodes) != app.RecoveryCodes {
		t.Fatalf("got %d recovery codes, want %d", len(out.RecoveryCodes), app.RecoveryCodes)
	}
	e.Advance(30 * time.Second) // the confirming code's step is spent
	return en.Secret, out.RecoveryCodes
}

// RouteWalked reports whether a route is one of the admin side's own (not a
// catch-all) with a method the routes use, for the tests that walk every
// route with every role.
func RouteWalked(method, path string) bool {
	return !strings.Contains(path, "*") && strings.Contains("GET POST PUT PATCH DELETE", method)
}

// WantAllowed asks the role table about a concrete admin path (after
// prefix), and fails when the route's resource is missing from it (a new
// route needs a line).
func WantAllowed(t *testing.T, u *app.AdminUser, method, path, prefix string) bool {
	t.Helper()
	var segs []string
	for _, s := range strings.Split(strings.TrimPrefix(path, prefix), "/") {
		if s != "" {
			segs = append(segs, s)
		}
	}
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

// ConcretePath fills a route pattern's parameters: the store, a
// payment-methods settings section (a sub-page with its own permission),
// and ids that do not exist.
func ConcretePath(pattern string, sid uint64) string {
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

// PlaceOrderAs stores an order as PlaceOrder does, then sets who placed it.
func (e *Env) PlaceOrderAs(sid, cid uint64, status, pay, email, name, phone string, p *app.Product, qty int64) *app.Order {
	e.T.Helper()
	o := e.PlaceOrder(sid, cid, status, pay, Line{Product: p, Qty: qty})
	o.Email, o.ReceiverName, o.Phone = email, name, phone
	if err := e.DB.Update(func(tx app.Tx) error { return tx.PutOrder(o) }); err != nil {
		e.T.Fatal(err)
	}
	return o
}

// DeliveredMails returns the store's "delivered" mails of order id.
func (e *Env) DeliveredMails(sid, id uint64) []*app.Mail {
	var out []*app.Mail
	for _, m := range e.Outbox(sid) {
		if m.Kind == app.MailOrderDelivered && strings.Contains(m.Subject, fmt.Sprintf("#%d", id)) {
			out = append(out, m)
		}
	}
	return out
}

// ProductCount is how many products store sid has (active and hidden).
func (e *Env) ProductCount(t *testing.T, sid uint64) int {
	t.Helper()
	page, err := e.Svc.Catalog.AdminProducts(sid, app.AdminProductQuery{})
	if err != nil {
		t.Fatal(err)
	}
	return page.Total
}

// AuditItem is an entry of GET /api/v1/admin/audit-log/.
type AuditItem struct {
	ID         uint64  `json:"id"`
	AdminEmail string  `json:"admin_email"`
	StoreID    *uint64 `json:"store_id"`
	Action     string  `json:"action"`
	Object     string  `json:"object"`
	IP         string  `json:"ip"`
	Via        string  `json:"via"`
	Status     int     `json:"status"`
}
