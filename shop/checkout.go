package shop

import (
	"cmp"
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/app/i18n"
	"storefront/httpkit/pagekit"
)

// checkoutForm is the checkout page's form. Field names are the API's
// (payment/initiate), so the app's field errors land next to them.
type checkoutForm struct {
	Email, ReceiverName, Phone, Address string
	Delivery                            string // a delivery option's id
	PaymentMethod                       string
	// Key is the idempotency key the page was rendered with: a second
	// submit of the same page places no second order.
	Key string
}

// checkoutFields are the form's fields and their longest accepted value.
var checkoutFields = []pagekit.Field{{Name: "email", Max: 254}, {Name: "receiver_name", Max: 200}, {Name: "phone", Max: 40},
	{Name: "address", Max: 500}, {Name: "delivery", Max: 100}, {Name: "payment_method", Max: 40}, {Name: "idempotency_key", Max: 64}}

// decodeCheckoutForm reads the checkout form (pagekit.DecodeForm). An
// idempotency_key that is not 32 hex digits is replaced by a new one.
func decodeCheckoutForm(body []byte) (checkoutForm, error) {
	vals, err := pagekit.DecodeForm(body, maxCartForm, checkoutFields)
	f := checkoutForm{Email: vals["email"], ReceiverName: vals["receiver_name"], Phone: vals["phone"],
		Address: vals["address"], Delivery: vals["delivery"], PaymentMethod: vals["payment_method"], Key: vals["idempotency_key"]}
	if len(f.Key) != 32 || strings.Trim(f.Key, "0123456789abcdef") != "" {
		f.Key = app.RandomHex(16)
	}
	return f, err
}

// checkoutData is what the checkout page shows.
type checkoutData struct {
	Form   checkoutForm
	Errors map[string]string // field -> the server's message
	Error  string            // about the whole form
	Quote  app.CartQuote
	// Options are the delivery options with their fees for this cart.
	Options deliveryChoices
	Coupon  string
	// Methods are the payment methods the store's checkout accepts.
	Methods []app.OfferedMethod
	// Test: a method takes test payments (the sandbox): no money moves.
	Test bool
	// Verify: the order was refused until the shopper verifies their
	// email address; the message links to the verification page.
	Verify bool
	// NoPayment: the store accepts no payment method: no form is shown.
	NoPayment bool
}

// methodsOf are the payment methods a store's checkout accepts, in its
// order: the ones the API's payment-methods/ lists (same rule), each named
// (by its code when the store gave it no name).
func (s *Shop) methodsOf(st *app.Store) []app.OfferedMethod {
	ms := s.svc.Payments.OfferedMethods(st)
	for i := range ms {
		ms[i].Name = cmp.Or(ms[i].Name, ms[i].Code)
	}
	return ms
}

// withLines runs a checkout page with the cart's lines; an empty cart
// goes back to the cart page.
func (s *Shop) withLines(fn func(c *fiber.Ctx, rq *request, items []app.CheckoutItem) error) pageFunc {
	return func(c *fiber.Ctx, rq *request) error {
		items, err := s.cartOf(c, rq).lines()
		if err != nil {
			return err
		}
		if len(items) == 0 {
			return redirect(c, "/cart/")
		}
		return fn(c, rq, items)
	}
}

// checkoutPage serves GET /checkout/: the contact and delivery form
// (prefilled for a signed-in shopper), the delivery option, the payment
// method and the server's totals. An empty cart goes back to the cart.
func (s *Shop) checkoutPage(c *fiber.Ctx, rq *request, items []app.CheckoutItem) error {
	f := checkoutForm{Delivery: c.Query("delivery"), Key: app.RandomHex(16)}
	if ms := s.methodsOf(rq.Store); len(ms) > 0 {
		f.PaymentMethod = ms[0].Code
	}
	if rq.Customer != nil {
		if err := s.prefill(rq, &f); err != nil {
			return err
		}
	}
	if err := s.typedBefore(c, rq, &f); err != nil { // after a failed payment
		return err
	}
	return s.showCheckout(c, rq, fiber.StatusOK, items, checkoutData{Form: f})
}

