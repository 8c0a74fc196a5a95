package app

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Webhook event types (docs/decisions.md, "Side effects").
const (
	EvOrderCreated           = "order.created"
	EvOrderPaid              = "order.paid"
	EvOrderStatusChanged     = "order.status_changed"
	EvOrderShipped           = "order.shipped"
	EvOrderCancelled         = "order.cancelled"
	EvRefundRequested        = "refund.requested"
	EvRefundDecided          = "refund.decided"
	EvCancellationRequested  = "cancellation.requested"
	EvCancellationDecided    = "cancellation.decided"
	EvReviewCreated          = "review.created"
	EvReviewModerated        = "review.moderated"
	EvTicketCreated          = "ticket.created"
	EvTicketReplied          = "ticket.replied"
	EvContactReceived        = "contact.received"
	EvProductLowStock        = "product.low_stock"
	EvWebhookEndpointTest    = "webhook.test"
	webhookSecretPrefix      = "whsec_"
	webhookSecretBytes       = 32
	webhookResponseExcerpt   = 1024
	webhookDeliveryLogLength = 20
)

// EventTypes lists every event type an endpoint may subscribe to.
var EventTypes = []string{EvOrderCreated, EvOrderPaid, EvOrderStatusChanged, EvOrderShipped, EvOrderCancelled,
	EvCancellationRequested, EvCancellationDecided, EvRefundRequested, EvRefundDecided,
	EvReviewCreated, EvReviewModerated, EvTicketCreated, EvTicketReplied, EvContactReceived, EvProductLowStock}

// WebhookSchedule is the wait before each retry of a delivery: immediately,
// then 5s, 5m, 30m, 2h, 5h, 10h, 14h, 20h, 20h (about three days in all).
var WebhookSchedule = []time.Duration{5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour,
	5 * time.Hour, 10 * time.Hour, 14 * time.Hour, 20 * time.Hour, 20 * time.Hour}

// WebhookDisableAfter: an endpoint is disabled when a delivery runs out of
// retries and nothing has succeeded at that endpoint for this long.
const WebhookDisableAfter = 60 * time.Hour

// WebhookEvent is something that happened to a store's data, recorded in the
// transaction of the change.
type WebhookEvent struct {
	ID        uint64          `json:"id"`
	StoreID   uint64          `json:"store_id"`
	MsgID     string          `json:"msg_id"` // webhook-id: msg_ + 32 hex digits
	Type      string          `json:"type"`
	Data      json.RawMessage `json:"data"`
	CreatedAt time.Time       `json:"created_at"`
}

// Payload is the JSON body delivered to endpoints.
func (e *WebhookEvent) Payload() []byte {
	b, _ := json.Marshal(struct {
		ID        string          `json:"id"`
		Type      string          `json:"type"`
		Timestamp time.Time       `json:"timestamp"`
		StoreID   uint64          `json:"store_id"`
		Data      json.RawMessage `json:"data"`
	}{e.MsgID, e.Type, UTC(e.CreatedAt), e.StoreID, e.Data})
	return b
}

// WebhookEndpoint is a URL of the store that receives signed events.
type WebhookEndpoint struct {
	ID             uint64    `json:"id"`
	StoreID        uint64    `json:"store_id"`
	URL            string    `json:"url"`
	Description    string    `json:"description"`
	Events         []string  `json:"events"`
	Secret         string    `json:"secret"` // whsec_ + base64; needed to sign, never shown after creation
	Enabled        bool      `json:"enabled"`
	DisabledReason string    `json:"disabled_reason"`
	FailingSince   time.Time `json:"failing_since,omitzero"` // first failure since the last success
	CreatedAt      time.Time `json:"created_at"`
	UpdatedAt      time.Time `json:"updated_at"`
}

// Wants reports whether the endpoint receives events of type t.
func (w *WebhookEndpoint) Wants(t string) bool {
	return w.Enabled && slices.Contains(w.Events, t)
}

// Delivery statuses.
const (
	DeliveryPending   = "pending"
	DeliverySucceeded = "succeeded"
	DeliveryFailed    = "failed"
)

// WebhookAttempt is one try of a delivery, kept in its log.
type WebhookAttempt struct {
	At         time.Time `json:"at"`
	StatusCode int       `json:"status_code"` // 0: no HTTP answer
	LatencyMS  int64     `json:"latency_ms"`
	Response   string    `json:"response"` // first 1 KiB of the body
	Error      string    `json:"error"`
}

