package web_test

import (
	"net/http"
	"strings"
	"testing"

	"storefront/testenv"
	"storefront/web"
)

// TestCodeMailsFromStrangers (issue 38 point 4): strangers who ask for a
// shopper's reset codes from other addresses (real loopback sources
// 127.0.0.x) spend their own budgets and the one strangers share, never the
// budget of the address the shopper signed in from: the shopper still gets
// a code. Each requester is limited, the shopper's address too. Before: the
// strangers' requests locked the shopper's resets for 15 minutes.
func TestCodeMailsFromStrangers(t *testing.T) {
	e := testenv.NewWith(t, testenv.Options{Web: web.Config{LoginFailures: 3, CodesPerDay: 10}})
	_, key := e.Store("Shop A")
	base := e.Listen()
	post := func(from, path, body string) int {
		req, _ := http.NewRequest("POST", base+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Service-Key", key)
		resp, err := testenv.ClientFrom(from).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	const ada = `{"email":"ada@example.com"}`
	if s := post("127.0.0.3", pRegister, `{"email":"ada@example.com","password":"correct horse","password_confirm":"correct horse","first_name":"Ada"}`); s != 201 && s != 200 {
		t.Fatalf("register: %d", s)
	}
	if s := post("127.0.0.3", pLogin, `{"email":"ada@example.com","password":"correct horse"}`); s != 200 {
		t.Fatalf("login from her address: %d", s)
	}
	until429 := func(from string) int {
		for n := 0; n < 30; n++ {
			if s := post(from, pForgot, ada); s == 429 {
				return n
			} else if s != 200 {
				t.Fatalf("forgot from %s: %d", from, s)
			}
		}
		t.Fatalf("forgot from %s: never limited", from)
		return 0
	}
	sent := until429("127.0.0.2")
	if sent == 0 {
		t.Fatal("the stranger got no code at all")
	}
	if s := post("127.0.0.4", pForgot, ada); s != 429 {
		t.Errorf("another stranger: %d, want 429 (the strangers' shared budget is spent)", s)
	}
	if got := until429("127.0.0.3"); got != sent {
		t.Errorf("from the shopper's own address: %d codes before 429, want %d (her own budget)", got, sent)
	}
}
