package postgres

import (
	"fmt"
	"time"

	"storefront/app"
)

// mailDue is a mail's send_at column, which this binary's workers read: its
// next attempt while queued, else NULL.
func mailDue(m *app.Mail) any {
	if m.State() != app.MailQueued {
		return nil
	}
	return m.NextAt
}

// mailDueEarlier is its due column, which the workers of binaries from before
// migration 0013 read: the same for rendered mail, NULL for mail queued as
// data (such a worker would send it blank; it waits for one of ours).
func mailDueEarlier(m *app.Mail) any {
	if m.Data != nil {
		return nil
	}
	return mailDue(m)
}

// AddOutbox stores m with a new id.
func (t *Tx) AddOutbox(m *app.Mail) error {
	id, err := t.NextID(m.StoreID, "mail")
	if err != nil {
		return err
	}
	m.ID = id
	return t.PutMail(m)
}

// Mail returns one mail of a store.
func (t *Tx) Mail(storeID, id uint64) (*app.Mail, error) {
	var m app.Mail
	if err := t.get(storeID, &m, "mail", `SELECT doc FROM outbox WHERE store_id = $1 AND id = $2`, i64(storeID), i64(id)); err != nil {
		return nil, err
	}
	return &m, nil
}

// PutMail writes m and its due times (only queued mail is due; migration 0013).
func (t *Tx) PutMail(m *app.Mail) error {
	raw, err := encode(m)
	if err != nil {
		return err
	}
	return t.exec(m.StoreID, "put mail", `INSERT INTO outbox (store_id, id, send_at, due, doc) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (store_id, id) DO UPDATE SET send_at = excluded.send_at, due = excluded.due, doc = excluded.doc`,
		i64(m.StoreID), i64(m.ID), mailDue(m), mailDueEarlier(m), raw)
}

// dueBefore is the bound of the due queries: the due times are compared by
// whole seconds, like the bbolt due keys (due in the current second is due),
// and ordered by second, store and id, as those keys are.
func dueBefore(now time.Time) time.Time { return now.Truncate(time.Second).Add(time.Second) }

// DueMail returns up to limit queued mails of every store due at or before
// now, soonest first: by send_at, which holds the mail of both forms and of
// every binary (migration 0013).
func (t *Tx) DueMail(now time.Time, limit int) ([]*app.Mail, error) {
	return dueDocs[app.Mail](t, "mail", `SELECT doc::text FROM outbox WHERE send_at IS NOT NULL AND send_at < $1 ORDER BY date_trunc('second', send_at), store_id, id LIMIT $2`, now, limit)
}

// Outbox pages a store's mail, newest first.
func (t *Tx) Outbox(storeID uint64, lp app.ListParams) (app.Page[*app.Mail], error) {
	return docList[app.Mail](t, storeID, "mail", `FROM outbox WHERE store_id = $1`, []any{i64(storeID)}, byID(true), lp)
}

// dueDocs reads the documents a worker's due query returns (every store: no
// store lock, the worker updates each record in its own transaction); the
// query's $1 and $2 are the due bound and the limit, more follow.
func dueDocs[T any](t *Tx, what, sql string, now time.Time, limit int, more ...any) ([]*T, error) {
	rows, err := t.query(sql, append([]any{dueBefore(now), limit}, more...)...)
	if err != nil {
		return nil, t.fail(fmt.Errorf("postgres: due %s: %w", what, err))
	}
	defer rows.Close()
	var out []*T
	dec := decodeDoc[T](t, what)
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, t.fail(fmt.Errorf("postgres: due %s: %w", what, err))
		}
		x, _, err := dec([]any{s})
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	if err := rows.Err(); err != nil {
		return nil, t.fail(fmt.Errorf("postgres: due %s: %w", what, err))
	}
	return out, nil
}
