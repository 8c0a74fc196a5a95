package admin_test

import (
	"fmt"
	"sync"
	"testing"

	"storefront/testenv"
)

type adminLogin struct {
	AccessToken string `json:"access_token"`
	DeviceToken string `json:"device_token"`
}

func loginBody(password, device string) map[string]string {
	return map[string]string{"email": "owner@example.com", "password": password, "device_token": device}
}

// TestAdminDeviceTokenBurst: a parallel burst of wrong passwords from other
// loopback addresses (127.0.0.x through the trusted proxy) does not lock out
// the owner's device token or known address, logging in at the same time;
// the burst itself is limited to ratelimit.login_failures (issue 27.6).
func TestAdminDeviceTokenBurst(t *testing.T) {
	e, pass := served(t)
	var first adminLogin
	e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Header: from("203.0.113.5"), Body: loginBody("owner-password", "")}).
		Expect(t, 200, "").Decode(t, &first)
	if first.DeviceToken == "" {
		t.Fatal("login answer without device_token")
	}
	before := pass.Checks()
	var mu sync.Mutex
	attack, owner := map[int]int{}, map[int]int{}
	testenv.Burst(60, func(i int) {
		if i%10 == 0 { // the owner: with the device token from a new address, or from the known address
			body, ip := loginBody("owner-password", first.DeviceToken), "192.0.2.200"
			if i%20 == 0 {
				body, ip = loginBody("owner-password", ""), "203.0.113.5"
			}
			r := e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Header: from(ip), Body: body})
			mu.Lock()
			owner[r.Status]++
			mu.Unlock()
			return
		}
		r := e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Header: from(fmt.Sprintf("127.0.0.%d", i+2)), Body: loginBody("wrong-password", "")})
		mu.Lock()
		attack[r.Status]++
		mu.Unlock()
	})
	if owner[200] != 6 {
		t.Fatalf("owner logins got %v, want 6 × 200", owner)
	}
	if attack[401] != 5 || attack[429] != 49 {
		t.Fatalf("attack got %v, want exactly 5 checked (401) and 49 refused (429)", attack)
	}
	if n := pass.Checks() - before; n != 11 {
		t.Fatalf("got %d password checks, want 11 (6 owner, 5 attack)", n)
	}
	// an unknown address without the token is limited
	e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Header: from("192.0.2.201"), Body: loginBody("owner-password", "")}).Expect(t, 429, "rate_limited")
}

// TestAdminDeviceTokenOwnBudget: a device token that fails its own budget is
// locked out itself, not the account; a token of no use is ignored.
func TestAdminDeviceTokenOwnBudget(t *testing.T) {
	e, _ := served(t)
	var first adminLogin
	e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Header: from("203.0.113.5"), Body: loginBody("owner-password", "")}).
		Expect(t, 200, "").Decode(t, &first)
	for i := 0; i < 5; i++ {
		e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Header: from("192.0.2.7"), Body: loginBody("wrong-password", first.DeviceToken)}).
			Expect(t, 401, "invalid_credentials")
	}
	e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Header: from("192.0.2.7"), Body: loginBody("owner-password", first.DeviceToken)}).
		Expect(t, 429, "rate_limited")
	// the account is not locked: the known address, and the unknown one without the token
	e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Header: from("203.0.113.5"), Body: loginBody("owner-password", "")}).Expect(t, 200, "")
	e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Header: from("192.0.2.8"), Body: loginBody("owner-password", "")}).Expect(t, 200, "")
	t.Run("ErrForeignToken", func(t *testing.T) {
		// a device token of a shopper or a garbage one counts as none
		for _, tok := range []string{"garbage", e.OwnerToken} {
			e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Header: from("192.0.2.9"), Body: loginBody("owner-password", tok)}).Expect(t, 200, "")
		}
	})
}
