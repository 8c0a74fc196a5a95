package web_test

import (
	"regexp"
	"sync"
	"testing"
	"time"

	"storefront/testenv"
)

const pAddresses = "/api/v1/business/website/addresses/"

type addressView struct {
	ID           string `json:"id"`
	Label        string `json:"label"`
	ReceiverName string `json:"receiver_name"`
	Phone        string `json:"phone"`
	AddressLine1 string `json:"address_line1"`
	AddressLine2 string `json:"address_line2"`
	City         string `json:"city"`
	Area         string `json:"area"`
	PostalCode   string `json:"postal_code"`
	IsDefault    bool   `json:"is_default"`
	CreatedAt    string `json:"created_at"`
	UpdatedAt    string `json:"updated_at"`
}

type addressList struct {
	Items      []addressView `json:"items"`
	NextCursor *string       `json:"next_cursor"`
	HasMore    bool          `json:"has_more"`
}

var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func addressBody(name string, def bool) map[string]any {
	return map[string]any{"label": "HOME", "receiver_name": name, "phone": "+1 555 0100", "address_line1": "1 Main St",
		"address_line2": "Flat 2", "city": "Springfield", "area": "Centre", "postal_code": "12345", "is_default": def}
}

func createAddress(t *testing.T, e *testenv.Env, key, tok string, body any) string {
	t.Helper()
	var out struct {
		ID string `json:"id"`
	}
	r := e.Do(testenv.Req{Method: "POST", Path: pAddresses, Key: key, Token: tok, Body: body}).Expect(t, 200, "")
	r.Decode(t, &out)
	if !uuidV4.MatchString(out.ID) {
		t.Fatalf("got id %q, want a lower-case uuid v4: %s", out.ID, r.Raw)
	}
	return out.ID
}

func listAddresses(t *testing.T, e *testenv.Env, key, tok string) addressList {
	t.Helper()
	var l addressList
	e.Do(testenv.Req{Method: "GET", Path: pAddresses, Key: key, Token: tok}).Expect(t, 200, "").Decode(t, &l)
	if l.HasMore || l.NextCursor != nil {
		t.Fatalf("address list: got has_more %v next_cursor %v, want a complete set", l.HasMore, l.NextCursor)
	}
	return l
}

func defaults(l addressList) []string {
	var out []string
	for _, a := range l.Items {
		if a.IsDefault {
			out = append(out, a.ID)
		}
	}
	return out
}

