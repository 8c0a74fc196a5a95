package storage_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"storefront/app"
	"storefront/storage"
)

// TestProductDocsCursorStepping guards the speed trick of ProductDocs: the
// docs of a page are read by one bbolt cursor that steps to the neighbour of
// the doc read last (falling back to a seek), and the page holds bbolt's own
// value bytes until it copies them at the end. If bbolt's cursor stopped
// returning a key's value after Next/Prev from a Seek, or its value slices
// stopped living until the transaction ends, a page would hold wrong bytes:
// every doc of every page, in every sort and page size, must equal the doc
// read alone.
func TestProductDocsCursorStepping(t *testing.T) {
	db, err := storage.Open(filepath.Join(t.TempDir(), "s.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	err = db.Update(func(tx app.Tx) error {
		st := &app.Store{Name: "s", Subdomain: "s", Currency: "USD", APIKeyHash: []byte("k")}
		if err := tx.CreateStore(st); err != nil {
			return err
		}
		for i := range 60 {
			p := &app.Product{StoreID: st.ID, Name: fmt.Sprintf("P %02d", (i*7)%60), Slug: fmt.Sprintf("p-%d", i),
				Description: fmt.Sprintf("%0*d", 1+i*53%400, i), // docs of many sizes, over page boundaries
				Price:       app.Money(1000 + (i*37)%60*10), Currency: "USD", IsActive: i%9 != 4, Stock: int64(i % 3),
				RatingSum: int64(i % 5), ReviewCount: int64(i%5 + 1), CreatedAt: at}
			if err := tx.PutProduct(p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, sort := range app.ProductSorts {
		for _, limit := range []int{1, 7, 24, 100} {
			for _, inStock := range []bool{false, true} {
				q := app.ProductQuery{ListParams: app.ListParams{Sort: sort, Limit: limit}, MinPrice: -1, MaxPrice: -1, InStock: inStock}
				err := db.View(func(tx app.Tx) error {
					for {
						pg, err := tx.ProductDocs(1, q)
						if err != nil {
							return err
						}
						for _, d := range pg.Items {
							b, err := d.AppendJSON(nil, app.FieldSet{})
							if err != nil {
								return err
							}
							var id uint64
							fmt.Sscanf(string(b), `{"id":%d}`, &id)
							alone, err := tx.ProductDoc(1, id)
							if err != nil {
								return err
							}
							if !bytes.Equal(d, alone) {
								return fmt.Errorf("%s/%d/%v: doc of %d differs from the doc read alone", sort, limit, inStock, id)
							}
						}
						if pg.Next == nil {
							return nil
						}
						q.After = pg.Next
					}
				})
				if err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