// prefill fills the form from the shopper's profile and default address
// (else the first saved one).
func (s *Shop) prefill(rq *request, f *checkoutForm) error {
	cu := rq.Customer
	f.Email, f.Phone = cu.Email, cu.Phone
	f.ReceiverName = strings.TrimSpace(cu.FirstName + " " + cu.LastName)
	sh := rq.shopper()
	addrs, err := s.svc.Customers.Addresses(&sh)
	if err != nil || len(addrs) == 0 {
		return err
	}
	a := addrs[max(0, slices.IndexFunc(addrs, func(x *app.Address) bool { return x.IsDefault }))]
	f.ReceiverName, f.Phone = cmp.Or(a.ReceiverName, f.ReceiverName), cmp.Or(a.Phone, f.Phone)
	var parts []string
	for _, p := range []string{a.AddressLine1, a.AddressLine2, a.Area, a.City, a.PostalCode} {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	f.Address = strings.Join(parts, ", ")
	return nil
}

// showCheckout renders the checkout page with d (totals filled in here).
func (s *Shop) showCheckout(c *fiber.Ctx, rq *request, status int, items []app.CheckoutItem, d checkoutData) error {
	if d.Form.Key == "" {
		d.Form.Key = app.RandomHex(16)
	}
	d.Coupon = s.readCart(c, rq).Coupon
	var couponErr string
	var err error
	d.Quote, d.Form.Delivery, couponErr, err = s.quote(rq, items, d.Coupon, d.Form.Delivery)
	if err != nil {
		return err
	}
	d.Options = choicesOf(d.Quote)
	if len(shortLines(d.Quote, rq.L)) > 0 { // refused until the cart is changed
		return redirect(c, "/cart/?m=short")
	}
	if couponErr != "" {
		d.Coupon = ""
		d.Error = cmp.Or(d.Error, rq.L.T("checkout.coupon.dropped")+" "+couponErr)
	}
	d.Methods = s.methodsOf(rq.Store)
	d.NoPayment, d.Test = len(d.Methods) == 0, slices.ContainsFunc(d.Methods, func(m app.OfferedMethod) bool { return m.Test })
	return s.render(c, rq, status, "checkout", pageMeta{Title: rq.L.T("checkout.title"), Description: rq.L.T("checkout.desc"), NoIndex: true}, d)
}

// checkoutPlace serves POST /checkout/: it places the order through the
// service the API's payment/initiate calls (with the page's idempotency
// key: a double submit places one order) and sends the shopper to the
// gateway (303). A refused order gets the page back with the server's
// messages next to the fields and the values kept.
func (s *Shop) checkoutPlace(c *fiber.Ctx, rq *request, items []app.CheckoutItem) error {
	f, err := decodeCheckoutForm(c.Body())
	if err != nil {
		return s.checkoutFail(c, rq, items, f, err)
	}
	cc := s.readCart(c, rq)
	in := app.CheckoutInput{ReceiverName: f.ReceiverName, Phone: f.Phone, Address: f.Address, Email: f.Email,
		Currency: rq.Store.Currency, CouponCode: cc.Coupon, Items: items, PaymentMethod: f.PaymentMethod,
		CallbackURL: s.baseURL(c) + "/checkout/return/"}
	if opt := deliveryOption(rq.Store.Settings().DeliveryOptions, f.Delivery); opt != nil {
		in.DeliveryOption = opt.ID // its rule sets the fee; a pickup takes no address
	}
	res, err := s.svc.Orders.InitiateFrom(rq.Store.ID, rq.customerID(), s.proxies.ClientIP(c), in,
		app.Idempotency{Key: f.Key, Name: "idempotency_key"})
	if err != nil {
		return s.checkoutFail(c, rq, items, f, err)
	}
	cc.Order = res.OrderID
	if err := s.writeCart(c, rq, cc); err != nil {
		s.log.Warn("shop: keeping the order in the cart cookie", "store_id", rq.Store.ID, "err", err)
	}
	return c.Redirect(res.RedirectURL, fiber.StatusSeeOther)
}

// checkoutFail renders the checkout page again with err's messages: field
// errors next to their fields, the rest above the form.
func (s *Shop) checkoutFail(c *fiber.Ctx, rq *request, items []app.CheckoutItem, f checkoutForm, err error) error {
	m, beside, status, ierr := formError(rq.L, err, "cart.err.", func(f string) string { return checkoutLabel(rq.L, f) })
	if ierr != nil {
		return ierr
	}
	d := checkoutData{Form: f, Errors: beside, Error: m, Verify: app.ErrorCode(err) == app.EEmailNotVerified}
	if app.ErrorCode(err) == app.EConflict {
		d.Form.Key = "" // the key went with other details: the next submit is a new order
	}
	return s.showCheckout(c, rq, status, items, d)
}

// checkoutLabel is the label of a field the checkout form shows a message
// beside (checkout.email, ...; "" for any other).
func checkoutLabel(l *i18n.Catalog, f string) string {
	if f == "idempotency_key" || !slices.ContainsFunc(checkoutFields, func(fd pagekit.Field) bool { return fd.Name == f }) {
		return ""
	}
	if f == "payment_method" {
		f = "payment"
	}
	return l.T("checkout." + f)
}

// maxReturnParams bounds the query parameters a gateway return carries.
const maxReturnParams = 20

// returnData is what the payment return page shows.
type returnData struct {
	Paid    bool
	OrderID uint64
	// Order is the order's detail, shown to the browser that placed it
	// (the cart cookie names it) or to its signed-in shopper; nil otherwise.
	Order   *app.Order
	Message string // the gateway's, on failure
	// Retry is where the shopper pays again ("" when it cannot).
	Retry string
	// OrderLink is the order's own signed page, with Order (guest_order.go).
	OrderLink string
}

// checkoutReturn serves GET /checkout/return/ (the callback_url of the
// shop's checkouts): it verifies the payment through the service the API's
// payment/verify calls and shows the confirmation (order number, lines,
// totals, what happens next), or the failure with a way to try again. A
// paid order empties the guest's cookie cart (the API cart's lines are
// removed by the payment itself).
func (s *Shop) checkoutReturn(c *fiber.Ctx, rq *request) error {
	params := map[string]string{} // the gateway's (at most maxReturnParams, each at most 500 bytes; the rest dropped)
	for k, v := range c.Request().URI().QueryArgs().All() {
		if len(params) < maxReturnParams && len(k) <= 100 && len(v) <= 500 {
			params[string(k)] = string(v)
		}
	}
	res, err := s.svc.Payments.Verify(rq.Store.ID, params["payment_session_id"], params)
	if err != nil {
		return err
	}
	d := returnData{Paid: res.Success, OrderID: res.OrderID, Message: res.Message}
	cc := s.readCart(c, rq)
	if cc.Order == res.OrderID || rq.Customer != nil { // the browser that placed it, or maybe its shopper
		o, err := s.svc.Orders.Order(rq.Store.ID, res.OrderID)
		if err != nil {
			return err
		}
		if cc.Order == o.ID || o.CustomerID == rq.Customer.ID {
			d.Order = o
		}
	}
	if !d.Paid {
		if u, err := s.svc.Payments.RetryURL(rq.Store.ID, params["payment_session_id"]); err == nil {
			d.Retry = u
		}
		return s.render(c, rq, fiber.StatusOK, "payment_failed", pageMeta{Title: rq.L.T("return.failed.title"), NoIndex: true}, d)
	}
	if cc.Order == res.OrderID && (len(cc.Items) > 0 || cc.Coupon != "") {
		cc.Items, cc.Coupon = nil, ""
		_ = s.writeCart(c, rq, cc) // an emptier cart always fits
	}
	if rq.Customer != nil {
		s.syncCount(c, rq) // the payment took the API cart's lines
	}
	d.OrderLink = s.orderLink(rq.Store.ID, d.Order)
	return s.render(c, rq, fiber.StatusOK, "order_confirmation", pageMeta{Title: rq.L.T("return.paid.title"), NoIndex: true}, d)
}
