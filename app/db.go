package app

import "time"

// DB is the storage a backend provides. Every function runs in one
// transaction: Update and Batch commit (and fsync) before they return nil.
// Batch groups concurrent writers into one commit and may run fn more than
// once, so fn must be idempotent (build its effects from what it reads).
type DB interface {
	View(fn func(Tx) error) error
	Update(fn func(Tx) error) error
	Batch(fn func(Tx) error) error
	// Secret returns a random 32-byte secret stored under name, made on first use.
	Secret(name string) ([]byte, error)
	// Ping reports whether the database answers.
	Ping() error
}

// Tx is one transaction. Every method that reads or writes a tenant's data
// takes the store id first; an id of another store is simply not found.
// Methods return *Error values for domain outcomes (not_found, conflict) and
// wrapped infrastructure errors otherwise; never (nil, nil).
type Tx interface {
	// Now is the transaction's clock (frozen in tests).
	Now() time.Time
	// NextID allocates the next id of a per-store sequence ("product", ...).
	NextID(storeID uint64, seq string) (uint64, error)

	StoreTx
	CatalogTx
	MediaTx
	CustomerTx
	AddressTx
	CartTx
	OrderTx
	OrderSearchTx
	DashboardTx
	AuditTx
	PaymentTx
	CouponTx
	RequestTx
	ReviewTx
	TicketTx
	ContactTx
	MailTx
	WebhookTx
	AdminTx
	ContentTx
}

// Clock returns the current time; services take one so tests can freeze it.
type Clock func() time.Time

// UTC truncates t to the wire precision: UTC, whole seconds.
func UTC(t time.Time) time.Time { return t.UTC().Truncate(time.Second) }

// view runs get in a read transaction and returns what it read: the one
// shape of every service read.
func view[T any](db DB, get func(Tx) (T, error)) (T, error) {
	var out T
	err := db.View(func(tx Tx) error {
		var err error
		out, err = get(tx)
		return err
	})
	return out, err
}
