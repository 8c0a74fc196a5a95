package demo

import (
	_ "embed"
	"encoding/json"
	"fmt"

	"storefront/app"
)

// AdminPassword is the owner's password in demo mode when admin.password is
// not set: fixed and documented so that `make run` logs in the same way on
// every start. Never use demo mode on a public server.
const AdminPassword = "storefront-demo"

// Subdomain is the demo store's subdomain.
const Subdomain = "demo-shop"

//go:embed demo.json
var raw []byte

// Data is the demo content.
type Data struct {
	Store      app.NewStore    `json:"store"`
	Config     json.RawMessage `json:"config"`
	Categories []CategoryData  `json:"categories"`
	Products   []ProductData   `json:"products"`
}

// CategoryData is one category of the demo.
type CategoryData struct {
	Name        string `json:"name"`
	Slug        string `json:"slug"`
	Description string `json:"description"`
	Image       string `json:"image"`
}

// ProductData is one product of the demo; Category is a category slug.
type ProductData struct {
	Category string `json:"category"`
	app.ProductInput
}

// Load decodes the embedded demo content.
func Load() (*Data, error) {
	var d Data
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, fmt.Errorf("demo: decode demo.json: %w", err)
	}
	return &d, nil
}

// Result says what Seed did.
type Result struct {
	// Created is true when Seed made the store (the database had none).
	Created bool
	// StoreID is the demo store's id, also when it existed already; 0 when
	// the database has stores but no demo store.
	StoreID uint64
	// APIKey is the new store's key, only when Created (keys are kept hashed).
	APIKey     string
	Categories int
	Products   int
}

// Seed creates the demo store when the database has no store at all, and
// otherwise only looks it up: running it on every start is safe. A failure
// half-way leaves what was made (each step is its own transaction); the next
// start sees a store and does not seed again.
func Seed(svc *app.Services) (Result, error) {
	stores, err := svc.Stores.List()
	if err != nil {
		return Result{}, err
	}
	if len(stores) > 0 {
		for _, st := range stores {
			if st.Subdomain == Subdomain {
				return Result{StoreID: st.ID}, nil
			}
		}
		return Result{}, nil
	}
	d, err := Load()
	if err != nil {
		return Result{}, err
	}
	st, key, err := svc.Stores.Create(d.Store)
	if err != nil {
		return Result{}, fmt.Errorf("demo: create store: %w", err)
	}
	res := Result{Created: true, StoreID: st.ID, APIKey: key}
	if _, err := svc.Stores.PatchConfig(st.ID, d.Config); err != nil {
		return res, fmt.Errorf("demo: store config: %w", err)
	}
	catIDs := map[string]uint64{}
	for _, c := range d.Categories {
		cat, err := svc.Catalog.SaveCategory(st.ID, 0, app.CategoryInput{Name: &c.Name, Slug: &c.Slug, Description: &c.Description, Image: &c.Image})
		if err != nil {
			return res, fmt.Errorf("demo: category %q: %w", c.Name, err)
		}
		catIDs[c.Slug] = cat.ID
		res.Categories++
	}
	for _, p := range d.Products {
		id, ok := catIDs[p.Category]
		if !ok {
			return res, fmt.Errorf("demo: product %q: unknown category %q", *p.Name, p.Category)
		}
		in := p.ProductInput
		in.CategoryID = &id
		if _, err := svc.Catalog.SaveProduct(st.ID, 0, in); err != nil {
			return res, fmt.Errorf("demo: product %q: %w", *p.Name, err)
		}
		res.Products++
	}
	return res, nil
}
