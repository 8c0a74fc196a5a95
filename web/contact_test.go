package web_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"storefront/testenv"
	"storefront/web"
)

func TestSubmitContact(t *testing.T) {
	t.Parallel()
	e := rvEnv(t)
	_, key := e.Store("Shop A")
	tooMany := map[string]string{}
	for i := 0; i < 21; i++ {
		tooMany[fmt.Sprint("k", i)] = "v"
	}
	valid := func(change func(m map[string]any)) map[string]any {
		m := map[string]any{"name": "Ann", "email": "ann@example.com", "phone": "+1 555 0100", "subject": "Hello", "message": "Do you ship abroad?",
			"metadata": map[string]string{"page": "/contact", "utm_source": "mail"}}
		if change != nil {
			change(m)
		}
		return m
	}
	t.Run("OK", func(t *testing.T) {
		var got map[string]any
		e.Do(testenv.Req{Method: "POST", Path: rvWeb + "/contact/", Key: key, Body: valid(nil)}).Expect(t, 200, "").Decode(t, &got)
		if got["id"] != 1.0 || got["is_read"] != false || got["created_at"] != "2026-11-21T10:00:00Z" || got["email"] != "ann@example.com" || got["name"] != "Ann" {
			t.Fatalf("got %v", got)
		}
		if md, _ := got["metadata"].(map[string]any); md["page"] != "/contact" || len(md) != 2 {
			t.Fatalf("got metadata %v", got["metadata"])
		}
		for _, f := range []string{"phone", "subject", "message"} {
			if _, present := got[f]; !present {
				t.Fatalf("got %v, want %s", got, f)
			}
		}
	})
	t.Run("OKMinimal", func(t *testing.T) {
		var got map[string]any
		e.Do(testenv.Req{Method: "POST", Path: rvWeb + "/contact/", Key: key, Body: map[string]any{"name": "Bo", "email": "bo@example.com", "message": "Hi"}}).Expect(t, 200, "").Decode(t, &got)
		if got["id"] != 2.0 || got["metadata"] == nil {
			t.Fatalf("got %v, want id 2 and metadata {}", got)
		}
	})
	for _, tc := range []struct {
		name  string
		key   string
		body  any
		field string
	}{
		{"ErrNameMissing", key, valid(func(m map[string]any) { delete(m, "name") }), "name"},
		{"ErrNameLong", key, valid(func(m map[string]any) { m["name"] = strings.Repeat("n", 101) }), "name"},
		{"ErrEmailMissing", key, valid(func(m map[string]any) { delete(m, "email") }), "email"},
		{"ErrEmailFormat", key, valid(func(m map[string]any) { m["email"] = "ann@" }), "email"},
		{"ErrEmailDisplayName", key, valid(func(m map[string]any) { m["email"] = "Ann <ann@example.com>" }), "email"},
		{"ErrPhoneLong", key, valid(func(m map[string]any) { m["phone"] = strings.Repeat("1", 33) }), "phone"},
		{"ErrSubjectLong", key, valid(func(m map[string]any) { m["subject"] = strings.Repeat("s", 201) }), "subject"},
		{"ErrMessageMissing", key, valid(func(m map[string]any) { m["message"] = "" }), "message"},
		{"ErrMessageLong", key, valid(func(m map[string]any) { m["message"] = strings.Repeat("m", 5001) }), "message"},
		{"ErrMetadataMany", key, valid(func(m map[string]any) { m["metadata"] = tooMany }), "metadata"},
		{"ErrMetadataNotString", key, valid(func(m map[string]any) { m["metadata"] = map[string]any{"n": 5} }), ""},
		{"ErrMetadataNotObject", key, valid(func(m map[string]any) { m["metadata"] = []string{"a"} }), "metadata"},
		{"ErrMetadataValueLong", key, valid(func(m map[string]any) { m["metadata"] = map[string]string{"k": strings.Repeat("v", 501)} }), "metadata.k"},
		{"ErrMetadataKeyLong", key, valid(func(m map[string]any) { m["metadata"] = map[string]string{strings.Repeat("k", 65): "v"} }), "metadata"},
		{"ErrMalformed", key, `{"name":"x",`, "body"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.Do(testenv.Req{Method: "POST", Path: rvWeb + "/contact/", Key: tc.key, Body: tc.body}).Expect(t, 400, "validation_failed")
			if tc.field != "" && r.Body.Errors[tc.field] == "" {
				t.Fatalf("got errors %v, want one for %s", r.Body.Errors, tc.field)
			}
		})
	}
	t.Run("ErrNoKey", func(t *testing.T) {
		e.Do(testenv.Req{Method: "POST", Path: rvWeb + "/contact/", Body: valid(nil)}).Expect(t, 401, "invalid_api_key")
	})
}

func TestContactRateLimit(t *testing.T) {
	t.Parallel()
	const perMinute = 3
	e := rvEnv(t, testenv.Options{Web: web.Config{ContactPerMinute: perMinute}})
	_, key := e.Store("Shop A")
	body := map[string]any{"name": "Ann", "email": "ann@example.com", "message": "Hi"}
	for i := 0; i < perMinute; i++ {
		e.Do(testenv.Req{Method: "POST", Path: rvWeb + "/contact/", Key: key, Body: body}).Expect(t, 200, "")
	}
	r := e.Do(testenv.Req{Method: "POST", Path: rvWeb + "/contact/", Key: key, Body: body}).Expect(t, 429, "rate_limited")
	if secs, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || secs < 1 || secs > 60 {
		t.Fatalf("got Retry-After %q, want 1..60 seconds", r.Header.Get("Retry-After"))
	}
	// invalid attempts count too, and the limit is only on the contact form
	e.Do(testenv.Req{Method: "POST", Path: rvWeb + "/contact/", Key: key, Body: map[string]any{}}).Expect(t, 429, "rate_limited")
	e.Do(testenv.Req{Method: "GET", Path: rvWeb + "/reviews/store/", Key: key}).Expect(t, 200, "")
}

// Behind a trusted proxy the limit keys on the right-most untrusted address of
// X-Forwarded-For: a client writing its own left part gets no fresh budget.
func TestContactLimitBehindProxy(t *testing.T) {
	t.Parallel()
	e := testenv.NewWith(t, testenv.Options{Web: web.Config{ContactPerMinute: 2, TrustedProxies: []string{"0.0.0.0", "10.0.0.0/8"}}})
	_, key := e.Store("Shop A")
	body := map[string]any{"name": "Ada", "email": "ada@example.com", "subject": "Hi", "message": "Hello there"}
	for i := 0; i < 3; i++ {
		r := e.Do(testenv.Req{Method: "POST", Path: "/api/v1/business/website/contact/", Key: key, Body: body,
			Header: map[string]string{"X-Forwarded-For": fmt.Sprintf("203.0.113.%d, 198.51.100.7, 10.0.0.1", i)}})
		if i < 2 {
			r.Expect(t, 200, "")
		} else {
			r.Expect(t, 429, "rate_limited")
		}
	}
	// another real client has its own budget
	e.Do(testenv.Req{Method: "POST", Path: "/api/v1/business/website/contact/", Key: key, Body: body,
		Header: map[string]string{"X-Forwarded-For": "198.51.100.8"}}).Expect(t, 200, "")
}
