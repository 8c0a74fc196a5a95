package web_test

import (
	"fmt"
	"testing"

	"storefront/app"
	"storefront/app/auth"
	"storefront/testenv"
)

// The account benchmarks run at bcrypt cost 10, the production default
// (testenv uses 4 to keep tests fast), through HTTP with a real bbolt file.

func benchEnv(b *testing.B) (*testenv.Env, string) {
	// the failed-login limit off: the wrong-password loops measure the hash, not the 429
	e := testenv.NewWith(b, testenv.Options{Pass: auth.NewBcrypt(10), App: app.Options{LoginFailures: 1 << 30}})
	_, key := e.Store("Shop A")
	return e, key
}

func BenchmarkRegister(b *testing.B) {
	e, key := benchEnv(b)
	i := 0
	for b.Loop() {
		i++
		r := e.Do(testenv.Req{Method: "POST", Path: pRegister, Key: key, Body: regBody(fmt.Sprintf("u%d@example.com", i))})
		if r.Status != 200 {
			b.Fatalf("got %d: %s", r.Status, r.Raw)
		}
	}
}

func BenchmarkLogin(b *testing.B) {
	e, key := benchEnv(b)
	e.Do(testenv.Req{Method: "POST", Path: pRegister, Key: key, Body: regBody("ada@example.com")})
	body := map[string]string{"email": "ada@example.com", "password": "correct horse"}
	for b.Loop() {
		if r := e.Do(testenv.Req{Method: "POST", Path: pLogin, Key: key, Body: body}); r.Status != 200 {
			b.Fatalf("got %d: %s", r.Status, r.Raw)
		}
	}
}

func BenchmarkLoginWrongPassword(b *testing.B) {
	e, key := benchEnv(b)
	e.Do(testenv.Req{Method: "POST", Path: pRegister, Key: key, Body: regBody("ada@example.com")})
	body := map[string]string{"email": "ada@example.com", "password": "wrong horse"}
	for b.Loop() {
		if r := e.Do(testenv.Req{Method: "POST", Path: pLogin, Key: key, Body: body}); r.Status != 401 {
			b.Fatalf("got %d: %s", r.Status, r.Raw)
		}
	}
}

func BenchmarkLoginUnknownEmail(b *testing.B) {
	e, key := benchEnv(b)
	body := map[string]string{"email": "nobody@example.com", "password": "wrong horse"}
	for b.Loop() {
		if r := e.Do(testenv.Req{Method: "POST", Path: pLogin, Key: key, Body: body}); r.Status != 401 {
			b.Fatalf("got %d: %s", r.Status, r.Raw)
		}
	}
}

// BenchmarkShopperRequest is a whole authenticated request (GET addresses/):
// key lookup (cached), token check, one read transaction.
func BenchmarkShopperRequest(b *testing.B) {
	e, key := benchEnv(b)
	var tr tokenResult
	e.Do(testenv.Req{Method: "POST", Path: pRegister, Key: key, Body: regBody("ada@example.com")}).Decode(b, &tr)
	for b.Loop() {
		if r := e.Do(testenv.Req{Method: "GET", Path: pAddresses, Key: key, Token: tr.AccessToken}); r.Status != 200 {
			b.Fatalf("got %d: %s", r.Status, r.Raw)
		}
	}
}
