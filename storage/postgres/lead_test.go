package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"net/mail"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"storefront/app"
	smtpmail "storefront/app/mail"
	"storefront/app/webhook"
	"storefront/storage/postgres"
	"storefront/storage/postgres/pgtest"
	"storefront/testenv"
)

// leadNode is one process of a cluster as the binary wires it: a pool, a
// bid for the lead, and the outbox and webhook workers that run while it
// leads.
type leadNode struct {
	db     *postgres.DB
	leader *postgres.Leader
	stop   func()
}

const (
	leadLease       = 3 * time.Second
	leadConcurrency = 4 // webhook deliveries in flight per worker
)

// startLeadNode starts a node; its workers run while it leads, or while
// both is set (two processes that each believe they lead).
func startLeadNode(t *testing.T, url string, smtpPort int, log *slog.Logger, both *atomic.Bool) *leadNode {
	t.Helper()
	db, err := postgres.Open(url, postgres.Options{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	n := &leadNode{db: db, leader: db.Lead("cron")}
	leads := func() bool { return n.leader.Leading() || both.Load() }
	tr := smtpmail.NewSMTP(smtpmail.Config{Host: "127.0.0.1", Port: smtpPort, From: "shop@lead.example", TLS: smtpmail.TLSNone, Timeout: 5 * time.Second})
	ob := &app.OutboxWorker{DB: db, Transport: tr, Now: time.Now, Log: log, Leads: leads, Lease: leadLease}
	ww := &app.WebhookWorker{DB: db, Sender: webhook.New(5*time.Second, true), Now: time.Now, Log: log, Leads: leads,
		Lease: leadLease, Concurrency: leadConcurrency, PerEndpoint: leadConcurrency}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { ob.Run(ctx, 50*time.Millisecond) })
	wg.Go(func() { ww.Run(ctx, 50*time.Millisecond) })
	n.stop = func() { cancel(); wg.Wait(); n.leader.Stop(); db.Close() }
	t.Cleanup(n.stop)
	return n
}

// seedBacklog queues n free-text mails and n events, each with one delivery
// to hooksURL, all due now.
func seedBacklog(t *testing.T, db *postgres.DB, n int, hooksURL, secret string) {
	t.Helper()
	now := time.Now().UTC()
	st := &app.Store{Name: "Busy", Subdomain: "busy", Currency: "USD", IsActive: true, APIKeyHash: []byte("k"), Config: json.RawMessage(`{}`), CreatedAt: now, UpdatedAt: now}
	ep := &app.WebhookEndpoint{URL: hooksURL, Secret: secret, Events: []string{app.EvOrderPaid}, Enabled: true, CreatedAt: now, UpdatedAt: now}
	if err := db.Update(func(tx app.Tx) error {
		if err := tx.CreateStore(st); err != nil {
			return err
		}
		ep.StoreID = st.ID
		return tx.PutWebhookEndpoint(ep)
	}); err != nil {
		t.Fatal(err)
	}
	for chunk := 0; chunk < n; chunk += 500 {
		err := db.Update(func(tx app.Tx) error {
			for i := chunk; i < min(chunk+500, n); i++ {
				m := &app.Mail{StoreID: st.ID, To: "owner@lead.example", Subject: fmt.Sprint("Mail ", i), Text: "Hello", Status: app.MailQueued, NextAt: now, CreatedAt: now, QueuedAt: now}
				if err := tx.AddOutbox(m); err != nil {
					return err
				}
				ev := &app.WebhookEvent{StoreID: st.ID, MsgID: fmt.Sprintf("msg_%032d", i), Type: app.EvOrderPaid, Data: json.RawMessage(`{}`), CreatedAt: now}
				if err := tx.AddWebhookEvent(ev); err != nil {
					return err
				}
				d := &app.WebhookDelivery{StoreID: st.ID, EndpointID: ep.ID, EventID: ev.ID, MsgID: ev.MsgID, Type: ev.Type, Status: app.DeliveryPending,
					NextAt: now, Log: []app.WebhookAttempt{}, CreatedAt: now, UpdatedAt: now}
				if err := tx.PutWebhookDelivery(d); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestLeaderChangeSendsOnce: two processes (two pools, two bids for the
// lead, two sets of workers) share a backlog of 2,000 mails and 2,000
// webhook deliveries. Midway every connection to the database is cut and
// new ones refused until both have lost the lead (what a fast restart of
// PostgreSQL does to them), later only the leader's lock connection is
// dropped and from then on both processes believe they lead (the lead moved
// and the old leader has not noticed, the worst case). Every item arrives; an item arrives twice only if it was in flight when its
// worker's database went away (one mail, at most leadConcurrency deliveries
// per worker), never a batch.
func TestLeaderChangeSendsOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("a backlog of 4,000 sends")
	}
	url := pgtest.NewDatabase(t)
	smtp := testenv.NewSMTPServer(t)
	hooks := testenv.NewHookReceiver(t)
	hooks.OffContract() // the events are made up (data {}): this test counts sends, not shapes
	hooks.Secret = app.NewWebhookSecret()
	hooks.SetDelay(2 * time.Millisecond)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	const n = 2000
	admin := adminConn(t, url)
	seed, err := postgres.Open(url, postgres.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	seedBacklog(t, seed, n, hooks.URL, hooks.Secret)
	seed.Close()

	var both atomic.Bool
	nodes := []*leadNode{startLeadNode(t, url, smtp.Port(), log, &both), startLeadNode(t, url, smtp.Port(), log, &both)}
	progress := func(frac float64) func() bool {
		return func() bool { return len(smtp.Messages()) >= int(frac*n) && len(hooks.Received()) >= int(frac*n) }
	}
	waitFor(t, 60*time.Second, "a fifth of the backlog sent", progress(0.2))
	restartDatabase(t, adminConn(t, pgtest.ServerURL(t)), admin, func() bool { return !nodes[0].leader.Leading() && !nodes[1].leader.Leading() })
	waitFor(t, 60*time.Second, "half of the backlog sent", progress(0.5))
	dropLeaderConn(t, admin)
	both.Store(true) // the old leader has not noticed: both send
	waitFor(t, 90*time.Second, "every item sent and recorded", func() bool {
		var left int
		err := admin.QueryRow(context.Background(), `SELECT (SELECT count(*) FROM outbox WHERE send_at IS NOT NULL) +
			(SELECT count(*) FROM webhook_deliveries WHERE due IS NOT NULL)`).Scan(&left)
		return err == nil && left == 0
	})

	mails := map[string]int{}
	for _, m := range smtp.Messages() {
		msg, err := mail.ReadMessage(strings.NewReader(m.Data))
		if err != nil {
			t.Fatal(err)
		}
		mails[msg.Header.Get("Message-ID")]++
	}
	events := map[string]int{}
	for _, h := range hooks.Received() {
		events[h.ID]++
	}
	checkOnce(t, "mails", mails, n, 2)
	checkOnce(t, "webhooks", events, n, 2*leadConcurrency)
}

// checkOnce checks that every one of n items arrived and at most maxDup
// arrived twice (none more often).
func checkOnce(t *testing.T, what string, got map[string]int, n, maxDup int) {
	t.Helper()
	dup := 0
	for id, c := range got {
		switch {
		case c > 2:
			t.Errorf("%s: %s arrived %d times", what, id, c)
		case c == 2:
			dup++
		}
	}
	t.Logf("%s: %d distinct of %d, %d sent twice", what, len(got), n, dup)
	if len(got) != n || dup > maxDup {
		t.Errorf("%s: got %d distinct items with %d sent twice, want %d with at most %d", what, len(got), dup, n, maxDup)
	}
}

func adminConn(t *testing.T, url string) *pgx.Conn {
	t.Helper()
	c, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// restartDatabase cuts every other connection to the test database and
// refuses new ones until down() holds: a restart of the server as this
// database's clients see it (the server itself is shared by the test run).
// server is a connection to another database of the server, admin one to
// the test database (which keeps it).
func restartDatabase(t *testing.T, server, admin *pgx.Conn, down func() bool) {
	t.Helper()
	var name string
	if err := admin.QueryRow(context.Background(), `SELECT current_database()`).Scan(&name); err != nil {
		t.Fatal(err)
	}
	exec(t, server, `ALTER DATABASE `+pgx.Identifier{name}.Sanitize()+` WITH ALLOW_CONNECTIONS false`)
	exec(t, admin, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)
	waitFor(t, 30*time.Second, "both processes lost the lead", down)
	exec(t, server, `ALTER DATABASE `+pgx.Identifier{name}.Sanitize()+` WITH ALLOW_CONNECTIONS true`)
}

// dropLeaderConn terminates the connection holding the lead's advisory
// lock (postgres.Leader's key of "cron").
func dropLeaderConn(t *testing.T, admin *pgx.Conn) {
	t.Helper()
	h := fnv.New64a()
	h.Write([]byte("storefront leader cron"))
	key := h.Sum64() | 1<<63
	var pids []int32
	waitFor(t, 30*time.Second, "a leader holds the lock", func() bool {
		rows, err := admin.Query(context.Background(), `SELECT pid FROM pg_locks
			WHERE locktype = 'advisory' AND granted AND objsubid = 1 AND classid::bigint = $1 AND objid::bigint = $2
			AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`, int64(key>>32), int64(key&0xffffffff))
		if err != nil {
			t.Fatal(err)
		}
		pids, err = pgx.CollectRows(rows, pgx.RowTo[int32])
		return err == nil && len(pids) == 1
	})
	exec(t, admin, `SELECT pg_terminate_backend($1)`, pids[0])
}

func exec(t *testing.T, c *pgx.Conn, sql string, args ...any) {
	t.Helper()
	if _, err := c.Exec(context.Background(), sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// waitFor polls cond every 20ms until it holds or within passes.
func waitFor(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
