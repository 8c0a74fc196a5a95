package postgres_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"storefront/app"
	"storefront/storage/postgres"
	"storefront/storage/postgres/pgtest"
)

// A binary from before migration 0013, still running in a rolling upgrade,
// is simulated by the statements it ran, on a connection of its own: one
// without the writer setting this binary's connections send.

// earlierConn connects to url as a binary from before 0013 does.
func earlierConn(t *testing.T, url string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// The outbox statements of the binaries from before 0013 (storage/postgres/mail.go:
// PutMail, DueMail, Mail).
const (
	earlierPutMail = `INSERT INTO outbox (store_id, id, due, doc) VALUES ($1, $2, $3, $4)
		ON CONFLICT (store_id, id) DO UPDATE SET due = excluded.due, doc = excluded.doc`
	earlierDueMail = `SELECT doc::text FROM outbox WHERE due IS NOT NULL AND due < $1 ORDER BY date_trunc('second', due), store_id, id LIMIT $2`
	earlierGetMail = `SELECT doc FROM outbox WHERE store_id = $1 AND id = $2`
)

// earlierMail is app.Mail of the binaries from before the data form: what
// they decode a mail's doc into and encode back.
type earlierMail struct {
	ID        uint64    `json:"id"`
	StoreID   uint64    `json:"store_id"`
	Kind      string    `json:"kind,omitempty"`
	To        string    `json:"to"`
	Subject   string    `json:"subject"`
	Text      string    `json:"text"`
	HTML      string    `json:"html"`
	CreatedAt time.Time `json:"created_at"`
	Status    string    `json:"status,omitempty"`
	Attempts  int       `json:"attempts,omitempty"`
	NextAt    time.Time `json:"next_attempt_at,omitzero"`
	LastError string    `json:"last_error,omitempty"`
	SentAt    time.Time `json:"sent_at,omitzero"`
	QueuedAt  time.Time `json:"queued_at,omitzero"`
}

// earlierPut runs the earlier PutMail (its due: the next attempt of a queued mail).
func earlierPut(t *testing.T, conn *pgx.Conn, m *earlierMail) {
	t.Helper()
	earlierPutDoc(t, conn, m.StoreID, m.ID, m.Status == "" || m.Status == app.MailQueued, m.NextAt, m)
}

// earlierPutDoc runs the earlier PutMail with v as the doc: the binaries of
// the data form from before 0013 (app.Mail with Data) ran the same statement.
func earlierPutDoc(t *testing.T, conn *pgx.Conn, storeID, id uint64, queued bool, next time.Time, v any) {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var due any
	if queued {
		due = next
	}
	if _, err := conn.Exec(context.Background(), earlierPutMail, int64(storeID), int64(id), due, raw); err != nil {
		t.Fatal(err)
	}
}

// earlierGet runs the earlier Mail.
func earlierGet(t *testing.T, conn *pgx.Conn, storeID, id uint64) *earlierMail {
	t.Helper()
	var raw []byte
	if err := conn.QueryRow(context.Background(), earlierGetMail, int64(storeID), int64(id)).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	var m earlierMail
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return &m
}

// earlierDue runs the earlier worker's DueMail.
func earlierDue(t *testing.T, conn *pgx.Conn, now time.Time, limit int) []*earlierMail {
	t.Helper()
	rows, err := conn.Query(context.Background(), earlierDueMail, now.Truncate(time.Second).Add(time.Second), limit)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []*earlierMail
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		var m earlierMail
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, &m)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func mailIDs[M any](ms []*M, id func(*M) uint64) []uint64 {
	out := []uint64{}
	for _, m := range ms {
		out = append(out, id(m))
	}
	return out
}

func earlierIDs(ms []*earlierMail) []uint64 {
	return mailIDs(ms, func(m *earlierMail) uint64 { return m.ID })
}

// sends records what a worker sent, by mail id.
type sends map[uint64][]app.Mail

func (s sends) Send(m app.Mail) error {
	s[m.ID] = append(s[m.ID], m)
	return nil
}

// outboxFixture is a store and a frozen clock on a fresh database of this binary.
type outboxFixture struct {
	url  string
	open func() *postgres.DB
	now  time.Time
	sid  uint64
}

func newOutboxFixture(t *testing.T) (*outboxFixture, *postgres.DB) {
	url := pgtest.NewDatabase(t)
	f := &outboxFixture{url: url, open: opener(t, url), now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	db := f.reopen(nil)
	err := db.Update(func(tx app.Tx) error {
		st := &app.Store{Name: "Shop", Subdomain: "shop", Currency: "USD", APIKeyHash: []byte("k")}
		if err := tx.CreateStore(st); err != nil {
			return err
		}
		f.sid = st.ID
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return f, db
}

// reopen closes db (when not nil) and opens the database again, as a new binary.
func (f *outboxFixture) reopen(db *postgres.DB) *postgres.DB {
	if db != nil {
		db.Close()
	}
	db = f.open()
	db.Now = func() time.Time { return f.now }
	return db
}

// queueData queues a mail as data to to (one mail per address), as this
// binary queues the mail of a kind.
func (f *outboxFixture) queueData(t *testing.T, db *postgres.DB, to string) uint64 {
	t.Helper()
	var id uint64
	err := db.Update(func(tx app.Tx) error {
		if err := app.QueueKind(tx, f.sid, app.MailVerifyCode, to, app.MailData{Code: "246810"}); err != nil {
			return err
		}
		pg, err := tx.Outbox(f.sid, app.ListParams{Limit: 100})
		if err != nil {
			return err
		}
		for _, m := range pg.Items {
			if m.To == to {
				id = m.ID
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// queueRendered queues a free-text mail, rendered when queued.
func (f *outboxFixture) queueRendered(t *testing.T, db *postgres.DB, to string) uint64 {
	t.Helper()
	var id uint64
	err := db.Update(func(tx app.Tx) error {
		st, err := tx.Store(f.sid)
		if err != nil {
			return err
		}
		m := app.NewMail(st, to, "Hello", "A free-text mail.")
		m.CreatedAt, m.QueuedAt, m.NextAt, m.Status = f.now, f.now, f.now, app.MailQueued
		err = tx.AddOutbox(&m)
		id = m.ID
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// worker is this binary's outbox worker on db, sending to s.
func (f *outboxFixture) worker(db *postgres.DB, s sends) *app.OutboxWorker {
	return &app.OutboxWorker{DB: db, Transport: s, Now: func() time.Time { return f.now },
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

// dueIDs is this binary's due list.
func (f *outboxFixture) dueIDs(t *testing.T, db *postgres.DB) []uint64 {
	t.Helper()
	var due []*app.Mail
	err := db.View(func(tx app.Tx) error {
		var err error
		due, err = tx.DueMail(f.now, 50)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return mailIDs(due, func(m *app.Mail) uint64 { return m.ID })
}

// TestOutboxBesideEarlierBinary: in a rolling upgrade, a binary from before
// migration 0013 (before mail queued as data) holds the job lead for a while,
// then one of this binary. Every mail, queued by either, is sent exactly
// once and never blank: the earlier worker's due query does not see mail
// queued as data; the mail it queued is sent by this binary's worker; what
// it marked sent is not sent again; a mail queued as data that it queues
// again (the admin's retry: it read the mail without its data) keeps its
// data and is rendered when sent. The same for a binary of the data form
// from before 0013, which wrote due for mail of both forms.
func TestOutboxBesideEarlierBinary(t *testing.T) {
	f, db := newOutboxFixture(t)
	defer func() { db.Close() }()
	old := earlierConn(t, f.url)

	data := f.queueData(t, db, "data@example.com")
	rendered := f.queueRendered(t, db, "rendered@example.com")
	for i, id := range []uint64{100, 101} {
		earlierPut(t, old, &earlierMail{ID: id, StoreID: f.sid, To: "old@example.com", Subject: "Old " + string(rune('A'+i)),
			Text: "text", HTML: "<p>html</p>", CreatedAt: f.now, Status: app.MailQueued, NextAt: f.now, QueuedAt: f.now})
	}

	if got, want := earlierIDs(earlierDue(t, old, f.now, 50)), []uint64{rendered, 100, 101}; !slices.Equal(got, want) {
		t.Fatalf("the earlier worker's due mail: %v, want %v (not %d, queued as data)", got, want, data)
	}
	if got, want := f.dueIDs(t, db), []uint64{data, rendered, 100, 101}; !slices.Equal(got, want) {
		t.Fatalf("due mail: %v, want %v", got, want)
	}

	// The earlier worker leads: it sends its first two and marks them sent.
	sent := sends{}
	for _, m := range earlierDue(t, old, f.now, 2) {
		sent[m.ID] = append(sent[m.ID], app.Mail{ID: m.ID, Subject: m.Subject})
		m.Status, m.SentAt, m.Attempts = app.MailSent, f.now, m.Attempts+1
		earlierPut(t, old, m)
	}
	if got, want := f.dueIDs(t, db), []uint64{data, 101}; !slices.Equal(got, want) {
		t.Fatalf("due mail after the earlier worker sent %d and 100: %v, want %v", rendered, got, want)
	}

	// Then this binary's worker leads.
	w := f.worker(db, sent)
	for range 2 {
		if _, err := w.RunOnce(); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []uint64{data, rendered, 100, 101} {
		if len(sent[id]) != 1 {
			t.Fatalf("mail %d sent %d times, want once", id, len(sent[id]))
		}
		if sent[id][0].Subject == "" {
			t.Fatalf("mail %d sent blank", id)
		}
	}
	if s := sent[data][0]; !strings.Contains(s.Text, "246810") {
		t.Fatalf("the mail queued as data was sent without its code: %q / %q", s.Subject, s.Text)
	}

	// A mail queued as data that failed, queued again by the earlier binary.
	retried := f.queueData(t, db, "retried@example.com")
	err := db.Update(func(tx app.Tx) error {
		m, err := tx.Mail(f.sid, retried)
		if err != nil {
			return err
		}
		m.Status, m.LastError = app.MailFailed, "550 no such user"
		return tx.PutMail(m)
	})
	if err != nil {
		t.Fatal(err)
	}
	m := earlierGet(t, old, f.sid, retried)
	m.Status, m.NextAt, m.QueuedAt, m.Attempts = app.MailQueued, f.now, f.now, 0
	earlierPut(t, old, m)
	if got := earlierIDs(earlierDue(t, old, f.now, 50)); len(got) != 0 {
		t.Fatalf("the earlier worker's due mail after its retry of a mail queued as data: %v, want none", got)
	}
	if _, err := w.RunOnce(); err != nil {
		t.Fatal(err)
	}
	if n := len(sent[retried]); n != 1 || !strings.Contains(sent[retried][0].Text, "246810") {
		t.Fatalf("the retried mail sent %d times (%+v), want once with its code", n, sent[retried])
	}
	if n := len(sent); n != 5 {
		t.Fatalf("%d mails sent, want 5", n)
	}

	// A binary of the data form from before 0013 (due set for both forms)
	// queues two mails as data, then fails the second: its worker never sees
	// them, ours sends the first, rendered, and not the failed one.
	for _, id := range []uint64{200, 201} {
		m := &app.Mail{ID: id, StoreID: f.sid, Kind: app.MailVerifyCode, To: "data-form@example.com",
			Data: &app.MailData{Code: "135790"}, CreatedAt: f.now, Status: app.MailQueued, NextAt: f.now, QueuedAt: f.now}
		earlierPutDoc(t, old, f.sid, id, true, f.now, m)
		if id == 201 {
			m.Status, m.LastError = app.MailFailed, "550 no such user"
			earlierPutDoc(t, old, f.sid, id, false, f.now, m)
		}
	}
	if got := earlierIDs(earlierDue(t, old, f.now, 50)); len(got) != 0 {
		t.Fatalf("the earlier worker's due mail after mail queued as data by a binary of the data form: %v, want none", got)
	}
	if _, err := w.RunOnce(); err != nil {
		t.Fatal(err)
	}
	if n := len(sent[200]); n != 1 || !strings.Contains(sent[200][0].Text, "135790") {
		t.Fatalf("the data form's mail sent %d times (%+v), want once with its code", n, sent[200])
	}
	if n := len(sent); n != 6 {
		t.Fatalf("%d mails sent, want 6 (not the failed one)", n)
	}
}

// undo0013 takes a database back to where a binary from before migration
// 0013 left it (one with mail queued as data: due set for both forms).
var undo0013 = []string{
	`DROP TRIGGER outbox_send_at_follows_due ON outbox`,
	`DROP FUNCTION outbox_send_at_follows_due`,
	`UPDATE outbox SET due = send_at`,
	`ALTER TABLE outbox DROP COLUMN send_at`,
	`DROP TRIGGER products_ldoc_follows_pdoc ON products`,
	`CREATE TRIGGER products_ldoc_follows_pdoc BEFORE UPDATE ON products FOR EACH ROW
		WHEN (NEW.pdoc IS DISTINCT FROM OLD.pdoc AND NEW.ldoc IS NOT DISTINCT FROM OLD.ldoc)
		EXECUTE FUNCTION products_clear_ldoc()`,
	`DROP TRIGGER products_ljson_follows_pdoc ON products`,
	`CREATE TRIGGER products_ljson_follows_pdoc BEFORE UPDATE ON products FOR EACH ROW
		WHEN (NEW.pdoc IS DISTINCT FROM OLD.pdoc AND NEW.ljson IS NOT DISTINCT FROM OLD.ljson)
		EXECUTE FUNCTION products_clear_ljson()`,
	`DELETE FROM schema_migrations WHERE version = 13`,
}

// TestOutboxMigration0013: on a database holding queued mail of both forms
// (and settled mail), migration 0013 leaves the mail queued as data out of
// the earlier workers' due column and every queued mail in this binary's.
func TestOutboxMigration0013(t *testing.T) {
	f, db := newOutboxFixture(t)
	defer func() { db.Close() }()
	data := f.queueData(t, db, "data@example.com")
	rendered := f.queueRendered(t, db, "rendered@example.com")
	settled := f.queueData(t, db, "failed@example.com")
	err := db.Update(func(tx app.Tx) error {
		m, err := tx.Mail(f.sid, settled)
		if err != nil {
			return err
		}
		m.Status = app.MailFailed
		return tx.PutMail(m)
	})
	if err != nil {
		t.Fatal(err)
	}
	execAll(t, db, undo0013...)
	db = f.reopen(db)

	old := earlierConn(t, f.url)
	if got, want := earlierIDs(earlierDue(t, old, f.now, 50)), []uint64{rendered}; !slices.Equal(got, want) {
		t.Fatalf("the earlier worker's due mail after 0013: %v, want %v", got, want)
	}
	if got, want := f.dueIDs(t, db), []uint64{data, rendered}; !slices.Equal(got, want) {
		t.Fatalf("due mail after 0013: %v, want %v", got, want)
	}
	sent := sends{}
	if _, err := f.worker(db, sent).RunOnce(); err != nil {
		t.Fatal(err)
	}
	if len(sent) != 2 || len(sent[data]) != 1 || len(sent[rendered]) != 1 || sent[data][0].Subject == "" {
		t.Fatalf("sent after 0013: %+v", sent)
	}
}

// TestOutboxDataFormRetry: a binary of the data form from before 0013
// queues again (the admin's retry) a mail queued as data that failed: its
// PutMail is an INSERT ... ON CONFLICT DO UPDATE that sets due and doc, and
// the trigger's INSERT branch has already moved due to send_at in the row
// the UPDATE takes excluded.due from. The mail is still sent, once, rendered.
func TestOutboxDataFormRetry(t *testing.T) {
	f, db := newOutboxFixture(t)
	defer func() { db.Close() }()
	old := earlierConn(t, f.url)
	id := f.queueData(t, db, "retried@example.com")
	var m *app.Mail
	err := db.Update(func(tx app.Tx) error {
		var err error
		if m, err = tx.Mail(f.sid, id); err != nil {
			return err
		}
		m.Status, m.LastError, m.Attempts = app.MailFailed, "550 no such user", 1
		return tx.PutMail(m)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.dueIDs(t, db); len(got) != 0 {
		t.Fatalf("due mail after the failure: %v, want none", got)
	}

	f.now = f.now.Add(time.Hour)
	m.Status, m.LastError, m.NextAt, m.QueuedAt, m.Attempts = app.MailQueued, "", f.now, f.now, 0
	earlierPutDoc(t, old, f.sid, id, true, f.now, m)
	if got := earlierIDs(earlierDue(t, old, f.now, 50)); len(got) != 0 {
		t.Fatalf("the earlier worker's due mail after its retry: %v, want none", got)
	}
	if got, want := f.dueIDs(t, db), []uint64{id}; !slices.Equal(got, want) {
		t.Fatalf("due mail after the earlier binary's retry: %v, want %v", got, want)
	}
	sent := sends{}
	if _, err := f.worker(db, sent).RunOnce(); err != nil {
		t.Fatal(err)
	}
	if n := len(sent[id]); n != 1 || !strings.Contains(sent[id][0].Text, "246810") {
		t.Fatalf("the retried mail sent %d times (%+v), want once with its code", n, sent[id])
	}
}