// WebhookDelivery is one event to one endpoint.
type WebhookDelivery struct {
	ID         uint64           `json:"id"`
	StoreID    uint64           `json:"store_id"`
	EndpointID uint64           `json:"endpoint_id"`
	EventID    uint64           `json:"event_id"`
	MsgID      string           `json:"msg_id"`
	Type       string           `json:"type"`
	Status     string           `json:"status"`
	Attempts   int              `json:"attempts"`
	NextAt     time.Time        `json:"next_attempt_at,omitzero"`
	Log        []WebhookAttempt `json:"log"`
	CreatedAt  time.Time        `json:"created_at"`
	UpdatedAt  time.Time        `json:"updated_at"`
}

// WebhookTx is the storage of events, endpoints and deliveries.
type WebhookTx interface {
	// AddWebhookEvent stores e with a new id.
	AddWebhookEvent(e *WebhookEvent) error
	// WebhookEvent returns one event (not_found).
	WebhookEvent(storeID, id uint64) (*WebhookEvent, error)
	// PutWebhookEndpoint creates (ID 0) or updates an endpoint.
	PutWebhookEndpoint(w *WebhookEndpoint) error
	// WebhookEndpoint returns one endpoint (not_found).
	WebhookEndpoint(storeID, id uint64) (*WebhookEndpoint, error)
	// WebhookEndpoints lists a store's endpoints by id.
	WebhookEndpoints(storeID uint64) ([]*WebhookEndpoint, error)
	// DeleteWebhookEndpoint removes an endpoint and its deliveries (not_found).
	DeleteWebhookEndpoint(storeID, id uint64) error
	// PutWebhookDelivery creates (ID 0) or updates a delivery and its due index.
	PutWebhookDelivery(d *WebhookDelivery) error
	// WebhookDelivery returns one delivery (not_found).
	WebhookDelivery(storeID, id uint64) (*WebhookDelivery, error)
	// WebhookDeliveries pages an endpoint's deliveries, newest first.
	WebhookDeliveries(storeID, endpointID uint64, lp ListParams) (Page[*WebhookDelivery], error)
	// DueWebhookDeliveries returns up to limit pending deliveries of every
	// store due at or before now, soonest first.
	DueWebhookDeliveries(now time.Time, limit int) ([]*WebhookDelivery, error)
	// ClaimDueWebhookDeliveries leases to l up to limit pending deliveries
	// of every store due at or before now whose lease is free at now,
	// soonest first (as ClaimDueMail).
	ClaimDueWebhookDeliveries(now time.Time, l Lease, limit int) ([]*WebhookDelivery, error)
	// EndDeliveryLease ends claimant's lease on a delivery (as EndMailLease).
	EndDeliveryLease(storeID, id uint64, claimant string) error
	// PullWebhookRetries makes every pending delivery of an endpoint that is
	// due after now due at now (its retries, after a success), and returns
	// how many it moved.
	PullWebhookRetries(storeID, endpointID uint64, now time.Time) (int, error)
}

// NewWebhookSecret returns a fresh signing secret in the Standard Webhooks
// form: whsec_ + base64 of 32 random bytes.
func NewWebhookSecret() string {
	b := make([]byte, webhookSecretBytes)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return webhookSecretPrefix + base64.StdEncoding.EncodeToString(b)
}

// SignWebhook returns the webhook-signature header value of a message:
// "v1," + base64 HMAC-SHA256 over "id.timestamp.body" keyed with the
// base64-decoded part of the secret after whsec_.
func SignWebhook(secret, msgID string, ts int64, body []byte) string {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, webhookSecretPrefix))
	if err != nil {
		key = []byte(secret)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(msgID + "." + strconv.FormatInt(ts, 10) + "."))
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// WebhookRequest is one signed POST to an endpoint.
type WebhookRequest struct {
	URL     string
	Headers map[string]string
	Body    []byte
}

// WebhookResult is what the endpoint answered.
type WebhookResult struct {
	StatusCode int    // 0: no HTTP answer (err is set)
	Body       string // at most 1 KiB
}

// WebhookSender posts webhooks (app/webhook: timeouts, no redirects, no
// private targets unless allowed).
type WebhookSender interface {
	Post(ctx context.Context, r WebhookRequest) (WebhookResult, error)
	// CheckURL reports a URL that can never be delivered to (validation_failed).
	CheckURL(u string) error
}

