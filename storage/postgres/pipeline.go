package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// A transaction's statements travel in pipelines: what nothing waits for
// (BEGIN, a store's advisory lock, a write whose only answer is "done") is
// queued and sent in one round trip with the next statement that returns
// something, or with COMMIT. A read-only view is then two round trips (BEGIN
// with its first query, COMMIT), and a checkout holds its store's lock for
// fewer round trips: the lock goes out with the first read, the stock update
// with the next counter, the order and payment inserts with COMMIT.
//
// The order of the statements is unchanged, so every statement still sees
// the writes before it. A queued write that fails (a unique violation) fails
// the transaction: its error is reported by the next statement and is the
// transaction's result (Tx.deferred), as if the write itself had returned it.

// queued is a statement not sent yet. check, when set, judges its command
// tag (a write that must touch one row); rows, when set, reads what it
// returns (the counters read with a store's lock).
type queued struct {
	what, sql string
	args      []any
	check     func(pgconn.CommandTag) error
	rows      func(pgx.Rows) error
}

// maxQueued bounds a queue (a long import flushes on its own).
const maxQueued = 128

const (
	beginRead  = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
	beginWrite = "BEGIN ISOLATION LEVEL READ COMMITTED"
)

// enqueue queues a statement whose result nothing reads.
func (t *Tx) enqueue(what, sql string, args ...any) error {
	return t.enqueueQ(queued{what: what, sql: sql, args: args})
}

// enqueueQ queues a statement.
func (t *Tx) enqueueQ(q queued) error {
	if err := t.open(); err != nil {
		return err
	}
	t.queue = append(t.queue, q)
	if len(t.queue) >= maxQueued {
		br, err := t.send(nil)
		if err != nil {
			return err
		}
		if err := br.Close(); err != nil {
			return t.fail(fmt.Errorf("postgres: %w", err))
		}
	}
	return nil
}

// open acquires the connection at the first statement and queues BEGIN.
func (t *Tx) open() error {
	if t.err != nil {
		return t.err // the transaction failed: nothing more is sent
	}
	if t.conn != nil {
		return nil
	}
	c, err := t.db.pool.Acquire(t.ctx)
	if err != nil {
		return t.fail(fmt.Errorf("postgres: begin: %w", err))
	}
	t.conn = c
	begin := beginRead
	if t.write {
		begin = beginWrite
	}
	t.queue = append(t.queue, queued{what: "begin", sql: begin})
	return nil
}

// send sends the queue and then last (nil: none) in one batch and reads the
// queued statements' results; the caller reads last's and closes the batch.
func (t *Tx) send(last *queued) (pgx.BatchResults, error) {
	b := &pgx.Batch{}
	for _, q := range t.queue {
		b.Queue(q.sql, q.args...)
	}
	if last != nil {
		b.Queue(last.sql, last.args...)
	}
	sent := t.queue
	t.queue = nil
	br := t.conn.SendBatch(t.ctx, b)
	for _, q := range sent {
		first := t.err == nil
		if err := t.result(br, q); err != nil {
			_ = br.Close()
			t.deferred = first
			return nil, t.fail(err)
		}
	}
	return br, nil
}

// result reads the result of a queued statement.
func (t *Tx) result(br pgx.BatchResults, q queued) error {
	if q.rows != nil {
		rows, err := br.Query()
		if err == nil {
			err = q.rows(rows)
			rows.Close()
			if rerr := rows.Err(); err == nil {
				err = rerr
			}
		}
		if err != nil {
			return t.mapErr(q.what, err)
		}
		return nil
	}
	tag, err := br.Exec()
	if err != nil {
		return t.mapErr(q.what, err)
	}
	if q.check != nil {
		return q.check(tag)
	}
	return nil
}

// execNow runs a statement whose command tag the caller needs.
func (t *Tx) execNow(what, sql string, args ...any) (pgconn.CommandTag, error) {
	if err := t.open(); err != nil {
		return pgconn.CommandTag{}, err
	}
	var tag pgconn.CommandTag
	var err error
	if len(t.queue) == 0 {
		tag, err = t.conn.Exec(t.ctx, sql, args...)
	} else {
		var br pgx.BatchResults
		if br, err = t.send(&queued{what: what, sql: sql, args: args}); err != nil {
			return tag, err
		}
		tag, err = br.Exec()
		if cerr := br.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return tag, t.mapErr(what, err)
	}
	return tag, nil
}

// queryRow is QueryRow with the queue sent first (in the same round trip).
func (t *Tx) queryRow(sql string, args ...any) pgx.Row {
	if err := t.open(); err != nil {
		return errRow{err}
	}
	if len(t.queue) == 0 {
		return t.conn.QueryRow(t.ctx, sql, args...)
	}
	br, err := t.send(&queued{sql: sql, args: args})
	if err != nil {
		return errRow{err}
	}
	return batchRow{br}
}

// query is Query with the queue sent first; the rows must be closed before
// the next statement.
func (t *Tx) query(sql string, args ...any) (pgx.Rows, error) {
	if err := t.open(); err != nil {
		return nil, err
	}
	if len(t.queue) == 0 {
		return t.conn.Query(t.ctx, sql, args...)
	}
	br, err := t.send(&queued{sql: sql, args: args})
	if err != nil {
		return nil, err
	}
	rows, err := br.Query()
	if err != nil {
		_ = br.Close()
		return nil, err
	}
	return &batchRows{Rows: rows, br: br}, nil
}

// commit sends what is queued with COMMIT and gives the connection back.
func (t *Tx) commit() error {
	if t.conn == nil {
		return nil // no statement: nothing began
	}
	br, err := t.send(&queued{what: "commit", sql: "COMMIT"})
	if err != nil {
		return err
	}
	tag, err := br.Exec()
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return t.fail(fmt.Errorf("postgres: commit: %w", err))
	}
	if tag.String() != "COMMIT" { // an aborted transaction answers ROLLBACK
		return t.fail(errors.New("postgres: commit: the transaction was rolled back"))
	}
	return nil
}

// end rolls back what was not committed and gives the connection back (a
// connection left inside a transaction is closed by the pool, not reused).
func (t *Tx) end() {
	if t.conn == nil {
		return
	}
	t.queue = nil
	if t.conn.Conn().PgConn().TxStatus() != 'I' {
		_, _ = t.conn.Exec(context.WithoutCancel(t.ctx), "ROLLBACK")
	}
	t.conn.Release()
	t.conn = nil
}

// errRow is a row whose query could not run.
type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }

// batchRow is the row of a batch's last statement; Scan closes the batch.
type batchRow struct{ br pgx.BatchResults }

func (r batchRow) Scan(dest ...any) error {
	err := r.br.QueryRow().Scan(dest...)
	if cerr := r.br.Close(); err == nil {
		err = cerr
	}
	return err
}

// batchRows are the rows of a batch's last statement; Close closes the batch.
type batchRows struct {
	pgx.Rows
	br pgx.BatchResults
}

func (r *batchRows) Close() {
	r.Rows.Close()
	_ = r.br.Close()
}
