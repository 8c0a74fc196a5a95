package storage

import (
	"path/filepath"
	"testing"
	"time"

	"storefront/app"
)

// benchOrder is an order as a guest checkout of one line places it.
func benchOrder(sid, id uint64) *app.Order {
	at := time.Date(2026, 11, 25, 10, 0, 0, 123456789, time.UTC)
	return &app.Order{ID: id, StoreID: sid, Status: app.OrderPending, PaymentStatus: app.PaymentUnpaid, PaymentMethod: app.WalletA,
		PaymentSessionID: app.SessionID(sid, id, "9f9f9f9f9f9f9f9f9f9f9f9f"), ReceiverName: "Ada Lovelace", Phone: "+15550100",
		Address: "1 Main St", Email: "ada@example.com",
		Items:    []app.OrderItem{{ProductID: 3, VariantID: 7, Name: "Trail Runner 3", UnitPrice: 5411, Quantity: 1, LineTotal: 5411}},
		Subtotal: 5411, DeliveryFee: 500, Total: 5911, Currency: "USD", CallbackURL: "https://shop.example.com/return",
		Test: true, CreatedAt: at, UpdatedAt: at}
}

// BenchmarkOrderSettle is the order part of a verification in a group
// commit: read the order, mark it paid, write it, 32 orders per transaction
// (no fsync). The orders are a fixed pool, paid and unpaid in turn, so that
// the setup does not grow with b.N (instruction counts of two b.N subtract).
func BenchmarkOrderSettle(b *testing.B) {
	db, err := Open(filepath.Join(b.TempDir(), "o.db"), Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	const group, pool = 32, 20_000
	for i := 0; i < pool; i += 1000 {
		if err := db.update(func(t *Tx) error {
			for j := i; j < i+1000; j++ {
				if err := t.CreateOrder(benchOrder(1, 0)); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	b.ReportAllocs()
	for i := 0; i < b.N; i += group {
		if err := db.update(func(t *Tx) error {
			for j := i; j < i+group; j++ {
				o, err := t.Order(1, uint64(j%pool+1))
				if err != nil {
					return err
				}
				if o.Status == app.OrderPending {
					o.Status, o.PaymentStatus = app.OrderConfirmed, app.PaymentPaid
				} else {
					o.Status, o.PaymentStatus = app.OrderPending, app.PaymentUnpaid
				}
				o.UpdatedAt = t.Now().UTC()
				if err := t.PutOrder(o); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOrderCodec: decoding and encoding one stored order.
func BenchmarkOrderCodec(b *testing.B) {
	o := benchOrder(1, 12345)
	raw, err := encodeOrder(o)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := decodeOrder(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := encodeOrder(o); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.ReportMetric(float64(len(raw)), "bytes")
}

// BenchmarkSessionCodec: decoding and encoding a payment session as a
// verification does (read with no attempt, written with one).
func BenchmarkSessionCodec(b *testing.B) {
	at := time.Date(2026, 11, 25, 10, 0, 0, 123456789, time.UTC)
	id := app.SessionID(1, 42, "9f9f9f9f9f9f9f9f9f9f9f9f")
	ps := &app.PaymentSession{ID: id, StoreID: 1, Seq: 42, OrderID: 42, Method: app.WalletA, Amount: 5911, Currency: "USD",
		CallbackURL: "https://shop.example.com/return", Status: app.SessionOpen, Provider: "sandbox", Test: true, ProviderRef: id,
		RedirectURL: "http://127.0.0.1:8080/sandbox/pay/" + id + "/", Attempts: []app.PaymentAttempt{}, CreatedAt: at, UpdatedAt: at}
	k := keyOf(1).id(42)
	raw, err := encodeSession(ps)
	if err != nil {
		b.Fatal(err)
	}
	paid := *ps
	paid.Attempts = []app.PaymentAttempt{{TransactionID: "sbx_9f9f9f9f9f9f9f9f", Success: true, Message: "payment received", At: at}}
	paid.Status, paid.PaidTxID = app.SessionPaid, "sbx_9f9f9f9f9f9f9f9f"
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := decodeSession(k, raw); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := encodeSession(&paid); err != nil {
				b.Fatal(err)
			}
		}
	})
}
