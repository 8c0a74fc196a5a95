package shop

import (
	"sort"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
	"storefront/httpkit/pagekit"
)

// registerCartRoutes adds the cart and checkout pages.
func (s *Shop) registerCartRoutes(a *fiber.App) {
	a.Get("/cart", s.page(s.cartPage))
	a.Post("/cart/add", s.form(s.cartAdd, s.cartAgain))
	a.Post("/cart/update", s.form(s.cartUpdate, s.cartAgain))
	a.Post("/cart/remove", s.form(s.cartRemove, s.cartAgain))
	a.Post("/cart/coupon", s.form(s.cartCoupon, s.cartAgain))
	a.Get("/checkout", s.page(s.checkoutPage))
	a.Post("/checkout", s.form(s.checkoutPlace, s.checkoutAgain))
	a.Get("/checkout/return", s.page(s.checkoutReturn))
}

// cartStore is where a shopper's cart lines live: the signed cookie of a
// guest (cookieStore) or the API cart of a signed-in shopper (apiStore).
// Lines are named by product and variant in both. The storefront API's own
// guest cart can replace cookieStore behind this interface.
type cartStore interface {
	// lines are the cart's lines, oldest first.
	lines() ([]app.CheckoutItem, error)
	// add puts qty units of a product or variant in the cart (a line of
	// the same product and variant grows). Errors: validation_failed.
	add(productID, variantID uint64, qty int64) error
	// set changes a line's quantity. Errors: validation_failed, not_found.
	set(productID, variantID uint64, qty int64) error
	// remove drops a line (absent: nothing happens).
	remove(productID, variantID uint64) error
}

// cartOf is the cart of rq's shopper, or of the guest's browser.
func (s *Shop) cartOf(c *fiber.Ctx, rq *request) cartStore {
	if rq.Customer != nil {
		return apiStore{carts: s.svc.Carts, owner: app.ShopperCart(rq.shopper())}
	}
	return &cookieStore{s: s, c: c, rq: rq}
}

// apiStore is a cart of the storefront API: a signed-in shopper's (or,
// with app.GuestCartOwner, the API's guest cart).
type apiStore struct {
	carts *app.CartService
	owner app.CartOwner
}

func (a apiStore) lines() ([]app.CheckoutItem, error) {
	v, err := a.carts.Cart(a.owner)
	if err != nil {
		return nil, err
	}
	out := make([]app.CheckoutItem, 0, len(v.Items))
	for _, it := range v.Items {
		out = append(out, app.CheckoutItem{ProductID: it.ProductID, VariantID: variantOf(it), Quantity: it.Quantity})
	}
	return out, nil
}

func (a apiStore) add(productID, variantID uint64, qty int64) error {
	_, err := a.carts.Add(a.owner, app.CartInput{ProductID: productID, VariantID: variantID, Quantity: &qty, AddedVia: "shop"})
	return err
}

func (a apiStore) set(productID, variantID uint64, qty int64) error {
	id, err := a.itemID(productID, variantID)
	if err == nil {
		_, err = a.carts.SetQuantity(a.owner, id, qty)
	}
	return err
}

func (a apiStore) remove(productID, variantID uint64) error {
	id, err := a.itemID(productID, variantID)
	if app.IsNotFound(err) {
		return nil
	}
	if err == nil {
		err = a.carts.Remove(a.owner, id)
	}
	if app.IsNotFound(err) {
		return nil
	}
	return err
}

// itemID is the id of the line of a product and variant. Errors: not_found.
func (a apiStore) itemID(productID, variantID uint64) (uint64, error) {
	v, err := a.carts.Cart(a.owner)
	if err != nil {
		return 0, err
	}
	for _, it := range v.Items {
		if it.ProductID == productID && variantOf(it) == variantID {
			return it.ID, nil
		}
	}
	return 0, app.NotFound("cart item")
}

func variantOf(it app.CartItemView) uint64 {
	if it.VariantID == nil {
		return 0
	}
	return *it.VariantID
}

// cartForm is the body of the cart's forms (add, update, remove).
type cartForm struct {
	ProductID, VariantID uint64
	Quantity             int64
}

// maxCartForm bounds the body of a cart or checkout form.
const maxCartForm = 8 << 10

// cartFields are the cart forms' fields.
var cartFields = []pagekit.Field{{Name: "product_id", Max: 40}, {Name: "variant_id", Max: 40}, {Name: "quantity", Max: 40}}