func TestAddressCRUD(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	sidB, keyB := e.Store("Shop B")
	_, tok := e.Shopper(sid, "ada@example.com")
	_, other := e.Shopper(sid, "bob@example.com")
	_, tokB := e.Shopper(sidB, "ada@example.com")

	id := createAddress(t, e, key, tok, addressBody("Ada", false))
	var a addressView
	e.Do(testenv.Req{Method: "GET", Path: pAddresses + id + "/", Key: key, Token: tok}).Expect(t, 200, "").Decode(t, &a)
	want := addressView{ID: id, Label: "HOME", ReceiverName: "Ada", Phone: "+1 555 0100", AddressLine1: "1 Main St", AddressLine2: "Flat 2",
		City: "Springfield", Area: "Centre", PostalCode: "12345", CreatedAt: "2026-11-21T10:00:00Z", UpdatedAt: "2026-11-21T10:00:00Z"}
	if a != want {
		t.Fatalf("got %+v, want %+v", a, want)
	}

	t.Run("PartialUpdate", func(t *testing.T) {
		var u addressView
		e.Do(testenv.Req{Method: "PUT", Path: pAddresses + id + "/", Key: key, Token: tok, Body: map[string]any{"city": "Shelbyville", "label": "work"}}).Expect(t, 200, "").Decode(t, &u)
		w := want
		w.City, w.Label = "Shelbyville", "WORK"
		if u != w {
			t.Fatalf("got %+v, want %+v", u, w)
		}
		e.Do(testenv.Req{Method: "PUT", Path: pAddresses + id, Key: key, Token: tok, Body: map[string]any{"address_line2": ""}}).Expect(t, 200, "").Decode(t, &u)
		if u.AddressLine2 != "" || u.City != "Shelbyville" || u.ReceiverName != "Ada" {
			t.Fatalf("clearing address_line2: got %+v", u)
		}
		e.Do(testenv.Req{Method: "PUT", Path: pAddresses + id + "/", Key: key, Token: tok, Body: map[string]any{}}).Expect(t, 200, "").Decode(t, &u)
		if u.City != "Shelbyville" {
			t.Fatalf("empty update changed the address: %+v", u)
		}
	})

	t.Run("Errors", func(t *testing.T) {
		tests := []struct {
			name, method, path, key, token string
			body                           any
			status                         int
			code                           string
			fields                         []string
		}{
			{"CreateMissing", "POST", pAddresses, key, tok, map[string]any{}, 400, "validation_failed", []string{"receiver_name", "phone", "address_line1", "city"}},
			{"CreateBadLabel", "POST", pAddresses, key, tok, merge(addressBody("Ada", false), map[string]any{"label": "CASTLE"}), 400, "validation_failed", []string{"label"}},
			{"CreateBadPhone", "POST", pAddresses, key, tok, merge(addressBody("Ada", false), map[string]any{"phone": "none"}), 400, "validation_failed", []string{"phone"}},
			{"CreateTooLong", "POST", pAddresses, key, tok, merge(addressBody("Ada", false), map[string]any{"postal_code": "123456789012345678901"}), 400, "validation_failed", []string{"postal_code"}},
			{"CreateWrongType", "POST", pAddresses, key, tok, merge(addressBody("Ada", false), map[string]any{"is_default": "yes"}), 400, "validation_failed", []string{"is_default"}},
			{"CreateNoToken", "POST", pAddresses, key, "", addressBody("Ada", false), 401, "unauthorized", nil},
			{"CreateNoKey", "POST", pAddresses, "", tok, addressBody("Ada", false), 401, "invalid_api_key", nil},
			{"UpdateEmptiesRequired", "PUT", pAddresses + id + "/", key, tok, map[string]any{"city": "  "}, 400, "validation_failed", []string{"city"}},
			{"GetOtherShopper", "GET", pAddresses + id + "/", key, other, nil, 404, "not_found", nil},
			{"UpdateOtherShopper", "PUT", pAddresses + id + "/", key, other, map[string]any{"city": "X"}, 404, "not_found", nil},
			{"DeleteOtherShopper", "DELETE", pAddresses + id + "/", key, other, nil, 404, "not_found", nil},
			{"GetOtherStore", "GET", pAddresses + id + "/", keyB, tokB, nil, 404, "not_found", nil},
			{"TokenOfOtherStore", "GET", pAddresses + id + "/", keyB, tok, nil, 401, "unauthorized", nil},
			{"GetNoToken", "GET", pAddresses + id + "/", key, "", nil, 401, "unauthorized", nil},
			{"ListNoToken", "GET", pAddresses, key, "", nil, 401, "unauthorized", nil},
			{"GetBadID", "GET", pAddresses + "not-a-uuid/", key, tok, nil, 404, "not_found", nil},
			{"GetUnknownID", "GET", pAddresses + "8a1f6c2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b/", key, tok, nil, 404, "not_found", nil},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				r := e.Do(testenv.Req{Method: tc.method, Path: tc.path, Key: tc.key, Token: tc.token, Body: tc.body}).Expect(t, tc.status, tc.code)
				for _, f := range tc.fields {
					if r.Body.Errors[f] == "" {
						t.Errorf("errors has no %q: %s", f, r.Raw)
					}
				}
			})
		}
		if l := listAddresses(t, e, key, other); len(l.Items) != 0 {
			t.Fatalf("another shopper sees %d addresses, want 0", len(l.Items))
		}
	})

	t.Run("Delete", func(t *testing.T) {
		body := addressBody("Second", false)
		delete(body, "label")
		id2 := createAddress(t, e, key, tok, body)
		var got addressView
		e.Do(testenv.Req{Method: "GET", Path: pAddresses + id2 + "/", Key: key, Token: tok}).Expect(t, 200, "").Decode(t, &got)
		if got.Label != "HOME" {
			t.Fatalf("got label %q, want the default HOME", got.Label)
		}
		e.Do(testenv.Req{Method: "DELETE", Path: pAddresses + id2 + "/", Key: key, Token: tok}).Expect(t, 200, "")
		e.Do(testenv.Req{Method: "GET", Path: pAddresses + id2 + "/", Key: key, Token: tok}).Expect(t, 404, "not_found")
		e.Do(testenv.Req{Method: "DELETE", Path: pAddresses + id2 + "/", Key: key, Token: tok}).Expect(t, 404, "not_found")
		if l := listAddresses(t, e, key, tok); len(l.Items) != 1 || l.Items[0].ID != id {
			t.Fatalf("got %+v, want only %s", l.Items, id)
		}
	})
}

