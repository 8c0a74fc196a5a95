package postgres

import (
	"context"

	"storefront/app"
)

// DocVersion lets the tests of the re-encoding raise the doc version.
var DocVersion = &docVersion

// ExecForTest runs a statement outside any transaction (tests only).
func (db *DB) ExecForTest(sql string) error {
	_, err := db.pool.Exec(context.Background(), sql)
	return err
}

// CountForTest runs a SELECT count(*) (tests only).
func (db *DB) CountForTest(sql string) (n int, err error) {
	err = db.pool.QueryRow(context.Background(), sql).Scan(&n)
	return n, err
}

// CheckFullForTest is the disk_full mapping of every transaction's outcome.
func (db *DB) CheckFullForTest(write bool, err error) error { return db.checkFull(write, err) }

// TxExecForTest runs a statement inside a transaction of the store layer
// (tests only): an error goes the way of any statement's.
func TxExecForTest(tx app.Tx, sql string) error {
	_, err := tx.(*Tx).execNow("test statement", sql)
	return err
}

// LightDocsForTest checks every product's ldoc and ljson against its pdoc:
// stale counts the rows where one differs from what pdoc gives, missing the
// others where one is NULL.
func (db *DB) LightDocsForTest() (stale, missing int, err error) {
	rows, err := db.pool.Query(context.Background(), `SELECT pdoc, ldoc, ljson FROM products`)
	if err != nil {
		return 0, 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var pdoc, ldoc, ljson []byte
		if err := rows.Scan(&pdoc, &ldoc, &ljson); err != nil {
			return 0, 0, err
		}
		switch {
		case ldoc != nil && string(ldoc) != string(lightDoc(pdoc)), ljson != nil && string(ljson) != string(lightJSON(pdoc)):
			stale++
		case ldoc == nil || ljson == nil:
			missing++
		}
	}
	return stale, missing, rows.Err()
}

// SetLightBatch lowers the batch of the light docs' backfill (migration
// 0012) and of the docs' re-encoding for a test.
func SetLightBatch(t interface{ Cleanup(func()) }, n int) {
	old := lightBatch
	lightBatch = n
	t.Cleanup(func() { lightBatch = old })
}