// decodeCartForm reads a cart form: product_id (required), variant_id
// (empty or absent: none), quantity (empty or absent: 1; 0 is allowed,
// for an update that removes the line). Errors: validation_failed.
func decodeCartForm(body []byte) (cartForm, error) {
	vals, err := pagekit.DecodeForm(body, maxCartForm, cartFields)
	if err != nil {
		return cartForm{}, err
	}
	var v app.Validation
	f := cartForm{ProductID: vals.ID(&v, "product_id", "is required"), VariantID: vals.ID(&v, "variant_id", "must be a number"),
		Quantity: vals.Int(&v, "quantity", 1, 0, app.MaxLineQuantity, "must be between 1 and 1000")}
	v.Check(f.ProductID != 0, "product_id", "is required")
	return f, v.Err()
}

// cartData is what the cart page shows.
type cartData struct {
	Quote app.CartQuote
	// Coupon is the code applied; CouponInput what was typed (kept on
	// error), CouponError the server's message about it.
	Coupon, CouponInput, CouponError string
	// Delivery is the id of the delivery option the totals are for;
	// Options the options offered with their fees for this cart.
	Delivery string
	Options  deliveryChoices
	Notice   string // a message key: what the last form did
	Error    string // what went wrong with the last form
	// Short names the lines stock cannot serve (out of the totals);
	// NoPayment: the store accepts no payment method. Either stops checkout.
	Short     []string
	NoPayment bool
	// Typed is an update form shown again (form_again.go): its quantity
	// stands in its line as typed. Readd is the product page's add form
	// shown again.
	Typed *cartForm
	Readd *readd
}

// QtyOf is the quantity the line of a product and variant shows: qty, or
// the one typed in a form shown again.
func (d cartData) QtyOf(productID, variantID uint64, qty int64) int64 {
	if t := d.Typed; t != nil && t.ProductID == productID && t.VariantID == variantID {
		return t.Quantity
	}
	return qty
}

// Keep is the query the cart's forms carry (keptQuery).
func (d cartData) Keep() string { return keptQuery(d.Delivery) }

// CanCheckout reports whether the cart may go on to checkout.
func (d cartData) CanCheckout() bool { return len(d.Short) == 0 && !d.NoPayment }

// shortLines names the lines of q stock cannot serve, with what is left.
func shortLines(q app.CartQuote) []string {
	var out []string
	for _, l := range q.Items {
		if !l.Short {
			continue
		}
		if l.Stock <= 0 {
			out = append(out, l.Name+": "+msg("cart.stock.out"))
		} else {
			out = append(out, l.Name+": "+msgf("cart.stock.low", l.Stock))
		}
	}
	return out
}

// notices are the messages a redirect may name (?m=).
var notices = map[string]string{"short": "cart.short", "added": "cart.added", "updated": "cart.updated", "removed": "cart.removed",
	"coupon": "cart.coupon.applied", "nocoupon": "cart.coupon.removed"}

// cartPage serves GET /cart/: the lines, the coupon, the delivery options
// and the server's totals.
func (s *Shop) cartPage(c *fiber.Ctx, rq *request) error {
	return s.showCart(c, rq, fiber.StatusOK, cartData{Notice: notices[c.Query("m")], Delivery: c.Query("delivery")})
}

// showCart renders the cart page with d (its quote filled in here).
func (s *Shop) showCart(c *fiber.Ctx, rq *request, status int, d cartData) error {
	items, err := s.cartOf(c, rq).lines()
	if err != nil {
		return err
	}
	d.Coupon = s.readCart(c, rq).Coupon
	var couponErr string
	d.Quote, d.Delivery, couponErr, err = s.quote(rq, items, d.Coupon, d.Delivery)
	if err != nil {
		return err
	}
	d.Options = choicesOf(d.Quote)
	d.Short, d.NoPayment = shortLines(d.Quote), len(s.methodsOf(rq.Store)) == 0
	if d.CouponError == "" {
		d.CouponError = couponErr
	}
	if contradicts(d.Notice, len(d.Quote.Items) == 0) {
		d.Notice = ""
	}
	var n int64
	for _, l := range d.Quote.Items {
		n += l.Quantity
	}
	s.setCount(c, n)
	return s.render(c, rq, status, "cart", pageMeta{Title: msg("cart.title"), Description: msg("cart.desc"), NoIndex: true}, d)
}