// WebhookInput creates or changes an endpoint; nil fields stay as they are.
type WebhookInput struct {
	URL         *string   `json:"url"`
	Description *string   `json:"description"`
	Events      *[]string `json:"events"`
	Enabled     *bool     `json:"enabled"`
}

// WebhookService manages endpoints and redelivery.
type WebhookService struct {
	db     Scope[webhookData]
	s      mailDeps
	Sender WebhookSender // set by main/testenv; nil: URLs are only parsed
}

func newWebhookService(d mailDeps) *WebhookService {
	return &WebhookService{db: scopeOf(d.DB, func(tx Tx) webhookData { return tx }), s: d}
}

// Webhook limits.
const MaxWebhookEndpoints = 20

func (ws *WebhookService) apply(w *WebhookEndpoint, in WebhookInput) error {
	var v Validation
	if in.URL != nil {
		w.URL = strings.TrimSpace(*in.URL)
	}
	if in.Description != nil {
		w.Description = strings.TrimSpace(*in.Description)
	}
	if in.Events != nil {
		w.Events = []string{}
		for i, t := range *in.Events {
			if !slices.Contains(EventTypes, t) {
				v.Add("events["+itoa(i)+"]", "unknown event type; known: "+strings.Join(EventTypes, ", "))
			} else if !slices.Contains(w.Events, t) {
				w.Events = append(w.Events, t)
			}
		}
	}
	if in.Enabled != nil {
		w.Enabled = *in.Enabled
		if w.Enabled {
			w.DisabledReason, w.FailingSince = "", time.Time{}
		} else if w.DisabledReason == "" {
			w.DisabledReason = "disabled by an admin"
		}
	}
	u, err := url.Parse(w.URL)
	switch {
	case w.URL == "":
		v.Add("url", "is required")
	case err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil || len(w.URL) > 2000:
		v.Add("url", "must be an absolute http or https URL without credentials")
	case ws.Sender != nil:
		if err := ws.Sender.CheckURL(w.URL); err != nil {
			v.Add("url", ErrorMessage(err))
		}
	}
	v.Check(len(w.Events) > 0, "events", "name at least one event type")
	v.Text("description", w.Description, false, 200)
	return v.Err()
}

// Create adds an endpoint with a new secret, shown only in this answer.
// Errors: validation_failed, not_found (store), conflict (too many).
func (ws *WebhookService) Create(storeID uint64, in WebhookInput) (*WebhookEndpoint, error) {
	w := &WebhookEndpoint{StoreID: storeID, Enabled: true, Secret: NewWebhookSecret()}
	if in.Enabled != nil && !*in.Enabled {
		w.DisabledReason = "disabled by an admin"
	}
	err := ws.db.Update(func(tx webhookData) error {
		if _, err := tx.Store(storeID); err != nil {
			return err
		}
		if err := ws.apply(w, in); err != nil {
			return err
		}
		all, err := tx.WebhookEndpoints(storeID)
		if err != nil {
			return err
		}
		if len(all) >= MaxWebhookEndpoints {
			return Errorf(EConflict, "a store may have at most %d webhook endpoints", MaxWebhookEndpoints)
		}
		w.CreatedAt, w.UpdatedAt = UTC(tx.Now()), UTC(tx.Now())
		return tx.PutWebhookEndpoint(w)
	})
	return w, err
}

// Update changes an endpoint. Errors: validation_failed, not_found.
func (ws *WebhookService) Update(storeID, id uint64, in WebhookInput) (*WebhookEndpoint, error) {
	var w *WebhookEndpoint
	err := ws.db.Update(func(tx webhookData) error {
		var err error
		if w, err = tx.WebhookEndpoint(storeID, id); err != nil {
			return err
		}
		if err := ws.apply(w, in); err != nil {
			return err
		}
		w.UpdatedAt = UTC(tx.Now())
		return tx.PutWebhookEndpoint(w)
	})
	return w, err
}

// Delete removes an endpoint and its deliveries. Errors: not_found.
func (ws *WebhookService) Delete(storeID, id uint64) error {
	return ws.db.Update(func(tx webhookData) error { return tx.DeleteWebhookEndpoint(storeID, id) })
}

