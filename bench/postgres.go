package bench

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"storefront/app"
	"storefront/app/auth"
	"storefront/storage/postgres"
)

// NewPostgresDatabase creates an empty database on the server of url (the
// throwaway server of scripts/with-postgres.sh) and returns its URL.
func NewPostgresDatabase(url string) (string, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	b := make([]byte, 6)
	rand.Read(b)
	name := "sf_bench_" + hex.EncodeToString(b)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", err
	}
	return fmt.Sprintf("dbname=%s user=%s host=%s port=%d sslmode=disable", name, cfg.User, cfg.Host, cfg.Port), nil
}

// OpenPostgres wires the services over the PostgreSQL database at url and,
// when seed is set, seeds the same catalog as Open (a second Env on the same
// database, seed false, is a second process: its own pool and caches).
func OpenPostgres(url string, seed bool, opt postgres.Options) (*Env, error) {
	db, err := postgres.Open(url, opt)
	if err != nil {
		return nil, err
	}
	secret, err := db.Secret("tokens")
	if err != nil {
		db.Close()
		return nil, err
	}
	svc := app.NewServices(db, auth.NewJWT(secret, nil), auth.NewBcrypt(4), nil, nil, nil, app.Options{PublicURL: "http://127.0.0.1", Limiter: db.Limiter(nil)})
	e := &Env{DB: db, Svc: svc}
	if seed {
		if err := e.seed(); err != nil {
			db.Close()
			return nil, err
		}
	}
	return e, nil
}