// quote prices a cart's lines with the coupon and the delivery option of id
// (unknown or "": the first). A coupon that no longer applies is left out
// of the totals and its message returned as couponErr.
func (s *Shop) quote(rq *request, items []app.CheckoutItem, coupon, id string) (q app.CartQuote, delivery, couponErr string, err error) {
	opt := deliveryOption(rq.Store.Settings().DeliveryOptions, id)
	in := app.QuoteInput{Items: items, CouponCode: coupon}
	if opt != nil { // its rule (free_over) sets the fee
		in.DeliveryOption, delivery = opt.ID, opt.ID
	}
	q, err = s.svc.Orders.Quote(rq.Store.ID, in)
	if err != nil && coupon != "" && fieldError(err, "coupon_code") != "" {
		couponErr = fieldError(err, "coupon_code")
		in.CouponCode = ""
		q, err = s.svc.Orders.Quote(rq.Store.ID, in)
	}
	return q, delivery, couponErr, err
}

// deliveryOption is the option of id, else the first (nil: none).
func deliveryOption(opts []app.DeliveryOption, id string) *app.DeliveryOption {
	for i := range opts {
		if opts[i].ID == id {
			return &opts[i]
		}
	}
	if len(opts) > 0 {
		return &opts[0]
	}
	return nil
}

// deliveryChoice is a delivery option as the cart and checkout offer it:
// its fee for the cart (app.DeliveryOption.FeeFor), and how much more the
// cart needs for it to be free (FreeIn).
type deliveryChoice struct {
	ID, Name     string
	Fee, FreeIn  app.Money
	NeedsAddress bool
}

type deliveryChoices []deliveryChoice

// choicesOf are the options of q with their fees for q's subtotal after
// discounts.
func choicesOf(q app.CartQuote) deliveryChoices {
	net := q.Subtotal - q.Discount
	out := make(deliveryChoices, 0, len(q.Delivery))
	for _, o := range q.Delivery {
		out = append(out, deliveryChoice{ID: o.ID, Name: o.Name, Fee: o.FeeFor(net), FreeIn: o.FreeIn(net), NeedsAddress: o.NeedsAddress})
	}
	return out
}

// Of is the choice of id (nil: none).
func (cs deliveryChoices) Of(id string) *deliveryChoice {
	for i := range cs {
		if cs[i].ID == id {
			return &cs[i]
		}
	}
	return nil
}

// NeedAddress reports whether every option needs an address (the
// checkout's address field is then required as typed).
func (cs deliveryChoices) NeedAddress() bool {
	for _, c := range cs {
		if !c.NeedsAddress {
			return false
		}
	}
	return true
}

// fieldError is the message of a validation error about field ("" when err
// is no such error).
func fieldError(err error, field string) string {
	if e, ok := err.(*app.Error); ok && (e.Code == app.EValidation || e.Code == app.EPriceChanged) {
		return e.Fields[field]
	}
	return ""
}

// formError is what a page says of a form's error: the message of a
// domain error (ours for the codes we word, else the server's), with the
// field messages that shown (nil: none) does not put next to a field;
// and the status of the answer. An internal error is returned to become
// the error page.
func formError(err error, shown func(field string) bool) (string, int, error) {
	code := app.ErrorCode(err)
	if code == app.EInternal {
		return "", 0, err
	}
	m := app.ErrorMessage(err)
	if k := "cart.err." + code; messages[k] != "" {
		m = msg(k)
	}
	if e, ok := err.(*app.Error); ok {
		keys := make([]string, 0, len(e.Fields))
		for f := range e.Fields {
			keys = append(keys, f)
		}
		sort.Strings(keys)
		for _, f := range keys {
			if f != "idempotency_key" && (shown == nil || !shown(f)) {
				m += " " + fieldLabel(f) + " " + e.Fields[f] + "."
			}
		}
	}
	return m, httpkit.StatusOf(code), nil
}

// fieldLabel names a field of an app error for a shopper: "Quantity", or
// "Line 2" for a field of an order line.
func fieldLabel(f string) string {
	if rest, ok := strings.CutPrefix(f, "items["); ok {
		if n, _, ok := strings.Cut(rest, "]"); ok {
			if i, err := strconv.Atoi(n); err == nil {
				return msgf("field.line", i+1)
			}
		}
	}
	if l, ok := messages["field."+f]; ok {
		return l
	}
	return f
}

// cartFail renders the cart with the error of a cart form.
func (s *Shop) cartFail(c *fiber.Ctx, rq *request, err error) error {
	m, status, err := formError(err, nil)
	if err != nil {
		return err
	}
	return s.showCart(c, rq, status, cartData{Error: m})
}

