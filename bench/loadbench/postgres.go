package main

import (
	"context"
	"path/filepath"

	"github.com/jackc/pgx/v5"

	"storefront/bench"
	"storefront/storage/postgres"
)

// postgresJobs seeds a new database on the PostgreSQL server of url and
// starts the binary on it twice (two processes behind a balancer), unpinned.
func postgresJobs(ctx context.Context, bin, dir, url string) ([]*job, []row, func(), error) {
	dbURL, err := bench.NewPostgresDatabase(url)
	if err != nil {
		return nil, nil, nil, err
	}
	env, err := bench.OpenPostgres(dbURL, true, postgres.Options{MaxConns: 8})
	if err != nil {
		return nil, nil, nil, err
	}
	ck, err := env.SeedCheckout()
	key := env.Key
	env.Close()
	if err != nil {
		return nil, nil, nil, err
	}
	db, err := localServer(ctx, dbURL)
	if err != nil {
		return nil, nil, nil, err
	}
	var procs []*proc
	stop := func() {
		for _, p := range procs {
			p.stop()
		}
	}
	var srv [2]*server
	for i := range srv {
		p, err := startBinary(ctx, bin, filepath.Join(dir, "pg"+string(rune('1'+i))), false,
			"STOREFRONT_STORAGE__DRIVER=postgres", "STOREFRONT_STORAGE__POSTGRES__URL="+dbURL)
		if err != nil {
			stop()
			return nil, nil, nil, err
		}
		procs = append(procs, p)
		srv[i] = &server{name: "ours-pg", url: p.url, key: key, proc: p, db: db}
	}
	script, err := postScript(dir, "initiate-pg", ck.Body, ck.Key, true)
	if err != nil {
		stop()
		return nil, nil, nil, err
	}
	jobs := []*job{
		{id: "products_pg", srv: srv[0], path: bench.PathProducts},
		{id: "products_pg2", srv: srv[0], srv2: srv[1], path: bench.PathProducts},
		{id: "detail_pg", srv: srv[0], path: bench.PathDetail},
		{id: "initiate_pg", srv: srv[0], path: bench.PathInitiate, script: script},
		{id: "initiate_pg2", srv: srv[0], srv2: srv[1], path: bench.PathInitiate, script: script},
	}
	rows := []row{
		{endpoint: "GET products, PostgreSQL", ours: "products_pg", base: "products", target: 0.50, note: "base: ours on bbolt (target: catalog page on PostgreSQL >= 50%)"},
		{endpoint: "GET products, PostgreSQL x2", ours: "products_pg2", base: "products", note: "base: ours on bbolt; two processes on one database"},
		{endpoint: "GET product detail, PostgreSQL", ours: "detail_pg", base: "detail", note: "base: ours on bbolt"},
		{endpoint: "POST initiate (64 clients), PostgreSQL", ours: "initiate_pg", base: "initiate", note: "base: ours on bbolt; target >= 1,000 orders/s absolute"},
		{endpoint: "POST initiate (64 clients), PostgreSQL x2", ours: "initiate_pg2", base: "initiate", note: "base: ours on bbolt; two processes on one database"},
	}
	return jobs, rows, stop, nil
}

// localServer finds the PostgreSQL server of url on this machine (nil when
// it runs elsewhere), so that each run reports its CPU time per request too.
func localServer(ctx context.Context, url string) (*dbServer, error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return nil, err
	}
	defer conn.Close(ctx)
	var pid int
	if err := conn.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		return nil, err
	}
	return findDBServer(pid), nil
}