func TestAddressDefault(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	_, tok := e.Shopper(sid, "ada@example.com")
	_, other := e.Shopper(sid, "bob@example.com")
	otherDefault := createAddress(t, e, key, other, addressBody("Bob", true))

	a := createAddress(t, e, key, tok, addressBody("A", true))
	e.Advance(time.Second)
	b := createAddress(t, e, key, tok, addressBody("B", false))
	e.Advance(time.Second)
	if d := defaults(listAddresses(t, e, key, tok)); len(d) != 1 || d[0] != a {
		t.Fatalf("got defaults %v, want [%s]", d, a)
	}
	c := createAddress(t, e, key, tok, addressBody("C", true))
	l := listAddresses(t, e, key, tok)
	if d := defaults(l); len(d) != 1 || d[0] != c {
		t.Fatalf("got defaults %v, want [%s]", d, c)
	}
	if len(l.Items) != 3 || l.Items[0].ID != c || l.Items[1].ID != b || l.Items[2].ID != a {
		t.Fatalf("want newest first (C, B, A): %+v", l.Items)
	}
	var u addressView
	e.Do(testenv.Req{Method: "PUT", Path: pAddresses + b + "/", Key: key, Token: tok, Body: map[string]any{"is_default": true}}).Expect(t, 200, "").Decode(t, &u)
	if !u.IsDefault || u.ReceiverName != "B" {
		t.Fatalf("got %+v", u)
	}
	if d := defaults(listAddresses(t, e, key, tok)); len(d) != 1 || d[0] != b {
		t.Fatalf("got defaults %v, want [%s]", d, b)
	}
	e.Do(testenv.Req{Method: "PUT", Path: pAddresses + b + "/", Key: key, Token: tok, Body: map[string]any{"is_default": false}}).Expect(t, 200, "")
	if d := defaults(listAddresses(t, e, key, tok)); len(d) != 0 {
		t.Fatalf("got defaults %v, want none", d)
	}
	if d := defaults(listAddresses(t, e, key, other)); len(d) != 1 || d[0] != otherDefault {
		t.Fatalf("another shopper's default changed: %v", d)
	}

	t.Run("Concurrent", func(t *testing.T) {
		ids := []string{a, b, c}
		var wg sync.WaitGroup
		for i := 0; i < 12; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				e.Do(testenv.Req{Method: "PUT", Path: pAddresses + ids[i%3] + "/", Key: key, Token: tok, Body: map[string]any{"is_default": true}})
			}()
		}
		wg.Wait()
		if d := defaults(listAddresses(t, e, key, tok)); len(d) != 1 {
			t.Fatalf("got %d defaults after concurrent updates, want 1", len(d))
		}
	})
}

func TestAddressLimit(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	_, tok := e.Shopper(sid, "ada@example.com")
	for i := 0; i < 50; i++ {
		createAddress(t, e, key, tok, addressBody("A", false))
	}
	e.Do(testenv.Req{Method: "POST", Path: pAddresses, Key: key, Token: tok, Body: addressBody("A", false)}).Expect(t, 409, "conflict")
	if l := listAddresses(t, e, key, tok); len(l.Items) != 50 {
		t.Fatalf("got %d addresses, want 50", len(l.Items))
	}
}
