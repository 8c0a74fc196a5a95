package admin_test

import (
	"strings"
	"testing"
	"time"

	"storefront/app"
	"storefront/testenv"
)

type totpEnrolment struct {
	Secret string `json:"secret"`
	URI    string `json:"otpauth_uri"`
}

// enrolTOTP enrols the admin of tok and returns the secret and recovery codes.
func enrolTOTP(t *testing.T, e *testenv.Env, tok string) (string, []string) {
	t.Helper()
	var en totpEnrolment
	e.Do(testenv.Req{Method: "POST", Path: api + "/auth/totp/", Token: tok}).Expect(t, 200, "").Decode(t, &en)
	if en.Secret == "" || !strings.HasPrefix(en.URI, "otpauth://totp/Storefront:") || !strings.Contains(en.URI, "secret="+en.Secret) {
		t.Fatalf("got enrolment %+v", en)
	}
	e.Do(testenv.Req{Method: "POST", Path: api + "/auth/totp/confirm/", Token: tok, Body: map[string]string{"code": "000000"}}).
		Expect(t, 400, "validation_failed")
	var out struct {
		RecoveryCodes []string `json:"recovery_codes"`
	}
	e.Do(testenv.Req{Method: "POST", Path: api + "/auth/totp/confirm/", Token: tok, Body: map[string]string{"code": app.TOTPCode(en.Secret, e.Now())}}).
		Expect(t, 200, "").Decode(t, &out)
	if len(out.RecoveryCodes) != app.RecoveryCodes {
		t.Fatalf("got %d recovery codes, want %d", len(out.RecoveryCodes), app.RecoveryCodes)
	}
	e.Advance(30 * time.Second) // the confirming code's step is spent
	return en.Secret, out.RecoveryCodes
}

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
