package web_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"strings"
	"testing"

	"storefront/testenv"
)

// oneConnection serves e's app as main does (Server.Listener) and returns a
// client that keeps one keep-alive connection to it, and its base URL.
func oneConnection(t *testing.T, e *testenv.Env) (*http.Client, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = e.App.Listener(e.Server.Listener(ln)) }()
	tr := &http.Transport{MaxConnsPerHost: 1, MaxIdleConnsPerHost: 1}
	t.Cleanup(func() { tr.CloseIdleConnections(); _ = e.App.Shutdown() })
	return &http.Client{Transport: tr}, "http://" + ln.Addr().String()
}

// getConfig sends GET config with key over client and notes in conns the
// connection it went on; it returns the status and the body.
func getConfig(t *testing.T, client *http.Client, base, key string, conns map[string]bool) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", base+site+"/config/", nil)
	req.Header.Set("X-Service-Key", key)
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
		GotConn: func(i httptrace.GotConnInfo) { conns[i.Conn.LocalAddr().String()] = true },
	}))
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, raw
}

// TestAPIKeyOnOneConnection: a connection remembers its last API key
// (app.KeyMemo), and every store change still shows at once on it: another
// store's key, a deactivated store, a rotated key, a wrong key of the same
// length. The requests go over one keep-alive connection served as main
// serves (Server.Listener).
func TestAPIKeyOnOneConnection(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sidA, keyA := e.Store("Shop A")
	_, keyB := e.Store("Shop B")
	client, base := oneConnection(t, e)
	conns := map[string]bool{}
	get := func(key string) (int, string) {
		t.Helper()
		status, raw := getConfig(t, client, base, key, conns)
		var body struct {
			Data      struct{ Subdomain string } `json:"data"`
			ErrorCode string                     `json:"error_code"`
		}
		if err := json.Unmarshal(raw, &body); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if status != 200 {
			return status, body.ErrorCode
		}
		return status, body.Data.Subdomain
	}
	want := func(what string, gotStatus int, got string, status int, w string) {
		t.Helper()
		if gotStatus != status || got != w {
			t.Fatalf("%s: got %d %s, want %d %s", what, gotStatus, got, status, w)
		}
	}
	st, got := get(keyA)
	want("A", st, got, 200, "shop-a")
	st, got = get(keyA)
	want("A again", st, got, 200, "shop-a")
	st, got = get(keyB)
	want("B after A", st, got, 200, "shop-b")
	st, got = get(keyA)
	want("A after B", st, got, 200, "shop-a")
	wrong := strings.Repeat("x", len(keyA))
	st, got = get(wrong)
	want("a wrong key as long", st, got, 401, "invalid_api_key")
	st, got = get(keyA)
	want("A after the wrong key", st, got, 200, "shop-a")
	if _, err := e.Svc.Stores.SetActive(sidA, false); err != nil {
		t.Fatal(err)
	}
	st, got = get(keyA)
	want("A deactivated", st, got, 403, "store_inactive")
	if _, err := e.Svc.Stores.SetActive(sidA, true); err != nil {
		t.Fatal(err)
	}
	st, got = get(keyA)
	want("A again active", st, got, 200, "shop-a")
	_, newKey, err := e.Svc.Stores.RotateKey(sidA)
	if err != nil {
		t.Fatal(err)
	}
	st, got = get(keyA)
	want("A's old key", st, got, 401, "invalid_api_key")
	st, got = get(newKey)
	want("A's new key", st, got, 200, "shop-a")
	if len(conns) != 1 {
		t.Fatalf("got %d connections, want 1", len(conns))
	}
}

// TestConfigOnOneConnection: GET config on a counting connection (which
// keeps its reply while the store's configuration is the same) answers the
// bytes the in-memory path answers, and a change of the configuration at
// once on the same connection.
func TestConfigOnOneConnection(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	client, base := oneConnection(t, e)
	get := func() string {
		t.Helper()
		req, _ := http.NewRequest("GET", base+site+"/config/", nil)
		req.Header.Set("X-Service-Key", key)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json; charset=utf-8" {
			t.Fatalf("got %d %q: %s", resp.StatusCode, resp.Header.Get("Content-Type"), raw)
		}
		return string(raw)
	}
	inMemory := func() string {
		t.Helper()
		return string(e.Do(testenv.Req{Method: "GET", Path: site + "/config/", Key: key}).Expect(t, 200, "").Raw)
	}
	if got, want := get(), inMemory(); got != want {
		t.Fatalf("on a connection: %s\nin memory: %s", got, want)
	}
	if got, want := get(), inMemory(); got != want { // the kept reply
		t.Fatalf("again on the connection: %s\nin memory: %s", got, want)
	}
	if _, err := e.Svc.Stores.PatchConfig(sid, []byte(`{"theme":"#123456"}`)); err != nil {
		t.Fatal(err)
	}
	got := get()
	if !strings.Contains(got, "#123456") || got != inMemory() {
		t.Fatalf("after the change: %s\nin memory: %s", got, inMemory())
	}
}

