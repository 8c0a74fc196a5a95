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
	BaseTx
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

// view runs get in a read transaction of db (a DB or a Scope) and returns
// what it read: the one shape of every service read.
func view[R, T any](db interface{ View(func(T) error) error }, get func(T) (R, error)) (R, error) {
	var out R
	err := db.View(func(tx T) error {
		var err error
		out, err = get(tx)
		return err
	})
	return out, err
}

// BaseTx is what every transaction offers besides its areas: the clock and
// the per-store sequences. The per-area interfaces (StoreTx, CouponTx, ...)
// are the units of the storage contract; Tx is their sum.
type BaseTx interface {
	// Now is the transaction's clock (frozen in tests).
	Now() time.Time
	// NextID allocates the next id of a per-store sequence ("product", ...).
	NextID(storeID uint64, seq string) (uint64, error)
}

// Scope is a DB seen through a narrower transaction type T: a service names
// the storage areas it uses as one interface T (couponData, reviewData, ...),
// holds a Scope[T], and its transactions show nothing else. The narrowing is
// checked by the compiler where the scope is made (Tx must implement T) and
// costs one interface conversion per transaction; backends implement Tx
// alone. Services whose transactions cross most areas (checkout, payments,
// requests, customers, the catalog) keep the whole Tx.
type Scope[T any] struct {
	db DB
	as func(Tx) T
}

// scopeOf narrows db to T; as is `func(tx Tx) T { return tx }`.
func scopeOf[T any](db DB, as func(Tx) T) Scope[T] { return Scope[T]{db: db, as: as} }

// View runs fn in a read transaction.
func (s Scope[T]) View(fn func(T) error) error {
	return s.db.View(func(tx Tx) error { return fn(s.as(tx)) })
}

// Update runs fn in a write transaction (committed and fsynced on nil).
func (s Scope[T]) Update(fn func(T) error) error {
	return s.db.Update(func(tx Tx) error { return fn(s.as(tx)) })
}

// Batch is DB.Batch through the scope: fn may run more than once.
func (s Scope[T]) Batch(fn func(T) error) error {
	return s.db.Batch(func(tx Tx) error { return fn(s.as(tx)) })
}
