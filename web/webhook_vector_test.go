package web_test

import (
	"encoding/json"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"storefront/app"
	"storefront/testenv"
)

// webhookVector is a delivery signed by the server's code, kept in
// clients/typescript/test/webhook-vector.json: the SDK's test checks that
// its verifyWebhook accepts it (and rejects it altered), so the two
// implementations of Standard Webhooks cannot drift apart.
type webhookVector struct {
	Secret    string `json:"secret"`
	ID        string `json:"id"`
	Timestamp int64  `json:"timestamp"`
	Body      string `json:"body"`
	Signature string `json:"signature"`
}

// TestWebhookSignatureVector: the checked-in vector is what app.SignWebhook
// and WebhookEvent.Payload produce, and the payload matches the document.
func TestWebhookSignatureVector(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)
	ev := &app.WebhookEvent{StoreID: 1, MsgID: "msg_0123456789abcdef0123456789abcdef", Type: app.EvProductLowStock, CreatedAt: at,
		Data: json.RawMessage(`{"product":{"id":7,"name":"Red shoe","slug":"red-shoe","stock":2,"low_stock_threshold":3}}`)}
	body := ev.Payload()
	secret := "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	ts := at.Unix() + 5
	want := webhookVector{Secret: secret, ID: ev.MsgID, Timestamp: ts, Body: string(body), Signature: app.SignWebhook(secret, ev.MsgID, ts, body)}
	h := http.Header{}
	h.Set("webhook-id", want.ID)
	h.Set("webhook-timestamp", strconv.FormatInt(ts, 10))
	h.Set("webhook-signature", want.Signature)
	if msg := testenv.ValidateWebhook(h, body); msg != "" {
		t.Fatal(msg)
	}
	// and the check does catch a payload off the document
	bad := []byte(`{"id":"msg_0123456789abcdef0123456789abcdef","type":"product.low_stock","timestamp":"2026-11-27T08:00:00Z","store_id":1,"data":{"product":{"id":7}}}`)
	if msg := testenv.ValidateWebhook(h, bad); !strings.Contains(msg, "slug") {
		t.Fatalf("a payload without product.slug: got %q, want a mismatch naming slug", msg)
	}
	h2 := h.Clone()
	h2.Del("webhook-signature")
	if msg := testenv.ValidateWebhook(h2, body); !strings.Contains(msg, "webhook-signature") {
		t.Fatalf("no webhook-signature: got %q", msg)
	}
	if !testenv.VerifyStandardWebhook(secret, want.ID, strconv.FormatInt(ts, 10), want.Signature, body) {
		t.Fatal("the test receivers' verifier rejects the vector")
	}
	raw, err := os.ReadFile("../clients/typescript/test/webhook-vector.json")
	var got webhookVector
	if err == nil {
		err = json.Unmarshal(raw, &got)
	}
	if err != nil || got != want {
		exp, _ := json.MarshalIndent(want, "", "  ")
		t.Fatalf("clients/typescript/test/webhook-vector.json: got %+v (%v), want:\n%s", got, err, exp)
	}
}