// TestConfigAlternatingOnOneConnection: two stores' keys taking turns on one
// keep-alive connection (A, B, A, B, ...) each get their own store's whole
// reply, the bytes the in-memory path answers, and a change of either
// store's configuration shows on that store's next request even when the
// other store's reply was the last one the connection kept.
func TestConfigAlternatingOnOneConnection(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sidA, keyA := e.Store("Shop A")
	sidB, keyB := e.Store("Shop B")
	client, base := oneConnection(t, e)
	conns := map[string]bool{}
	get := func(key string) string {
		t.Helper()
		status, raw := getConfig(t, client, base, key, conns)
		if status != 200 {
			t.Fatalf("got %d: %s", status, raw)
		}
		return string(raw)
	}
	inMemory := func(key string) string {
		t.Helper()
		return string(e.Do(testenv.Req{Method: "GET", Path: site + "/config/", Key: key}).Expect(t, 200, "").Raw)
	}
	check := func(what, key, sub, theme string) {
		t.Helper()
		got, want := get(key), inMemory(key)
		if got != want {
			t.Fatalf("%s on the connection: %s\nin memory: %s", what, got, want)
		}
		var body struct {
			Data struct {
				Subdomain string `json:"subdomain"`
				Theme     string `json:"theme_color"`
			} `json:"data"`
		}
		if err := json.Unmarshal([]byte(got), &body); err != nil {
			t.Fatalf("%s: %s: %v", what, got, err)
		}
		if body.Data.Subdomain != sub || (theme != "" && body.Data.Theme != theme) {
			t.Fatalf("%s: got %s %q, want %s %q", what, body.Data.Subdomain, body.Data.Theme, sub, theme)
		}
	}
	for i := 0; i < 3; i++ {
		check("A", keyA, "shop-a", "")
		check("B", keyB, "shop-b", "")
	}
	// A changes while the connection keeps B's reply, then B while it keeps A's.
	if _, err := e.Svc.Stores.PatchConfig(sidA, []byte(`{"theme_color":"#aa0001"}`)); err != nil {
		t.Fatal(err)
	}
	check("A changed", keyA, "shop-a", "#aa0001")
	check("B after A's change", keyB, "shop-b", "")
	if _, err := e.Svc.Stores.PatchConfig(sidB, []byte(`{"theme_color":"#bb0002"}`)); err != nil {
		t.Fatal(err)
	}
	check("A after B's change", keyA, "shop-a", "#aa0001")
	check("B changed", keyB, "shop-b", "#bb0002")
	// A changes between two of its own requests, B's unchanged in between.
	if _, err := e.Svc.Stores.PatchConfig(sidA, []byte(`{"theme_color":"#aa0003"}`)); err != nil {
		t.Fatal(err)
	}
	check("A changed again", keyA, "shop-a", "#aa0003")
	check("A changed again, kept", keyA, "shop-a", "#aa0003")
	check("B unchanged", keyB, "shop-b", "#bb0002")
	if len(conns) != 1 {
		t.Fatalf("got %d connections, want 1", len(conns))
	}
}

// TestConfigPipelinedOnOneConnection: the same alternation written at once
// on one raw socket (HTTP/1.1 pipelining: the server answers a request while
// the next ones wait in its read buffer) gets each store's own reply, in order.
func TestConfigPipelinedOnOneConnection(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	_, keyA := e.Store("Shop A")
	_, keyB := e.Store("Shop B")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = e.App.Listener(e.Server.Listener(ln)) }()
	t.Cleanup(func() { _ = e.App.Shutdown() })
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	keys := []string{keyA, keyB, keyA, keyB, keyB, keyA}
	var reqs strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&reqs, "GET %s/config/ HTTP/1.1\r\nHost: shop\r\nX-Service-Key: %s\r\n\r\n", site, k)
	}
	if _, err := io.WriteString(conn, reqs.String()); err != nil {
		t.Fatal(err)
	}
	rd := bufio.NewReader(conn)
	for i, k := range keys {
		resp, err := http.ReadResponse(rd, nil)
		if err != nil {
			t.Fatalf("reply %d: %v", i, err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		want := e.Do(testenv.Req{Method: "GET", Path: site + "/config/", Key: k}).Expect(t, 200, "").Raw
		if resp.StatusCode != 200 || string(raw) != string(want) {
			t.Fatalf("reply %d: got %d %s\nwant %s", i, resp.StatusCode, raw, want)
		}
	}
}