// Get returns one endpoint. Errors: not_found.
func (ws *WebhookService) Get(storeID, id uint64) (*WebhookEndpoint, error) {
	return view(ws.db, func(tx webhookData) (*WebhookEndpoint, error) { return tx.WebhookEndpoint(storeID, id) })
}

// List returns a store's endpoints.
func (ws *WebhookService) List(storeID uint64) ([]*WebhookEndpoint, error) {
	return view(ws.db, func(tx webhookData) ([]*WebhookEndpoint, error) { return tx.WebhookEndpoints(storeID) })
}

// Deliveries pages an endpoint's deliveries, newest first. Errors: not_found.
func (ws *WebhookService) Deliveries(storeID, id uint64, lp ListParams) (Page[*WebhookDelivery], error) {
	return view(ws.db, func(tx webhookData) (Page[*WebhookDelivery], error) {
		if _, err := tx.WebhookEndpoint(storeID, id); err != nil {
			return Page[*WebhookDelivery]{}, err
		}
		return tx.WebhookDeliveries(storeID, id, lp)
	})
}

// Redeliver queues a delivery again, due now, whatever its status (admin).
// Errors: not_found.
func (ws *WebhookService) Redeliver(storeID, endpointID, id uint64) (*WebhookDelivery, error) {
	var d *WebhookDelivery
	err := ws.db.Update(func(tx webhookData) error {
		var err error
		if d, err = tx.WebhookDelivery(storeID, id); err != nil {
			return err
		}
		if d.EndpointID != endpointID {
			return NotFound("delivery")
		}
		now := UTC(tx.Now())
		d.Status, d.NextAt, d.Attempts, d.UpdatedAt = DeliveryPending, now, 0, now
		return tx.PutWebhookDelivery(d)
	})
	if err == nil {
		ws.s.Kick()
	}
	return d, err
}

// recordEvent stores the event and one pending delivery per enabled
// endpoint that wants it, in tx (the transaction of the change); data is
// built only when some endpoint wants the event.
func recordEvent(tx eventTx, storeID uint64, typ string, data func() any) error {
	eps, err := tx.WebhookEndpoints(storeID)
	if err != nil {
		return err
	}
	var wanted []*WebhookEndpoint
	for _, w := range eps {
		if w.Wants(typ) {
			wanted = append(wanted, w)
		}
	}
	if len(wanted) == 0 {
		return nil // no subscriber: nothing to deliver, nothing to keep (nor to encode)
	}
	raw, err := json.Marshal(EmptySlices(data()))
	if err != nil {
		return err
	}
	now := UTC(tx.Now())
	e := &WebhookEvent{StoreID: storeID, MsgID: "msg_" + RandomHex(16), Type: typ, Data: raw, CreatedAt: now}
	if err := tx.AddWebhookEvent(e); err != nil {
		return err
	}
	for _, w := range wanted {
		d := &WebhookDelivery{StoreID: storeID, EndpointID: w.ID, EventID: e.ID, MsgID: e.MsgID, Type: typ,
			Status: DeliveryPending, NextAt: now, Log: []WebhookAttempt{}, CreatedAt: now, UpdatedAt: now}
		if err := tx.PutWebhookDelivery(d); err != nil {
			return err
		}
	}
	return nil
}

// WebhookWorker delivers pending deliveries with the retry schedule; an
// endpoint whose deliveries keep failing for the whole schedule is disabled
// and the owner is mailed.
type WebhookWorker struct {
	DB      DB
	Sender  WebhookSender
	Now     Clock
	Log     *slog.Logger
	Timeout time.Duration // per request (0: 10s)
	// Leads reports whether this process runs the cluster's workers (nil:
	// always), like OutboxWorker.Leads.
	Leads func() bool
	// Lease is how long a claim on a batch holds (0: DefaultLease).
	Lease time.Duration
	// Concurrency bounds the deliveries in flight (0: 32), PerEndpoint
	// those to one endpoint (0: 8).
	Concurrency, PerEndpoint int
	id                       string // the claimant of this worker's leases
	mail                     func(tx mailTx, st *Store, w *WebhookEndpoint) error
	wake                     chan struct{}
}

// NewWebhookWorker returns the worker of s's deliveries through sender.
func NewWebhookWorker(s *Services, sender WebhookSender) *WebhookWorker {
	return &WebhookWorker{DB: s.DB, Sender: sender, Now: s.Now, Log: s.Log, wake: make(chan struct{}, 1),
		mail: endpointDisabledMail, id: "webhooks-" + RandomHex(8)}
}

