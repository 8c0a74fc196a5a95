package admin_test

import (
	"testing"
	"time"

	"storefront/app"
	"storefront/testenv"
)

func TestAdminTOTPLogin(t *testing.T) {
	e := testenv.New(t)
	secret, recovery := enrolTOTP(t, e, e.OwnerToken)
	login := func(extra map[string]string) *testenv.Response {
		body := map[string]string{"email": "owner@example.com", "password": "owner-password"}
		for k, v := range extra {
			body[k] = v
		}
		return e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Body: body})
	}
	login(nil).Expect(t, 401, "totp_required")
	login(map[string]string{"totp_code": "123456"}).Expect(t, 401, "invalid_credentials")
	code := app.TOTPCode(secret, e.Now())
	login(map[string]string{"totp_code": code}).Expect(t, 200, "")
	login(map[string]string{"totp_code": code}).Expect(t, 401, "invalid_credentials") // not twice in its window
	e.Advance(30 * time.Second)
	login(map[string]string{"totp_code": app.TOTPCode(secret, e.Now())}).Expect(t, 200, "")
	// a wrong password with a right code is still wrong
	e.Do(testenv.Req{Method: "POST", Path: api + "/auth/login/", Body: map[string]string{"email": "owner@example.com", "password": "nope-nope", "totp_code": app.TOTPCode(secret, e.Now())}}).
		Expect(t, 401, "invalid_credentials")
	t.Run("RecoveryCodeOnce", func(t *testing.T) {
		login(map[string]string{"recovery_code": recovery[3]}).Expect(t, 200, "")
		login(map[string]string{"recovery_code": recovery[3]}).Expect(t, 401, "invalid_credentials")
		var me struct {
			TOTPEnabled bool `json:"totp_enabled"`
			Left        int  `json:"recovery_codes_left"`
		}
		e.Do(testenv.Req{Method: "GET", Path: api + "/me/", Token: e.OwnerToken}).Expect(t, 200, "").Decode(t, &me)
		if !me.TOTPEnabled || me.Left != app.RecoveryCodes-1 {
			t.Fatalf("got %+v, want enabled with %d codes left", me, app.RecoveryCodes-1)
		}
	})
}

func enrolTOTP(t *testing.T, e *testenv.Env, tok string) (string, []string) {
	return e.EnrolTOTP(t, tok)
}