// cartAdd serves POST /cart/add (product_id, variant_id, quantity): the
// product page's form.
func (s *Shop) cartAdd(c *fiber.Ctx, rq *request) error {
	f, err := decodeCartForm(c.Body())
	if err == nil && f.Quantity < 1 {
		err = app.Invalid("quantity", "must be between 1 and 1000")
	}
	if err == nil && f.VariantID == 0 { // the picker's options, posted without JavaScript (variants.go)
		f.VariantID, err = s.chosenVariant(rq, f.ProductID, c.Body())
	}
	if err == nil {
		err = s.cartOf(c, rq).add(f.ProductID, f.VariantID, f.Quantity)
	}
	if err != nil {
		return s.cartFail(c, rq, err)
	}
	return s.cartDone(c, rq, "added")
}

// cartUpdate serves POST /cart/update (product_id, variant_id, quantity;
// 0 removes the line).
func (s *Shop) cartUpdate(c *fiber.Ctx, rq *request) error {
	f, err := decodeCartForm(c.Body())
	if err == nil {
		if f.Quantity == 0 {
			err = s.cartOf(c, rq).remove(f.ProductID, f.VariantID)
		} else {
			err = s.cartOf(c, rq).set(f.ProductID, f.VariantID, f.Quantity)
		}
	}
	if err != nil {
		return s.cartFail(c, rq, err)
	}
	return s.cartDone(c, rq, "updated")
}

// cartRemove serves POST /cart/remove (product_id, variant_id).
func (s *Shop) cartRemove(c *fiber.Ctx, rq *request) error {
	f, err := decodeCartForm(c.Body())
	if err == nil {
		err = s.cartOf(c, rq).remove(f.ProductID, f.VariantID)
	}
	if err != nil {
		return s.cartFail(c, rq, err)
	}
	return s.cartDone(c, rq, "removed")
}

// couponFields are the cart's coupon form (a long code is clipped: its
// own message says how long a code may be).
var couponFields = []pagekit.Field{{Name: "coupon", Max: 200, Clip: true}, {Name: "remove", Max: 10}}

// cartCoupon serves POST /cart/coupon (coupon; remove=1 takes it off):
// a code is kept only when the server's pricing takes it.
func (s *Shop) cartCoupon(c *fiber.Ctx, rq *request) error {
	fv, err := pagekit.DecodeForm(c.Body(), maxCartForm, couponFields)
	if err != nil {
		return s.cartFail(c, rq, err)
	}
	cc := s.readCart(c, rq)
	if fv["remove"] != "" {
		cc.Coupon = ""
		if err := s.writeCart(c, rq, cc); err != nil {
			return s.cartFail(c, rq, err)
		}
		return cartRedirect(c, "nocoupon")
	}
	typed := fv["coupon"]
	code := app.NormalizeCouponCode(typed)
	items, err := s.cartOf(c, rq).lines()
	if err != nil {
		return err
	}
	bad := ""
	switch {
	case code == "":
		bad = msg("cart.coupon.required")
	case len(code) > maxCoupon:
		bad = "must be at most 50 characters"
	default:
		if _, _, bad, err = s.quote(rq, items, code, ""); err != nil {
			return err
		}
	}
	if bad != "" {
		return s.showCart(c, rq, fiber.StatusBadRequest, cartData{CouponInput: typed, CouponError: bad})
	}
	cc.Coupon = code
	if err := s.writeCart(c, rq, cc); err != nil {
		return s.cartFail(c, rq, err)
	}
	return cartRedirect(c, "coupon")
}