// Wake asks a running worker to look now.
func (ww *WebhookWorker) Wake() { wakeUp(ww.wake) }

// Run delivers until ctx ends: at start, when woken, and every tick.
func (ww *WebhookWorker) Run(ctx context.Context, tick time.Duration) {
	runLoop(ctx, ww.wake, tick, func() {
		if ww.Leads != nil && !ww.Leads() {
			return
		}
		if _, err := ww.RunOnce(ctx); err != nil {
			ww.Log.Error("webhooks", "err", err)
		}
	})
}

// RunOnce attempts every delivery due now and returns how many it attempted.
// Each batch is leased before anything is sent (ClaimDueWebhookDeliveries)
// and delivered with bounded concurrency (deliverBatch).
func (ww *WebhookWorker) RunOnce(ctx context.Context) (int, error) {
	total := 0
	for ctx.Err() == nil {
		h := newLease(ww.claimant(), ww.Now, ww.leaseSpan(), ww.Leads)
		due, err := ww.claim(h.lease)
		if err != nil {
			return total, err
		}
		n, err := ww.deliverBatch(ctx, h, due)
		total += n
		if err != nil || n < len(due) || len(due) < webhookBatch {
			return total, err
		}
	}
	return total, nil
}

// attempt makes one delivery attempt under claimant's lease: it sends the
// signed event and records the outcome (a failure schedules the next try or
// fails the delivery). The error is the recording's (the lease was lost, or
// the database): the batch stops.
func (ww *WebhookWorker) attempt(ctx context.Context, d *WebhookDelivery, claimant string) error {
	var (
		w  *WebhookEndpoint
		ev *WebhookEvent
	)
	err := ww.DB.View(func(tx Tx) error {
		var err error
		if w, err = tx.WebhookEndpoint(d.StoreID, d.EndpointID); err != nil {
			return err
		}
		ev, err = tx.WebhookEvent(d.StoreID, d.EventID)
		return err
	})
	if IsNotFound(err) {
		return nil // the endpoint was deleted with its deliveries
	}
	if err != nil {
		return err
	}
	res, latency, sendErr := ww.send(ctx, w, ev)
	return ww.record(d, claimant, res, sendErr, latency)
}

// send posts ev, signed, to endpoint w (a disabled endpoint is a failed
// attempt) and returns the answer, the call's latency in milliseconds and
// the error of the call.
func (ww *WebhookWorker) send(ctx context.Context, w *WebhookEndpoint, ev *WebhookEvent) (WebhookResult, int64, error) {
	body := ev.Payload()
	now := ww.Now()
	ts := now.Unix()
	req := WebhookRequest{URL: w.URL, Body: body, Headers: map[string]string{
		"Content-Type":      "application/json",
		"User-Agent":        "Storefront-Webhooks/1",
		"webhook-id":        ev.MsgID,
		"webhook-timestamp": strconv.FormatInt(ts, 10),
		"webhook-signature": SignWebhook(w.Secret, ev.MsgID, ts, body),
	}}
	// A request under way when the worker stops finishes (within the
	// timeout) and is recorded: cancelling it would leave the receiver with
	// an event it may have processed and the delivery due again.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ww.timeout())
	start := time.Now()
	var (
		res     WebhookResult
		sendErr error
	)
	if w.Enabled {
		res, sendErr = ww.Sender.Post(rctx, req)
	} else {
		sendErr = Errorf(EConflict, "the endpoint is disabled")
	}
	cancel()
	return res, time.Since(start).Milliseconds(), sendErr
}

