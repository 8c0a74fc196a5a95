package pgtest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestTemplateMadeOnceUnderRace: test processes that start at once (make
// test runs several) all get the template, none fails on the other's rename.
// Without the advisory lock the losers failed with SQLSTATE 23505.
func TestTemplateMadeOnceUnderRace(t *testing.T) {
	cfg := serverConfig(t)
	name := "sf_template_race_" + randomHex()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = exec(ctx, cfg, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	const makers = 4
	errs := make([]error, makers)
	var wg sync.WaitGroup
	for i := range makers {
		wg.Go(func() { errs[i] = makeTemplate(cfg, name) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("maker %d: %v", i, err)
		}
	}
	copied := newDatabase(t, name, true) // fails the test when it cannot be copied
	var tables int
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, dbURL(cfg, copied))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").Scan(&tables); err != nil || tables == 0 {
		t.Fatalf("the template is not migrated: %d tables, %v", tables, err)
	}
}