// cartMessages are the strings of the cart and checkout pages.
var cartMessages = map[string]string{
	// cart
	"cart.title":            "Your cart",
	"cart.desc":             "The items in your cart, their quantities, your coupon and the totals.",
	"cart.empty":            "Your cart is empty.",
	"cart.continue":         "Continue shopping",
	"cart.product":          "Product",
	"cart.price":            "Price",
	"cart.quantity":         "Quantity",
	"cart.quantity.of":      "Quantity of %s",
	"cart.total":            "Total",
	"cart.update":           "Update",
	"cart.remove":           "Remove",
	"cart.remove.of":        "Remove %s",
	"cart.less.of":          "Decrease quantity of %s",
	"cart.more.of":          "Increase quantity of %s",
	"cart.stock.low":        "Only %d left",
	"cart.stock.out":        "Out of stock",
	"cart.dropped":          "Some items are no longer available and were left out.",
	"cart.short":            "Some items cannot be ordered as they are: change or remove them to check out.",
	"cart.short.line":       "Not counted in the total",
	"cart.nopay":            "This shop cannot take payments yet, so orders cannot be placed. Please come back later.",
	"cart.nopay.owner":      "Shop owner: set up a payment method in the admin panel (Settings › Payment methods, and Payments on the store's overview).",
	"cart.added":            "Added to your cart.",
	"cart.readd":            "Add %d × %s to your cart",
	"cart.live.total":       "Total: %s",
	"cart.updated":          "Your cart was updated.",
	"cart.removed":          "The item was removed.",
	"cart.full":             "Your cart is full: remove something first.",
	"cart.coupon":           "Coupon code",
	"cart.coupon.apply":     "Apply",
	"cart.coupon.remove":    "Remove coupon",
	"cart.coupon.applied":   "The coupon was applied.",
	"cart.coupon.removed":   "The coupon was removed.",
	"cart.coupon.required":  "Enter a coupon code.",
	"cart.coupon.current":   "Coupon %s",
	"cart.delivery":         "Delivery",
	"cart.delivery.update":  "Update delivery",
	"cart.delivery.free":    "Free",
	"cart.delivery.freein":  "Add %s more for free %s.",
	"cart.subtotal":         "Subtotal",
	"cart.discount":         "Discount",
	"cart.deliveryfee":      "Delivery",
	"cart.grandtotal":       "Total",
	"cart.tax.plus":         "plus %s %s%%",
	"cart.tax.incl":         "incl. %s %s%%",
	"price.tax.incl":        "incl. %s",
	"price.tax.plus":        "plus tax",
	"cart.summary":          "Order summary",
	"cart.checkout":         "Go to checkout",
	"cart.err.out_of_stock": "Not enough stock.",
	"cart.err.rate_limited": "Too many orders were placed from here. Pay for the open ones or try again later.",
	"cart.err.test_payments_refused": "This shop takes real payments only: the test payment method cannot be used. " +
		"Choose another payment method.",
	"cart.err.price_changed":                "Prices changed since you opened this page. Check the totals and place the order again.",
	"cart.err.conflict":                     "This order form was already sent with other details. Check the details and place the order again.",
	"cart.err.email_not_verified":           "Verify your email address before placing an order.",
	"cart.err.payment_provider_unavailable": "The payment service could not be reached. Please try again in a moment.",
	"cart.err.not_found":                    "That item is not in your cart.",
	"field.line":                            "Line %d:",
	"field.product_id":                      "Product:",
	"field.variant_id":                      "Variant:",
	"field.quantity":                        "Quantity:",
	"field.coupon_code":                     "Coupon:",
	"field.body":                            "Form:",
	"field.items":                           "Items:",

	// checkout
	"checkout.title":          "Checkout",
	"checkout.desc":           "Your contact and delivery details, the delivery option and the payment method.",
	"checkout.contact":        "Contact",
	"checkout.email":          "Email",
	"checkout.receiver_name":  "Full name",
	"checkout.phone":          "Phone",
	"checkout.address":        "Delivery address",
	"checkout.noaddress":      "no address needed",
	"checkout.delivery":       "Delivery option",
	"checkout.payment":        "Payment method",
	"checkout.place":          "Place order and pay",
	"checkout.back":           "Back to cart",
	"checkout.coupon.dropped": "The coupon no longer applies and was left out:",
	"checkout.required":       "required",
	"checkout.test":           "Test mode: you will pay on the sandbox page, no money moves.",
	"checkout.method.test":    "test mode",
	"checkout.verify":         "Verify your email address",

	// payment return
	"return.paid.title":   "Thank you for your order",
	"return.paid.lead":    "Your payment was received. Order number: %d.",
	"return.next":         "What happens next",
	"return.orderlink":    "Follow your order on its own page (keep this link)",
	"order.link.help":     "A question about this order? Contact us",
	"return.next.text":    "We will email you a confirmation and let you know when your order ships.",
	"return.deliver.to":   "Delivering to",
	"return.pickup":       "Pickup (no delivery address)",
	"return.failed.title": "Payment not completed",
	"return.failed.lead":  "Your payment for order %d did not go through.",
	"return.retry":        "Try the payment again",
	"return.cart":         "Back to your cart",
	"return.shop":         "Continue shopping",
}
