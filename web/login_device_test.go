package web_test

import (
	"fmt"
	"sync"
	"testing"

	"storefront/testenv"
	"storefront/web"
)

// TestShopperLoginNotLockedFromElsewhere: five wrong passwords from anywhere
// used to lock a shopper out everywhere (issue 27.6). A parallel burst from
// other loopback addresses (127.0.0.x through the trusted proxy) is limited
// to ratelimit.login_failures, while the shopper's known address and device
// token keep logging in; a device token over its own budget is locked, not
// the account.
func TestShopperLoginNotLockedFromElsewhere(t *testing.T) {
	e := testenv.NewWith(t, testenv.Options{Web: web.Config{TrustedProxies: []string{"127.0.0.1"}}}).Serve()
	_, key := e.Store("Shop A")
	register(t, e, key, "ada@example.com")
	do := func(ip, password, device string) *testenv.Response {
		return e.Do(testenv.Req{Method: "POST", Path: pLogin, Key: key, Header: map[string]string{"X-Forwarded-For": ip},
			Body: map[string]string{"email": "ada@example.com", "password": password, "device_token": device}})
	}
	var first struct {
		DeviceToken string `json:"device_token"`
	}
	do("203.0.113.5", "correct horse", "").Expect(t, 200, "").Decode(t, &first)
	if first.DeviceToken == "" {
		t.Fatal("login answer without device_token")
	}
	var mu sync.Mutex
	attack, owner := map[int]int{}, map[int]int{}
	testenv.Burst(50, func(i int) {
		var r *testenv.Response
		switch {
		case i%10 == 0:
			r = do("203.0.113.5", "correct horse", "") // the known address
		case i%10 == 5:
			r = do("192.0.2.200", "correct horse", first.DeviceToken) // the device, from a new address
		default:
			r = do(fmt.Sprintf("127.0.0.%d", i+2), "wrong horse", "")
		}
		mu.Lock()
		defer mu.Unlock()
		if i%5 == 0 {
			owner[r.Status]++
		} else {
			attack[r.Status]++
		}
	})
	if owner[200] != 10 {
		t.Fatalf("the shopper's logins got %v, want 10 × 200", owner)
	}
	if attack[401] != 5 || attack[429] != 35 {
		t.Fatalf("the burst got %v, want exactly 5 checked (401) and 35 refused (429)", attack)
	}
	// an address that never logged in is limited
	do("192.0.2.201", "correct horse", "").Expect(t, 429, "rate_limited")
	t.Run("DeviceOwnBudget", func(t *testing.T) {
		for i := 0; i < 5; i++ {
			do("192.0.2.202", "wrong horse", first.DeviceToken).Expect(t, 401, "invalid_credentials")
		}
		do("192.0.2.202", "correct horse", first.DeviceToken).Expect(t, 429, "rate_limited")
		do("203.0.113.5", "correct horse", "").Expect(t, 200, "")
	})
}