// record logs an attempt on delivery d (still pending) and moves it on.
func (ww *WebhookWorker) record(d *WebhookDelivery, claimant string, res WebhookResult, sendErr error, latency int64) error {
	ok := sendErr == nil && res.StatusCode >= 200 && res.StatusCode < 300
	pulled := 0
	err := ww.DB.Update(func(tx Tx) error {
		pulled = 0
		if err := tx.EndDeliveryLease(d.StoreID, d.ID, claimant); err != nil {
			return ignoreNotFound(err)
		}
		cur, err := tx.WebhookDelivery(d.StoreID, d.ID)
		if err != nil || cur.Status != DeliveryPending {
			return ignoreNotFound(err)
		}
		ep, err := tx.WebhookEndpoint(d.StoreID, d.EndpointID)
		if err != nil {
			return ignoreNotFound(err)
		}
		at := UTC(tx.Now())
		a := WebhookAttempt{At: at, StatusCode: res.StatusCode, LatencyMS: latency, Response: res.Body}
		if sendErr != nil {
			a.Error = ErrorMessage(sendErr)
			if a.Error == "internal error" {
				a.Error = sendErr.Error()
			}
		} else if !ok {
			a.Error = "HTTP " + itoa(res.StatusCode)
		}
		cur.Log = append(cur.Log, a)
		if len(cur.Log) > webhookDeliveryLogLength {
			cur.Log = cur.Log[len(cur.Log)-webhookDeliveryLogLength:]
		}
		cur.Attempts++
		cur.UpdatedAt = at
		if ok && !ep.FailingSince.IsZero() {
			// the endpoint is back: its queued retries are due now
			if pulled, err = tx.PullWebhookRetries(d.StoreID, d.EndpointID, at); err != nil {
				return err
			}
		}
		if err := ww.advance(tx, cur, ep, ok, a.Error, at); err != nil {
			return err
		}
		return tx.PutWebhookDelivery(cur)
	})
	if err == nil && pulled > 0 {
		ww.Wake()
	}
	return err
}

// advance sets a delivery's status after an attempt: succeeded, failed (the
// schedule is spent or the endpoint disabled; an endpoint failing for
// WebhookDisableAfter is disabled and its store mailed) or retried later.
// It keeps the endpoint's FailingSince.
func (ww *WebhookWorker) advance(tx Tx, cur *WebhookDelivery, ep *WebhookEndpoint, ok bool, lastErr string, at time.Time) error {
	switch {
	case ok:
		cur.Status = DeliverySucceeded
		if !ep.FailingSince.IsZero() {
			ep.FailingSince = time.Time{}
			return tx.PutWebhookEndpoint(ep)
		}
	case !ep.Enabled || cur.Attempts > len(WebhookSchedule):
		cur.Status = DeliveryFailed
		if ep.Enabled && !ep.FailingSince.IsZero() && at.Sub(ep.FailingSince) >= WebhookDisableAfter {
			// failing through the whole schedule with no success since: disable
			ep.Enabled, ep.DisabledReason, ep.UpdatedAt = false, "disabled automatically: every delivery failed for "+
				at.Sub(ep.FailingSince).Round(time.Hour).String()+"; last error: "+lastErr, at
			if err := tx.PutWebhookEndpoint(ep); err != nil {
				return err
			}
			st, err := tx.Store(ep.StoreID)
			if err != nil {
				return err
			}
			return ww.mail(tx, st, ep)
		}
	default:
		cur.NextAt = at.Add(WebhookSchedule[cur.Attempts-1])
		if ep.FailingSince.IsZero() {
			ep.FailingSince = at
			return tx.PutWebhookEndpoint(ep)
		}
	}
	return nil
}

func ignoreNotFound(err error) error {
	if IsNotFound(err) {
		return nil
	}
	return err
}

// specialPrefixes are the IANA special-purpose address registries' blocks
// (IPv4: RFC 6890 and its updates; IPv6 likewise), refused as webhook
// targets whether or not the registry calls them globally reachable: none is
// where a shop's customer data should go.
var specialPrefixes = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
		"192.0.0.0/24", "192.0.2.0/24", "192.31.196.0/24", "192.52.193.0/24", "192.88.99.0/24",
		"192.168.0.0/16", "192.175.48.0/24", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24",
		"224.0.0.0/4", "240.0.0.0/4", "255.255.255.255/32",
		"::/128", "::1/128", "::ffff:0:0/96", "64:ff9b::/96", "64:ff9b:1::/48", "100::/64", "100:0:0:1::/64",
		"2001::/23", "2001:db8::/32", "2002::/16", "2620:4f:8000::/48", "3fff::/20", "5f00::/16",
		"fc00::/7", "fe80::/10", "ff00::/8",
	} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

// PrivateAddr reports whether ip is a target webhooks refuse by default: an
// address of an IANA special-purpose block (loopback, private, link-local,
// shared, documentation, benchmarking, reserved, broadcast, multicast,
// NAT64, 6to4, ...), or an IPv4-mapped form of one.
func PrivateAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() {
		return true
	}
	for _, p := range specialPrefixes {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}
