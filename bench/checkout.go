package bench

import (
	"encoding/json"

	"storefront/app"
)

// PathInitiate is payment initiation (guest checkout).
const PathInitiate = "/api/v1/business/website/payment/initiate/"

// PathVerify is payment verification (the sandbox's return, sent back).
const PathVerify = "/api/v1/business/website/payment/verify/"

// DetailSlug is the slug of the product whose detail page is measured.
const DetailSlug = "trail-runner-1-pro"

// PathDetail is that product's detail path.
const PathDetail = PathProducts + "/" + DetailSlug

// Checkout is a second store for checkout loads: one product with the largest
// stock, so that orders never run out, and the guest checkout body of one unit.
type Checkout struct {
	Key       string
	StoreID   uint64
	ProductID uint64
	Body      []byte
	Amount    app.Money // what an order of Body costs (its payment session's amount)
	// RecordSize is the bytes of one order record plus its payment session
	// as stored; the bare handler writes values of this size.
	RecordSize int
}

// SeedCheckout creates the checkout store, places one order through the
// services (to measure RecordSize) and returns the load's parameters.
func (e *Env) SeedCheckout() (*Checkout, error) {
	return e.seedCheckout("Checkout Shop", "checkout-shop", nil)
}

// TaxesConfig are the taxed checkout store's settings: two rates (the
// product's country's and a reduced one), prices without tax, the delivery
// taxed (issue 35: checkout with two tax rates set).
const TaxesConfig = `{"store":{"country":"US","region":"CA"},"taxes":{"prices_include_tax":false,"tax_delivery":true,
 "invoice_prefix":"INV-","rates":[{"name":"CA sales tax","rate":"7.25","country":"US","region":"CA"},
 {"name":"Reduced","rate":"5","country":"US","class":"reduced"}]}}`

// SeedTaxedCheckout is SeedCheckout's store with TaxesConfig set.
func (e *Env) SeedTaxedCheckout() (*Checkout, error) {
	return e.seedCheckout("Taxed Shop", "taxed-shop", []byte(TaxesConfig))
}

func (e *Env) seedCheckout(name, subdomain string, config []byte) (*Checkout, error) {
	st, key, err := e.Svc.Stores.Create(app.NewStore{Name: name, Subdomain: subdomain, Currency: "USD"})
	if err != nil {
		return nil, err
	}
	// the checkouts return to the store's front-end: its origin is listed
	if _, err := e.Svc.Stores.PatchConfig(st.ID, []byte(`{"callback_origins":["https://shop.example"]}`)); err != nil {
		return nil, err
	}
	if config != nil {
		if _, err := e.Svc.Stores.PatchConfig(st.ID, config); err != nil {
			return nil, err
		}
	}
	pname, price, stock := "Mug", app.Money(1250), int64(app.MaxStock)
	p, err := e.Svc.Catalog.SaveProduct(st.ID, 0, app.ProductInput{Name: &pname, Price: &price, Stock: &stock})
	if err != nil {
		return nil, err
	}
	in := app.CheckoutInput{ReceiverName: "Ada Lovelace", Phone: "+15550100", Address: "1 Main St", Email: "ada@example.com",
		Currency: "USD", Items: []app.CheckoutItem{{ProductID: p.ID, Quantity: 1, UnitPrice: &price}},
		PaymentMethod: app.WalletA, CallbackURL: "https://shop.example/return"}
	zero := app.Money(0)
	in.DeliveryFee = &zero
	body, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	res, err := e.Svc.Orders.Initiate(st.ID, 0, in, app.Idempotency{})
	if err != nil {
		return nil, err
	}
	c := &Checkout{Key: key, StoreID: st.ID, ProductID: p.ID, Body: body}
	err = e.DB.View(func(tx app.Tx) error {
		o, err := tx.Order(st.ID, res.OrderID)
		if err != nil {
			return err
		}
		ps, err := tx.PaymentSession(st.ID, 1) // the store's first session

		if err != nil {
			return err
		}
		ob, _ := json.Marshal(o)
		pb, _ := json.Marshal(ps)
		c.RecordSize = len(ob) + len(pb)
		c.Amount = ps.Amount
		return nil
	})
	return c, err
}
