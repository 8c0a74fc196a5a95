package app

import (
	"errors"
	"slices"
	"testing"
)

type fakeCatalogTx struct{ Tx }

func (fakeCatalogTx) PutCategory(*Category) error         { return nil }
func (fakeCatalogTx) DeleteCategory(uint64, uint64) error { return nil }
func (fakeCatalogTx) PutProduct(*Product) error           { return nil }
func (fakeCatalogTx) PutProductStock(*Product) error      { return nil }
func (fakeCatalogTx) DeleteProduct(uint64, uint64) error  { return nil }

type fakeCommitDB struct {
	DB
	commitErr error
}

func (d fakeCommitDB) Update(fn func(Tx) error) error {
	if err := fn(fakeCatalogTx{}); err != nil {
		return err
	}
	return d.commitErr
}

func (d fakeCommitDB) Batch(fn func(Tx) error) error {
	_ = fn(fakeCatalogTx{}) // Batch may run fn twice
	return d.Update(fn)
}

// Every catalog write drops the pages of its store, once, after the commit;
// a failed commit or a write elsewhere drops nothing.
func TestCatalogDBDropsPagesAfterCatalogWrites(t *testing.T) {
	writes := map[string]func(Tx) error{
		"PutCategory":     func(tx Tx) error { return tx.PutCategory(&Category{StoreID: 7}) },
		"DeleteCategory":  func(tx Tx) error { return tx.DeleteCategory(7, 1) },
		"PutProduct":      func(tx Tx) error { return tx.PutProduct(&Product{StoreID: 7}) },
		"PutProductStock": func(tx Tx) error { return tx.PutProductStock(&Product{StoreID: 7}) },
		"DeleteProduct":   func(tx Tx) error { return tx.DeleteProduct(7, 1) },
	}
	for name, w := range writes {
		for _, batch := range []bool{false, true} {
			var dropped []uint64
			d := catalogDB{DB: fakeCommitDB{}, changed: func(id uint64) { dropped = append(dropped, id) }}
			run := d.Update
			if batch {
				run = d.Batch
			}
			if err := run(func(tx Tx) error {
				if err := w(tx); err != nil {
					return err
				}
				return w(tx) // twice in one transaction: still one drop
			}); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(dropped, []uint64{7}) {
				t.Errorf("%s (batch %v): got drops %v, want [7]", name, batch, dropped)
			}
		}
	}
	var dropped []uint64
	failing := catalogDB{DB: fakeCommitDB{commitErr: errors.New("disk full")}, changed: func(id uint64) { dropped = append(dropped, id) }}
	if err := failing.Update(writes["PutProduct"]); err == nil {
		t.Fatal("got nil, want the commit error")
	}
	ok := catalogDB{DB: fakeCommitDB{}, changed: func(id uint64) { dropped = append(dropped, id) }}
	if err := ok.Update(func(Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if len(dropped) != 0 {
		t.Errorf("got drops %v after a failed commit and a non-catalog write, want none", dropped)
	}
}
