package postgres

import "context"

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
