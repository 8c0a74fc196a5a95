package app

import (
	"context"
	"encoding/json"
	"strconv"
	"time"
)

// EvWebhookTest is the type of the test event the panel sends on demand.
const EvWebhookTest = "webhook.test"

// WebhookTestResult is the outcome of one test event: the endpoint's HTTP
// status, or the error when it gave no answer.
type WebhookTestResult struct {
	StatusCode int    `json:"status_code"`
	Error      string `json:"error"`
	LatencyMS  int64  `json:"latency_ms"`
}

// SendTest signs and posts a webhook.test event to one endpoint of a store
// now (subscribed or not, enabled or not), outside the outbox: nothing is
// recorded or retried. Errors: not_found (a failed post is in the result).
func (ws *WebhookService) SendTest(ctx context.Context, storeID, id uint64) (WebhookTestResult, error) {
	w, err := ws.Get(storeID, id)
	if err != nil {
		return WebhookTestResult{}, err
	}
	if ws.Sender == nil {
		return WebhookTestResult{Error: "webhook delivery is not configured on this server"}, nil
	}
	data, _ := json.Marshal(map[string]any{"endpoint_id": w.ID,
		"message": "A test event from the Storefront panel: endpoint " + strconv.FormatUint(w.ID, 10) + " is reachable."})
	now := time.Now()
	ev := &WebhookEvent{StoreID: storeID, MsgID: "msg_" + RandomHex(16), Type: EvWebhookTest, Data: data, CreatedAt: now}
	body := ev.Payload()
	req := WebhookRequest{URL: w.URL, Body: body, Headers: map[string]string{
		"Content-Type":      "application/json",
		"User-Agent":        "Storefront-Webhooks/1",
		"webhook-id":        ev.MsgID,
		"webhook-timestamp": strconv.FormatInt(now.Unix(), 10),
		"webhook-signature": SignWebhook(w.Secret, ev.MsgID, now.Unix(), body),
	}}
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	res, err := ws.Sender.Post(rctx, req)
	out := WebhookTestResult{StatusCode: res.StatusCode, LatencyMS: time.Since(now).Milliseconds()}
	if err != nil {
		out.Error = err.Error()
	}
	return out, nil
}
