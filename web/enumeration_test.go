package web_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"storefront/app"
	"storefront/testenv"
	"storefront/web"
)

// holdWrites holds a write transaction on store sid until the returned
// release is called: the store's writes (a reset's look-up, code and queued
// mail, on bbolt every write) wait behind it, while answers that need no
// write still come.
func holdWrites(t *testing.T, e *testenv.Env, sid uint64) (release func()) {
	t.Helper()
	locked, free, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		done <- e.DB.Update(func(tx app.Tx) error {
			if _, err := tx.Store(sid); err != nil { // takes the store's lock on PostgreSQL
				return err
			}
			close(locked)
			<-free
			return nil
		})
	}()
	select {
	case <-locked:
	case err := <-done:
		t.Fatalf("holding writes: %v", err)
	}
	return func() {
		close(free)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// TestForgotPasswordAnswersFirst: forgot-password answers before it looks the
// email up, stores a code or writes the mail, so a registered address is
// answered as fast as an unknown one (issue 14.5): here the store's writes
// are held (the known address's code and mail cannot be written) and the
// answer still comes, byte for byte the same as for an unknown address.
func TestForgotPasswordAnswersFirst(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	register(t, e, key, "ada@example.com")
	release := holdWrites(t, e, sid)
	forgot := func(email string) *testenv.Response {
		return e.Do(testenv.Req{Method: "POST", Path: pForgot, Key: key, Body: map[string]string{"email": email}})
	}
	known := forgot("ada@example.com").Expect(t, 200, "")
	unknown := forgot("nobody@example.com").Expect(t, 200, "")
	if !bytes.Equal(known.Raw, unknown.Raw) {
		t.Fatalf("answers differ: %s vs %s", known.Raw, unknown.Raw)
	}
	forgot("not-an-email").Expect(t, 400, "validation_failed")
	release()
	if n := len(mails(t, e, sid, "ada@example.com")); n != 2 {
		t.Fatalf("got %d mails to ada, want 2 (verification and reset)", n)
	}
	if n := len(mails(t, e, sid, "nobody@example.com")); n != 0 {
		t.Fatalf("got %d mails to an unknown address, want 0", n)
	}
	code := lastCode(t, e, sid, "ada@example.com")
	e.Do(testenv.Req{Method: "POST", Path: pReset, Key: key, Body: map[string]string{"email": "ada@example.com", "code": code, "password": "new password", "password_confirm": "new password"}}).Expect(t, 200, "")
}

// TestForgotPasswordQueueFull: at most app.ForgotQueue resets are under way;
// one more is 429 with Retry-After, for any address (nothing revealed).
func TestForgotPasswordQueueFull(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	emails := make([]string, app.ForgotQueue)
	for i := range emails {
		emails[i] = fmt.Sprintf("u%d@example.com", i)
		if _, err := e.Svc.Customers.Register(mustStore(t, e, sid), app.Registration{Email: emails[i], Password: "correct horse", PasswordConfirm: "correct horse", FirstName: "U"}); err != nil {
			t.Fatal(err)
		}
	}
	release := holdWrites(t, e, sid) // every reset under way waits, keeping its slot
	got := burst(t, e, app.ForgotQueue, func(i int) testenv.Req {
		return testenv.Req{Method: "POST", Path: pForgot, Key: key, Body: map[string]string{"email": emails[i]}}
	})
	if got[200] != app.ForgotQueue {
		t.Fatalf("got %v, want %d answered 200", got, app.ForgotQueue)
	}
	for _, email := range []string{"nobody@example.com", "u0@example.com"} {
		r := e.Do(testenv.Req{Method: "POST", Path: pForgot, Key: key, Body: map[string]string{"email": email}}).Expect(t, 429, "rate_limited")
		if r.Header.Get("Retry-After") == "" {
			t.Fatalf("429 without Retry-After: %v", r.Header)
		}
	}
	release()
	e.Svc.Customers.WaitForgotten()
	e.Do(testenv.Req{Method: "POST", Path: pForgot, Key: key, Body: map[string]string{"email": "u1@example.com"}}).Expect(t, 200, "")
	resets := 0
	for _, m := range mails(t, e, sid, "u1@example.com") { // the newest 100 mails hold both resets
		if strings.Contains(m.Subject, "Reset your password") {
			resets++
		}
	}
	if resets != 2 {
		t.Fatalf("got %d reset mails to u1, want 2", resets)
	}
}

func mustStore(t *testing.T, e *testenv.Env, sid uint64) *app.Store {
	t.Helper()
	var st *app.Store
	if err := e.DB.View(func(tx app.Tx) error {
		var err error
		st, err = tx.Store(sid)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return st
}

// TestCodesPerDay: ratelimit.codes_per_day bounds the codes mailed to one
// address in a day, forgot and resend-code together, taken before the work so
// a parallel burst gets exactly the limit; unknown addresses alike (issue 14.5).
func TestCodesPerDay(t *testing.T) {
	t.Parallel()
	e := testenv.NewWith(t, testenv.Options{Web: web.Config{CodesPerDay: 3}}).Serve()
	sid, key := e.Store("Shop A")
	_, keyB := e.Store("Shop B")
	tr := register(t, e, key, "ada@example.com")
	forgot := func(k, email string) testenv.Req {
		return testenv.Req{Method: "POST", Path: pForgot, Key: k, Body: map[string]string{"email": email}}
	}
	for _, email := range []string{"ada@example.com", "nobody@example.com"} {
		got := burst(t, e, 12, func(int) testenv.Req { return forgot(key, email) })
		if got[200] != 3 || got[429] != 9 {
			t.Fatalf("%s: got %v, want 3 answered and 9 refused", email, got)
		}
	}
	if n := len(mails(t, e, sid, "ada@example.com")); n != 4 {
		t.Fatalf("got %d mails, want 4 (verification and 3 resets)", n)
	}
	// resend-code counts on the same address's budget; another store has its own
	e.Do(testenv.Req{Method: "POST", Path: pResend, Key: key, Token: tr.AccessToken}).Expect(t, 429, "rate_limited")
	e.Do(forgot(keyB, "ada@example.com")).Expect(t, 200, "")
	e.Do(forgot(key, "bob@example.com")).Expect(t, 200, "")
	e.Advance(web.CodeDayWindow)
	tr = login(t, e, key, "ada@example.com", "correct horse") // the old token expired meanwhile
	e.Do(testenv.Req{Method: "POST", Path: pResend, Key: key, Token: tr.AccessToken}).Expect(t, 200, "")
	e.Do(forgot(key, "ada@example.com")).Expect(t, 200, "")
	// a refused request gives its slots back: five bad addresses, no 429
	for range 5 {
		e.Do(forgot(key, "not-an-email")).Expect(t, 400, "validation_failed")
	}
}

// TestLockedCodeMail: the miss that burns a code (the 5th) mails the shopper,
// for reset and verification codes (issue 14.5); earlier misses mail nothing.
func TestLockedCodeMail(t *testing.T) {
	t.Parallel()
	e := testenv.New(t)
	sid, key := e.Store("Shop A")
	tr := register(t, e, key, "ada@example.com")
	locked := func() int {
		n := 0
		for _, m := range mails(t, e, sid, "ada@example.com") {
			if strings.Contains(m.Subject, "was locked") {
				n++
			}
		}
		return n
	}
	vcode := lastCode(t, e, sid, "ada@example.com")
	for i := 0; i < app.CodeMaxTries; i++ {
		if n := locked(); n != 0 {
			t.Fatalf("after %d misses: %d lock mails, want 0", i, n)
		}
		e.Do(testenv.Req{Method: "POST", Path: pVerify, Key: key, Token: tr.AccessToken, Body: map[string]string{"code": wrongCode(vcode)}}).Expect(t, 400, "validation_failed")
	}
	ms := mails(t, e, sid, "ada@example.com")
	if locked() != 1 || !strings.Contains(ms[0].Text, "verification code was entered wrongly 5 times") {
		t.Fatalf("no lock mail for the verification code: %q", ms[0].Text)
	}
	e.Do(testenv.Req{Method: "POST", Path: pVerify, Key: key, Token: tr.AccessToken, Body: map[string]string{"code": vcode}}).Expect(t, 400, "validation_failed") // burnt

	e.Do(testenv.Req{Method: "POST", Path: pForgot, Key: key, Body: map[string]string{"email": "ada@example.com"}}).Expect(t, 200, "")
	rcode := lastCode(t, e, sid, "ada@example.com")
	for i := 0; i < app.CodeMaxTries; i++ {
		e.Do(testenv.Req{Method: "POST", Path: pReset, Key: key, Body: map[string]string{"email": "ada@example.com", "code": wrongCode(rcode), "password": "new password", "password_confirm": "new password"}}).Expect(t, 400, "validation_failed")
	}
	ms = mails(t, e, sid, "ada@example.com")
	if locked() != 2 || !strings.Contains(ms[0].Text, "password reset code was entered wrongly 5 times") {
		t.Fatalf("no lock mail for the reset code: %q", ms[0].Text)
	}
	if codeRE.MatchString(ms[0].Text) {
		t.Fatalf("the lock mail carries a code: %q", ms[0].Text)
	}
	login(t, e, key, "ada@example.com", "correct horse") // the password did not change
}
