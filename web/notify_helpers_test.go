package web_test

import (
	"testing"
	"time"

	"storefront/app"
	"storefront/app/webhook"
	"storefront/testenv"
)

// freshOwnerToken logs the owner in again (after the clock moved past the
// token's lifetime).
func freshOwnerToken(t *testing.T, e *testenv.Env) string {
	t.Helper()
	tok, _, _, err := e.Svc.Admins.Login("owner@example.com", "owner-password", "")
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func webhookSender(allowPrivate bool) app.WebhookSender {
	return webhook.New(2*time.Second, allowPrivate)
}
