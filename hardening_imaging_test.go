package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// adminCall is one JSON call of the admin API that must succeed; out gets the
// envelope's data.
func adminCall(t *testing.T, base, method, path, tok string, body, out any) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, base+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil || resp.StatusCode/100 != 2 {
		t.Fatalf("%s %s: %d %v", method, path, resp.StatusCode, err)
	}
	if out != nil {
		json.Unmarshal(env.Data, out)
	}
}

// postFile posts data as the multipart field file and returns the status and
// the body.
func postFile(url, tok, name string, data []byte) (int, string) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write(data)
	mw.Close()
	req, _ := http.NewRequest("POST", url, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestImageDecodesBoundedMemory (issue 38 point 3): eight parallel 7000x7000
// RGBA PNGs and then ten 16-bit 50 MP PNGs, each a few hundred KB, uploaded
// by a staff account keep the binary under 300 MB of resident memory, while
// other requests are answered; an image that does not fit the budget is
// refused with a code that says so. Before: 812 MB for the eight.
func TestImageDecodesBoundedMemory(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the binary")
	}
	p := startBinary(t, cleanEnviron(testEnviron(t.TempDir(), "STOREFRONT_LOG__FORMAT=json",
		"STOREFRONT_ADMIN__EMAIL=owner@example.com", "STOREFRONT_ADMIN__PASSWORD=owner-password",
		"STOREFRONT_RATELIMIT__API_PER_SECOND=0")...))
	base := "http://" + p.addr
	var login struct {
		AccessToken string `json:"access_token"`
	}
	adminCall(t, base, "POST", "/api/v1/admin/auth/login/", "", map[string]string{"email": "owner@example.com", "password": "owner-password"}, &login)
	var st, cat, prod struct {
		ID uint64 `json:"id"`
	}
	adminCall(t, base, "POST", "/api/v1/admin/stores/", login.AccessToken, map[string]string{"name": "Up", "subdomain": "up", "currency": "USD"}, &st)
	adminCall(t, base, "POST", "/api/v1/admin/users/", login.AccessToken, map[string]any{"email": "staff@example.com", "password": "staff-password", "role": "staff", "store_id": st.ID}, nil)
	adminCall(t, base, "POST", fmt.Sprintf("/api/v1/admin/stores/%d/categories/", st.ID), login.AccessToken, map[string]any{"name": "C"}, &cat)
	adminCall(t, base, "POST", fmt.Sprintf("/api/v1/admin/stores/%d/products/", st.ID), login.AccessToken, map[string]any{"name": "P", "price": "1.00", "stock": 1, "category_id": cat.ID}, &prod)
	adminCall(t, base, "POST", "/api/v1/admin/auth/login/", "", map[string]string{"email": "staff@example.com", "password": "staff-password"}, &login)
	images := fmt.Sprintf("%s/api/v1/admin/stores/%d/products/%d/images/", base, st.ID, prod.ID)

	var served, slow atomic.Int64
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		client := &http.Client{Timeout: 2 * time.Second}
		for {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
			req, _ := http.NewRequest("GET", fmt.Sprintf("%s/api/v1/admin/stores/%d/products/%d/", base, st.ID, prod.ID), nil)
			req.Header.Set("Authorization", "Bearer "+login.AccessToken)
			resp, err := client.Do(req)
			if err != nil || resp.StatusCode != 200 {
				slow.Add(1)
				continue
			}
			resp.Body.Close()
			served.Add(1)
		}
	}()

	upload := func(n int, png []byte) map[string]int {
		var wg sync.WaitGroup
		var mu sync.Mutex
		got := map[string]int{}
		for range n {
			wg.Go(func() {
				s, body := postFile(images, login.AccessToken, "big.png", png)
				var env struct {
					Code string `json:"error_code"`
				}
				json.Unmarshal([]byte(body), &env)
				mu.Lock()
				got[fmt.Sprintf("%d %s", s, env.Code)]++
				mu.Unlock()
			})
		}
		wg.Wait()
		return got
	}
	start := time.Now()
	rgba := upload(8, zeroPNG(7000, 7000, 8))
	took := time.Since(start)
	start = time.Now()
	fits := upload(8, zeroPNG(5000, 5000, 8))
	tookFits := time.Since(start)
	deep := upload(10, zeroPNG(7071, 7071, 16))
	close(stop)
	<-done
	peak := peakRSS(t, p.cmd.Process.Pid)
	t.Logf("7000x7000 RGBA x 8: %v in %v; 5000x5000 RGBA x 8: %v in %v; 16-bit 50 MP x 10: %v; peak RSS %d MB; %d other requests served, %d failed",
		rgba, took.Round(time.Millisecond), fits, tookFits.Round(time.Millisecond), deep, peak>>20, served.Load(), slow.Load())
	if fits["201 "] != 8 {
		t.Errorf("5000x5000 RGBA: got %v, want 8 x 201: each waits for its share of the budget", fits)
	}
	for k, n := range rgba {
		if !strings.HasPrefix(k, "201") && k != "429 rate_limited" && k != "413 payload_too_large" {
			t.Errorf("7000x7000 RGBA: %d answered %q, want 201, or 429/413 with their codes", n, k)
		}
	}
	if deep["413 payload_too_large"] != 10 {
		t.Errorf("16-bit 50 MP: got %v, want 10 x 413 payload_too_large", deep)
	}
	if peak > 300<<20 {
		t.Errorf("peak RSS %d MB, want under 300 MB", peak>>20)
	}
	if slow.Load() > 0 || served.Load() == 0 {
		t.Errorf("%d other requests failed and %d were served during the uploads, want none failed", slow.Load(), served.Load())
	}
	p.sigterm(t)
}
