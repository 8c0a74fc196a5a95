package app

import (
	"net/url"
	"slices"
)

// TestOrder is a test order the panel placed: its id, and where the owner
// pays it when the provider's page is needed (Stripe in test mode; "" when
// the sandbox paid it already).
type TestOrder struct {
	OrderID     uint64
	RedirectURL string
}

// StripeCheckoutOrigin is where Stripe Checkout's pages are: the only
// remote page a test order from the panel may send the browser to (the
// panel's CSP form-action lists it).
const StripeCheckoutOrigin = "https://checkout.stripe.com"

// PayTestOrder places a one-item order of the store's cheapest product in
// stock through the shoppers' checkout (payment method, email of the
// owner), for a method in test mode only, and pays it: the sandbox at once,
// Stripe through its Checkout page (RedirectURL) with a test card.
// callbackURL is where the shopper's return lands (the panel's order page).
// Errors: not_found, conflict (the method is not in test mode, or nothing
// is in stock), and checkout's errors.
func (s *Services) PayTestOrder(storeID uint64, method, email, callbackURL string) (TestOrder, error) {
	st, err := s.Stores.Get(storeID)
	if err != nil {
		return TestOrder{}, err
	}
	if !slices.Contains(s.Payments.TestMethods(st), method) {
		return TestOrder{}, Errorf(EConflict, "%s is not in test mode for this store: a test order needs the sandbox or a Stripe test key, and test mode on", method)
	}
	item, err := s.cheapestInStock(storeID)
	if err != nil {
		return TestOrder{}, err
	}
	in := CheckoutInput{ReceiverName: "Test order", Phone: "+10000000000", Address: "Test order placed from the admin panel",
		Email: email, Items: []CheckoutItem{item}, PaymentMethod: method, CallbackURL: callbackURL, panelReturn: true,
		redirectOrigin: StripeCheckoutOrigin}
	res, err := s.Orders.InitiateFrom(storeID, 0, "", in, Idempotency{})
	if err != nil {
		return TestOrder{}, err
	}
	out := TestOrder{OrderID: res.OrderID}
	if !isSandboxSession(s, res.PaymentSessionID) {
		out.RedirectURL = res.RedirectURL
		return out, nil
	}
	back, err := s.Payments.SandboxPay(res.PaymentSessionID, OutcomeSuccess)
	if err != nil {
		return out, err
	}
	u, err := url.Parse(back)
	if err != nil {
		return out, err
	}
	params := map[string]string{}
	for k, v := range u.Query() {
		params[k] = v[0]
	}
	_, err = s.Payments.Verify(storeID, res.PaymentSessionID, params)
	return out, err
}

// isSandboxSession reports whether a payment session is the sandbox's.
func isSandboxSession(s *Services, id string) bool {
	sess, err := s.Payments.session(0, id)
	return err == nil && (sess.Provider == "" || sess.Provider == ProviderSandbox)
}

// cheapestInStock is one unit of the store's cheapest active product (or
// variant) with stock. Errors: conflict when nothing is in stock.
func (s *Services) cheapestInStock(storeID uint64) (CheckoutItem, error) {
	page, err := s.Catalog.AdminProducts(storeID, AdminProductQuery{Status: "active", Sort: "price", Limit: 100})
	if err != nil {
		return CheckoutItem{}, err
	}
	for _, p := range page.Items {
		if len(p.Variants) == 0 && p.Stock > 0 {
			return CheckoutItem{ProductID: p.ID, Quantity: 1}, nil
		}
		for _, v := range p.Variants {
			if v.Stock > 0 {
				return CheckoutItem{ProductID: p.ID, VariantID: v.ID, Quantity: 1}, nil
			}
		}
	}
	return CheckoutItem{}, Errorf(EConflict, "a test order needs an active product in stock; add one first")
}
