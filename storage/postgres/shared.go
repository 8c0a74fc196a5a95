package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"storefront/app"
)

var _ app.SharedState = (*DB)(nil)

func (db *DB) shared(fn func(ctx context.Context) error) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return db.unavailable(fn(ctx))
}

// PutShared creates or replaces the record kind/key.
func (db *DB) PutShared(kind, key string, owner uint64, value []byte, expires time.Time) error {
	return db.shared(func(ctx context.Context) error {
		_, err := db.pool.Exec(ctx, `INSERT INTO shared_state (kind, key, owner, value, expires) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (kind, key) DO UPDATE SET owner = excluded.owner, value = excluded.value, expires = excluded.expires`,
			kind, []byte(key), int64(owner), value, expires)
		if err != nil {
			return fmt.Errorf("postgres: put shared %s: %w", kind, err)
		}
		return nil
	})
}

// GetShared returns the record kind/key.
func (db *DB) GetShared(kind, key string) (value []byte, expires time.Time, ok bool, err error) {
	err = db.shared(func(ctx context.Context) error {
		err := db.pool.QueryRow(ctx, `SELECT value, expires FROM shared_state WHERE kind = $1 AND key = $2`, kind, []byte(key)).Scan(&value, &expires)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("postgres: get shared %s: %w", kind, err)
		}
		ok = true
		return nil
	})
	return value, expires, ok, err
}

// DeleteShared removes the record kind/key.
func (db *DB) DeleteShared(kind, key string) error {
	return db.sharedExec("delete shared", `DELETE FROM shared_state WHERE kind = $1 AND key = $2`, kind, []byte(key))
}

// DeleteSharedOf removes every record of kind of an owner.
func (db *DB) DeleteSharedOf(kind string, owner uint64) error {
	return db.sharedExec("delete shared", `DELETE FROM shared_state WHERE kind = $1 AND owner = $2`, kind, int64(owner))
}

// DeleteSharedBefore removes the records of kind expired at t.
func (db *DB) DeleteSharedBefore(kind string, t time.Time) error {
	return db.sharedExec("delete shared", `DELETE FROM shared_state WHERE kind = $1 AND expires <= $2`, kind, t)
}

func (db *DB) sharedExec(what, sql string, args ...any) error {
	return db.shared(func(ctx context.Context) error {
		if _, err := db.pool.Exec(ctx, sql, args...); err != nil {
			return fmt.Errorf("postgres: %s: %w", what, err)
		}
		return nil
	})
}
