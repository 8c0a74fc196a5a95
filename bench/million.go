package bench

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"storefront/app"
	"storefront/storage"
)

// Big is a database with one store of many products and one of SmallProducts,
// seeded straight through the storage layer (Tx.PutProduct, SeedBatch per
// transaction): the 1M-product run of `make bench-1m`.
type Big struct {
	Path               string
	BigKey, SmallKey   string
	BigStore           uint64
	FirstID            uint64 // the big store's oldest product id
	Products           int
	Seed               time.Duration
	Size               int64 // bytes of the file (bbolt's data size)
	DeepCursor         string
	RareWord           string // a word of exactly one product's name
	CommonWord, Prefix string // words of every product's name
	TenthWord          string // a word of every tenth product's name, spread evenly
}

// SmallProducts is the size of the small store whose unfiltered page 1 the
// big store's reads are compared with.
const SmallProducts = 1000

// SeedBatch is how many products one seeding transaction writes.
const SeedBatch = 5000

// colours name every product; one in ten has each, spread evenly.
var colours = []string{"blue", "red", "green", "black", "white", "grey", "orange", "yellow", "purple", "brown"}

// bigProduct is a realistic product: a paragraph of description, three
// images, a compare-at price and three size variants with their own ids.
func bigProduct(tx app.Tx, storeID, catID uint64, i int, now time.Time) (*app.Product, error) {
	price := app.Money(5000 + i*137%9000)
	p := &app.Product{StoreID: storeID, Name: fmt.Sprintf("Trail Runner %d Pro %s", i, colours[i%len(colours)]),
		Slug: fmt.Sprintf("trail-runner-%d", i),
		Description: "A light, cushioned running shoe with a grippy outsole for mixed terrain. " +
			"Breathable mesh upper, reinforced toe cap and a heel counter that keeps your foot steady on descents. " +
			"Weight 280 g (size 42). Drop 8 mm. Machine washable at 30 degrees.",
		Price: price, CompareAtPrice: price + 1500, Currency: "USD", CategoryID: catID, IsActive: true,
		Images: []string{fmt.Sprintf("https://cdn.example.com/p/%d/front.jpg", i), fmt.Sprintf("https://cdn.example.com/p/%d/side.jpg", i),
			fmt.Sprintf("https://cdn.example.com/p/%d/sole.jpg", i)},
		CreatedAt: now, UpdatedAt: now}
	for _, size := range []string{"40", "42", "44"} {
		id, err := tx.NextID(storeID, "variant")
		if err != nil {
			return nil, err
		}
		p.Variants = append(p.Variants, app.Variant{ID: id, Name: "EU " + size, SKU: fmt.Sprintf("TR-%d-%s", i, size),
			Price: price, Stock: int64(5 + i%7), Attributes: map[string]string{"size": size, "color": colours[i%len(colours)]}})
	}
	return p, nil
}

// Typo is w with two letters before its middle swapped ("trail" -> "taril"): one typo.
func Typo(w string) string {
	r := []rune(w)
	i := len(r) / 2
	if i > 0 {
		r[i-1], r[i] = r[i], r[i-1]
	}
	return string(r)
}

// SeedBig creates dir/storefront.db with a store of n products and one of
// SmallProducts; progress (may be nil) hears every 100k products.
func SeedBig(dir string, n int, progress func(done int, took time.Duration)) (*Big, error) {
	path := filepath.Join(dir, "storefront.db")
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		return nil, err
	}
	closed := false
	defer func() {
		if !closed {
			db.Close()
		}
	}()
	svc := app.NewServices(db, nil, nil, nil, nil, nil, app.Options{PublicURL: "http://127.0.0.1"})
	out := &Big{Path: path, Products: n, CommonWord: "trail", Prefix: "run", TenthWord: "blue"}
	seed := func(name string, count int, report bool) (storeID, firstID uint64, key string, err error) {
		st, key, err := svc.Stores.Create(app.NewStore{Name: name, Subdomain: name, Currency: "USD"})
		if err != nil {
			return 0, 0, "", err
		}
		cname := "Running Shoes"
		cat, err := svc.Catalog.SaveCategory(st.ID, 0, app.CategoryInput{Name: &cname})
		if err != nil {
			return 0, 0, "", err
		}
		now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
		start := time.Now()
		for i := 0; i < count; i += SeedBatch {
			err := db.Update(func(tx app.Tx) error {
				for j := i; j < min(count, i+SeedBatch); j++ {
					p, err := bigProduct(tx, st.ID, cat.ID, j+1, now)
					if err != nil {
						return err
					}
					if err := tx.PutProduct(p); err != nil {
						return err
					}
					if firstID == 0 {
						firstID = p.ID
					}
				}
				return nil
			})
			if err != nil {
				return 0, 0, "", err
			}
			if done := min(count, i+SeedBatch); report && progress != nil && done%100_000 == 0 {
				progress(done, time.Since(start))
			}
		}
		return st.ID, firstID, key, nil
	}
	t0 := time.Now()
	if out.BigStore, out.FirstID, out.BigKey, err = seed("big-shop", n, true); err != nil {
		return nil, err
	}
	out.Seed = time.Since(t0)
	if _, _, out.SmallKey, err = seed("small-shop", SmallProducts, false); err != nil {
		return nil, err
	}
	// a word of one product only: the number of the product in the middle
	// (and no other's prefix: those have more digits, so are above n)
	out.RareWord = fmt.Sprint(n/2 + 1)
	// the deep page: the cursor after the 10,000th oldest product (newest first)
	secret, err := db.Secret("cursors")
	if err != nil {
		return nil, err
	}
	key := binary.BigEndian.AppendUint64(nil, out.FirstID+uint64(min(n-1, 10_000)))
	out.DeepCursor = app.CursorCodec{Secret: secret}.Encode("products", out.BigStore, &app.Cursor{Sort: app.SortNewest, Key: key})
	closed = true
	if err := db.Close(); err != nil {
		return nil, err
	}
	use, err := ReadDiskUse(path)
	if err != nil {
		return nil, err
	}
	out.Size = use.Size
	if fi, err := os.Stat(path); err == nil && fi.Size() < out.Size {
		out.Size = fi.Size()
	}
	return out, nil
}
