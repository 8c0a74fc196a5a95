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
func OpenPostgres(url string, seed bool, maxConns int32) (*Env, error) {
	db, err := postgres.Open(url, postgres.Options{MaxConns: maxConns})
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

// Checkout is a guest checkout body buying one unit of product id.
func Checkout(productID uint64) string {
	return fmt.Sprintf(`{"receiver_name":"Bench Buyer","phone":"+15550100","address":"1 Loop Rd","email":"buyer@example.com",`+
		`"delivery_fee":"0.00","currency":"USD","payment_method":"WALLET_A","callback_url":"https://shop.example/cb",`+
		`"items":[{"product_id":%d,"unit_price":"1.00","quantity":1}]}`, productID)
}

// PathCheckout is the guest checkout path.
const PathCheckout = "/api/v1/business/website/payment/initiate/"

// SeedCheckout adds a second store with one product of unbounded stock for
// the checkout runs; it returns the store's key and the product id.
func (e *Env) SeedCheckout() (string, uint64, error) {
	st, key, err := e.Svc.Stores.Create(app.NewStore{Name: "Checkout Shop", Subdomain: "checkout-shop", Currency: "USD"})
	if err != nil {
		return "", 0, err
	}
	name, price, stock := "Bench Mug", app.Money(100), int64(1_000_000_000)
	p, err := e.Svc.Catalog.SaveProduct(st.ID, 0, app.ProductInput{Name: &name, Price: &price, Stock: &stock})
	if err != nil {
		return "", 0, err
	}
	return key, p.ID, nil
}
