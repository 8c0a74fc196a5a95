package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"storefront/storage/postgres/pgtest"
)

// do sends a JSON request and returns the status and body, whatever they are.
func (s *server) do(method, path, key, token string, body any) (int, []byte) {
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, s.base+path, r)
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("X-Service-Key", key)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, []byte(err.Error())
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, raw
}

// ran counts the log lines of a job done by this process.
func (s *server) ran(job string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, l := range s.logs {
		if l.Msg == "job done" && l.Job == job {
			n++
		}
	}
	return n
}

// eventually polls cond every 20ms until it holds or the deadline passes.
func eventually(t *testing.T, within time.Duration, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > within {
			t.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return time.Since(start)
}

// startCluster runs n binaries on one fresh PostgreSQL database.
func startCluster(t *testing.T, n int, extraEnv ...string) []*server {
	t.Helper()
	return startClusterOn(t, pgtest.NewDatabase(t), n, extraEnv...)
}

// startClusterOn runs n binaries on the database at url.
func startClusterOn(t *testing.T, url string, n int, extraEnv ...string) []*server {
	t.Helper()
	bin := binary(t)
	env := []string{
		"STOREFRONT_STORAGE__DRIVER=postgres",
		"STOREFRONT_STORAGE__POSTGRES__URL=" + url,
		"STOREFRONT_STORAGE__POSTGRES__MAX_CONNS=8",
		"STOREFRONT_ORDERS__EXPIRE_SCHEDULE=@every 1s",
		"STOREFRONT_LOG__LEVEL=debug",
		"STOREFRONT_HTTP__LOG_REQUESTS=false",
	}
	env = append(env, extraEnv...)
	servers := make([]*server, n)
	var wg sync.WaitGroup
	for i := range n { // together: the migrations run once, under their lock
		wg.Go(func() { servers[i] = start(t, bin, t.TempDir(), env...) })
	}
	wg.Wait()
	for _, s := range servers {
		if s == nil || s.base == "" {
			t.FailNow()
		}
	}
	return servers
}

// TestCluster runs three binaries on one PostgreSQL database, requests spread
// across them.
func TestCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real binary")
	}
	ss := startCluster(t, 3)
	var login struct {
		AccessToken string `json:"access_token"`
	}
	ss[0].call("POST", "/api/v1/admin/auth/login/", "", "", map[string]string{"email": "owner@example.com", "password": "owner-password"}, 200, &login)
	tok := login.AccessToken
	var st struct {
		ID     uint64 `json:"id"`
		APIKey string `json:"api_key"`
	}
	ss[1].call("POST", "/api/v1/admin/stores/", "", tok, map[string]string{"name": "Shared", "subdomain": "shared", "currency": "USD"}, 201, &st)
	// A new store starts with test mode off: these orders go through the sandbox.
	ss[1].call("PATCH", fmt.Sprintf("/api/v1/admin/stores/%d/payments/", st.ID), "", tok, map[string]any{"payments_live": false}, 200, nil)
	// The checkouts return to the store's front-end: its origin is listed.
	ss[1].call("PATCH", fmt.Sprintf("/api/v1/admin/stores/%d/config/", st.ID), "", tok, map[string]any{"callback_origins": []string{"https://shop.example"}}, 200, nil)
	var cat struct {
		ID uint64 `json:"id"`
	}
	ss[2].call("POST", fmt.Sprintf("/api/v1/admin/stores/%d/categories/", st.ID), "", tok, map[string]any{"name": "Mugs"}, 201, &cat)
	var p struct {
		ID   uint64 `json:"id"`
		Slug string `json:"slug"`
	}
	ss[0].call("POST", fmt.Sprintf("/api/v1/admin/stores/%d/products/", st.ID), "", tok,
		map[string]any{"name": "Last Mug", "price": "9.50", "stock": 5, "category_id": cat.ID}, 201, &p)
	// run is t.Run with the servers reporting to the subtest.
	run := func(name string, fn func(t *testing.T)) {
		t.Run(name, func(t *testing.T) {
			for _, s := range ss {
				s.t = t
			}
			fn(t)
		})
	}

	run("Operations", func(t *testing.T) {
		if status, raw := ss[0].do("GET", "/readyz", "", "", nil); status != 200 {
			t.Fatalf("readyz: %d %s", status, raw)
		}
		for range 2 { // the second from memory
			ss[1].call("GET", "/api/v1/business/website/products/", st.APIKey, "", nil, 200, nil)
		}
		status, raw := ss[1].do("GET", "/metrics", "", "", nil)
		if status != 200 || !bytes.Contains(raw, []byte("storefront_pg_pool_total_conns ")) || bytes.Contains(raw, []byte("storefront_bbolt_")) {
			t.Fatalf("metrics: %d, want the pool figures and no bbolt ones:\n%.2000s", status, raw)
		}
		if !bytes.Contains(raw, []byte("storefront_category_cache_pages ")) || bytes.Contains(raw, []byte("storefront_category_cache_pages 0\n")) {
			t.Fatalf("metrics: want the product list among the cached pages after two reads:\n%.3000s", raw)
		}
		status, raw = ss[2].do("POST", "/api/v1/admin/backups/", "", tok, nil)
		if status != 409 || !bytes.Contains(raw, []byte("pg_dump")) {
			t.Fatalf("backup on PostgreSQL: %d %s, want 409 naming pg_dump", status, raw)
		}
	})

	run("LastFiveUnits", func(t *testing.T) {
		var mu sync.Mutex
		var wg sync.WaitGroup
		statuses := map[int]int{}
		var acked []uint64
		for i := range 50 {
			wg.Go(func() {
				status, raw := ss[i%3].do("POST", "/api/v1/business/website/payment/initiate/", st.APIKey, "", map[string]any{
					"receiver_name": "Buyer", "phone": "+15550100", "address": "1 Loop Rd", "email": fmt.Sprintf("b%d@example.com", i),
					"delivery_fee": "0.00", "currency": "USD", "payment_method": "WALLET_A", "callback_url": "https://shop.example/cb",
					"items": []map[string]any{{"product_id": p.ID, "unit_price": "9.50", "quantity": 1}},
				})
				var env struct {
					Data struct {
						OrderID uint64 `json:"order_id"`
					} `json:"data"`
				}
				_ = json.Unmarshal(raw, &env)
				mu.Lock()
				defer mu.Unlock()
				statuses[status]++
				if status == 200 {
					acked = append(acked, env.Data.OrderID)
				}
			})
		}
		wg.Wait()
		if statuses[200] != 5 || statuses[500] != 0 || statuses[0] != 0 {
			t.Fatalf("statuses %v: want exactly 5 orders (200), the rest refused, none failing", statuses)
		}
		for i, s := range ss {
			var prod struct {
				Stock int64 `json:"stock"`
			}
			s.call("GET", "/api/v1/business/website/products/"+p.Slug+"/", st.APIKey, "", nil, 200, &prod)
			if prod.Stock != 0 {
				t.Fatalf("process %d: stock %d, want 0", i, prod.Stock)
			}
		}
	})

	run("CatalogChangeEverywhereWithinASecond", func(t *testing.T) {
		// the category page and, on PostgreSQL, the product list are cached alike
		pages := []string{fmt.Sprintf("/api/v1/business/website/categories/%d/products/", cat.ID),
			fmt.Sprintf("/api/v1/business/website/products/?category_id=%d", cat.ID)}
		pagePrice := func(s *server, path string) string {
			var page struct {
				Products []struct {
					Price string `json:"price"`
				} `json:"products"`
				Items []struct {
					Price string `json:"price"`
				} `json:"items"`
			}
			status, raw := s.do("GET", path, st.APIKey, "", nil)
			if status != 200 {
				t.Fatalf("GET %s: %d %s", path, status, raw)
			}
			var env struct {
				Data json.RawMessage `json:"data"`
			}
			_ = json.Unmarshal(raw, &env)
			_ = json.Unmarshal(env.Data, &page)
			items := page.Items
			if len(items) == 0 {
				items = page.Products
			}
			if len(items) == 0 {
				t.Fatalf("GET %s: no product in %s", path, raw)
			}
			return items[0].Price
		}
		price := func(s *server) string { // both pages', when they agree
			a, b := pagePrice(s, pages[0]), pagePrice(s, pages[1])
			if a != b {
				return a + " (category page), " + b + " (list)"
			}
			return a
		}
		detail := "/api/v1/business/website/products/" + p.Slug + "/"
		detailPrice := func(s *server) string {
			var prod struct {
				Price string `json:"price"`
			}
			s.call("GET", detail, st.APIKey, "", nil, 200, &prod)
			return prod.Price
		}
		for _, s := range ss { // every process caches the page and the detail
			if got, gotDetail := price(s), detailPrice(s); got != "9.50" || gotDetail != "9.50" {
				t.Fatalf("price %s, detail %s, want 9.50", got, gotDetail)
			}
		}
		ss[0].call("PATCH", fmt.Sprintf("/api/v1/admin/stores/%d/products/%d/", st.ID, p.ID), "", tok, map[string]any{"price": "7.25"}, 200, nil)
		if got, gotDetail := price(ss[0]), detailPrice(ss[0]); got != "7.25" || gotDetail != "7.25" { // at once on the process that wrote
			t.Fatalf("process 0's price %s, detail %s right after its own edit, want 7.25", got, gotDetail)
		}
		for i, s := range ss {
			d := eventually(t, time.Second, fmt.Sprintf("process %d shows the new price", i), func() bool { return price(s) == "7.25" })
			t.Logf("process %d: new price after %s", i, d.Round(time.Millisecond))
			d = eventually(t, time.Second, fmt.Sprintf("process %d's detail shows the new price", i), func() bool { return detailPrice(s) == "7.25" })
			t.Logf("process %d: new price in the detail after %s", i, d.Round(time.Millisecond))
		}
		// deactivated on one process: the detail is gone on every one
		ss[1].call("PATCH", fmt.Sprintf("/api/v1/admin/stores/%d/products/%d/", st.ID, p.ID), "", tok, map[string]any{"is_active": false}, 200, nil)
		if status, _ := ss[1].do("GET", detail, st.APIKey, "", nil); status != 404 {
			t.Fatalf("process 1's detail %d right after its own deactivation, want 404", status)
		}
		for i, s := range ss {
			d := eventually(t, time.Second, fmt.Sprintf("process %d hides the deactivated product", i), func() bool {
				status, _ := s.do("GET", detail, st.APIKey, "", nil)
				return status == 404
			})
			t.Logf("process %d: detail 404 after %s", i, d.Round(time.Millisecond))
		}
	})

	run("RefreshTokenReuseAcrossProcesses", func(t *testing.T) {
		type tokens struct {
			AccessToken  string `json:"access_token"`
			RefreshToken string `json:"refresh_token"`
		}
		var reg tokens
		ss[0].call("POST", "/api/v1/customer/auth/register/", st.APIKey, "", map[string]any{"email": "ada@example.com", "password": "correct horse",
			"password_confirm": "correct horse", "first_name": "Ada", "last_name": "Lovelace", "phone": "+1 555 0100"}, 200, &reg)
		var r1 tokens
		ss[1].call("POST", "/api/v1/customer/auth/refresh/", st.APIKey, "", map[string]string{"refresh_token": reg.RefreshToken}, 200, &r1)
		ss[2].call("GET", "/api/v1/customer/me/", st.APIKey, r1.AccessToken, nil, 200, nil)
		// The old refresh token again, on another process: reuse, the session is revoked.
		ss[2].call("POST", "/api/v1/customer/auth/refresh/", st.APIKey, "", map[string]string{"refresh_token": reg.RefreshToken}, 401, nil)
		ss[0].call("POST", "/api/v1/customer/auth/refresh/", st.APIKey, "", map[string]string{"refresh_token": r1.RefreshToken}, 401, nil)
		for i, s := range ss { // the access token of the revoked session, on every process
			eventually(t, time.Second, fmt.Sprintf("process %d refuses the revoked access token", i), func() bool {
				status, _ := s.do("GET", "/api/v1/customer/me/", st.APIKey, r1.AccessToken, nil)
				return status == 401
			})
		}
	})

	run("LoginLimitShared", func(t *testing.T) {
		// ratelimit.login_failures (5): five wrong passwords, one per process in
		// turn, then even the right one is refused on a process that saw none.
		body := map[string]string{"email": "ada@example.com", "password": "wrong horse"}
		for i := range 5 {
			if status, raw := ss[i%3].do("POST", "/api/v1/customer/auth/login/", st.APIKey, "", body); status != 401 {
				t.Fatalf("wrong password %d: %d %s, want 401", i+1, status, raw)
			}
		}
		body["password"] = "correct horse"
		for i, s := range ss {
			if status, raw := s.do("POST", "/api/v1/customer/auth/login/", st.APIKey, "", body); status != 429 {
				t.Fatalf("process %d after 5 failures: %d %s, want 429", i, status, raw)
			}
		}
	})

	run("ExpiryJobRunsOnceAndALeaderIsReplaced", func(t *testing.T) {
		var leader int = -1
		eventually(t, 10*time.Second, "one process runs the expiry job", func() bool {
			for i, s := range ss {
				if s.ran("orders.expire") > 0 {
					leader = i
					return true
				}
			}
			return false
		})
		before := ss[leader].ran("orders.expire")
		eventually(t, 10*time.Second, "the leader runs it again", func() bool { return ss[leader].ran("orders.expire") >= before+2 })
		for i, s := range ss {
			if i != leader && s.ran("orders.expire") != 0 {
				t.Fatalf("process %d ran the job too (leader %d)", i, leader)
			}
		}
		ss[leader].kill9()
		eventually(t, 15*time.Second, "another process takes the lead", func() bool {
			for i, s := range ss {
				if i != leader && s.ran("orders.expire") > 0 {
					return true
				}
			}
			return false
		})
		ss = append(ss[:leader:leader], ss[leader+1:]...)
	})

	run("Kill9LosesNoAcknowledgedOrder", func(t *testing.T) {
		var sp struct {
			ID   uint64 `json:"id"`
			Slug string `json:"slug"`
		}
		ss[0].call("POST", fmt.Sprintf("/api/v1/admin/stores/%d/products/", st.ID), "", tok, map[string]any{"name": "Plenty", "price": "1.00", "stock": 100000}, 201, &sp)
		var mu sync.Mutex
		var acked []uint64
		var wg sync.WaitGroup
		stop := make(chan struct{})
		for w := range 8 {
			wg.Go(func() {
				for {
					select {
					case <-stop:
						return
					default:
					}
					status, raw := ss[w%len(ss)].do("POST", "/api/v1/business/website/payment/initiate/", st.APIKey, "", map[string]any{
						"receiver_name": "Buyer", "phone": "+15550100", "address": "1 Loop Rd", "email": "k@example.com",
						"delivery_fee": "0.00", "currency": "USD", "payment_method": "WALLET_A", "callback_url": "https://shop.example/cb",
						"items": []map[string]any{{"product_id": sp.ID, "unit_price": "1.00", "quantity": 1}},
					})
					if status != 200 {
						if w%len(ss) == 0 {
							return // the killed process
						}
						continue
					}
					var env struct {
						Data struct {
							OrderID uint64 `json:"order_id"`
						} `json:"data"`
					}
					_ = json.Unmarshal(raw, &env)
					mu.Lock()
					acked = append(acked, env.Data.OrderID)
					mu.Unlock()
				}
			})
		}
		eventually(t, 20*time.Second, "orders flow", func() bool { mu.Lock(); defer mu.Unlock(); return len(acked) >= 40 })
		ss[0].kill9()
		time.Sleep(0) // the writers to the killed process stop on their first failure
		eventually(t, 20*time.Second, "more orders on the survivor", func() bool { mu.Lock(); defer mu.Unlock(); return len(acked) >= 60 })
		close(stop)
		wg.Wait()
		alive := ss[1]
		for _, id := range acked {
			var o struct {
				ID     uint64 `json:"id"`
				Status string `json:"status"`
			}
			alive.call("GET", fmt.Sprintf("/api/v1/admin/stores/%d/orders/%d/", st.ID, id), "", tok, nil, 200, &o)
			if o.ID != id || o.Status != "PENDING" {
				t.Fatalf("acknowledged order %d: got %+v", id, o)
			}
		}
		var prod struct {
			Stock int64 `json:"stock"`
		}
		alive.call("GET", "/api/v1/business/website/products/"+sp.Slug+"/", st.APIKey, "", nil, 200, &prod)
		if prod.Stock > int64(100000-len(acked)) {
			t.Fatalf("stock %d: more than 100000 less %d acknowledged orders", prod.Stock, len(acked))
		}
		t.Logf("%d acknowledged orders survived the kill -9", len(acked))
	})
}
