package storage

import (
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"storefront/app"
)

// TestDerivedRebuiltOnOpen: a database made before the order rows, the day
// stats and the low-stock index existed gets them built once when opened.
func TestDerivedRebuiltOnOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	day := time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC)
	var sid uint64
	err = db.Update(func(tx app.Tx) error {
		st := &app.Store{Name: "S", Subdomain: "s", Currency: "USD", IsActive: true, APIKeyHash: app.HashAPIKey("k")}
		if err := tx.CreateStore(st); err != nil {
			return err
		}
		sid = st.ID
		if err := tx.PutProduct(&app.Product{StoreID: sid, Name: "Mug", Slug: "mug", Price: 100, Stock: 2, LowStockThreshold: 5, IsActive: true}); err != nil {
			return err
		}
		for i, pay := range []string{app.PaymentPaid, app.PaymentUnpaid, app.PaymentRefunded} {
			o := &app.Order{StoreID: sid, Status: app.OrderConfirmed, PaymentStatus: pay, Total: app.Money(1000 * (i + 1)),
				Currency: "USD", Email: "a@example.com", CreatedAt: day}
			if pay == app.PaymentRefunded {
				o.RefundedAmount = o.Total
			}
			if err := tx.CreateOrder(o); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Make it look like an old file: derived buckets empty, not marked built.
	err = db.bolt.Update(func(tx *bolt.Tx) error {
		for _, d := range deriveds {
			if err := tx.Bucket(bMeta).Delete([]byte("built:" + d.name)); err != nil {
				return err
			}
			for _, b := range d.buckets {
				if err := tx.DeleteBucket(b); err != nil {
					return err
				}
				if _, err := tx.CreateBucket(b); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Verify(); err == nil {
		t.Fatal("Verify passed empty derived buckets")
	}
	db.Close()
	if db, err = Open(path, Options{}); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Verify(); err != nil {
		t.Fatalf("after the rebuild: %v", err)
	}
	var stats []app.DayStats
	var low int
	var res app.OrderSearch
	err = db.View(func(tx app.Tx) error {
		var err error
		if stats, err = tx.OrderDayStats(sid, day, day.AddDate(0, 0, 1)); err != nil {
			return err
		}
		if low, err = tx.CountLowStock(sid); err != nil {
			return err
		}
		res, err = tx.SearchOrders(sid, app.OrderQuery{Sort: app.OrderSortTotalDesc})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(stats) != 1 || stats[0].Orders != 2 || stats[0].Gross != 4000 || stats[0].Refunded != 3000 || stats[0].Revenue() != 1000 {
		t.Fatalf("stats %+v, want 2 paid orders, 40.00 gross, 30.00 refunded", stats)
	}
	if low != 1 || res.Total != 3 || res.Rows[0].Total != 3000 || res.Rows[2].Total != 1000 {
		t.Fatalf("low %d, search %+v", low, res)
	}
}
