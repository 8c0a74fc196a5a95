package shop

import (
	"cmp"
	"net/url"
	"slices"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/app/i18n"
	"storefront/httpkit/pagekit"
)

// registerCartRoutes adds the cart and checkout pages.
func (s *Shop) registerCartRoutes(a *fiber.App) {
	a.Get("/cart", s.page(s.cartPage))
	a.Post("/cart/add", s.form(s.cartChange("added", s.addLine), s.cartAgain))
	a.Post("/cart/update", s.form(s.cartChange("updated", s.setLine), s.cartAgain))
	a.Post("/cart/remove", s.form(s.cartChange("removed", s.removeLine), s.cartAgain))
	a.Post("/cart/coupon", s.form(s.cartCoupon, s.cartAgain))
	a.Get("/checkout", s.page(s.withLines(s.checkoutPage)))
	a.Post("/checkout", s.form(s.withLines(s.checkoutPlace), s.withLines(s.checkoutAgain)))
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
	if err == nil {
		err = a.carts.Remove(a.owner, id)
	}
	if app.IsNotFound(err) {
		return nil // not in the cart (any more)
	}
	return err
}

// itemID is the id of the line of a product and variant. Errors: not_found.
func (a apiStore) itemID(productID, variantID uint64) (uint64, error) {
	v, err := a.carts.Cart(a.owner)
	if err != nil {
		return 0, err
	}
	i := slices.IndexFunc(v.Items, func(it app.CartItemView) bool { return it.ProductID == productID && variantOf(it) == variantID })
	if i < 0 {
		return 0, app.NotFound("cart item")
	}
	return v.Items[i].ID, nil
}

func variantOf(it app.CartItemView) uint64 {
	if it.VariantID == nil {
		return 0
	}
	return *it.VariantID
}

// maxCartForm bounds the body of a cart or checkout form.
const maxCartForm = 8 << 10

// cartFields are the cart forms' fields.
var cartFields = []pagekit.Field{{Name: "product_id", Max: 40}, {Name: "variant_id", Max: 40}, {Name: "quantity", Max: 40}}

// decodeCartForm reads a cart form (add, update, remove) as the line it
// names: product_id (required), variant_id (empty or absent: none),
// quantity (empty or absent: 1; 0 is allowed, for an update that removes
// the line). Errors: validation_failed.
func decodeCartForm(body []byte) (app.CheckoutItem, error) {
	vals, err := pagekit.DecodeForm(body, maxCartForm, cartFields)
	if err != nil {
		return app.CheckoutItem{}, err
	}
	var v app.Validation
	f := app.CheckoutItem{ProductID: vals.ID(&v, "product_id", "is required"), VariantID: vals.ID(&v, "variant_id", "must be a number"),
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
	Typed *app.CheckoutItem
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

// Keep is the query the cart's forms carry so that the delivery option
// chosen survives a change of the cart ("" for the default one).
func (d cartData) Keep() string {
	if d.Delivery == "" || len(d.Delivery) > 100 {
		return ""
	}
	return "?delivery=" + url.QueryEscape(d.Delivery)
}

// CanCheckout reports whether the cart may go on to checkout.
func (d cartData) CanCheckout() bool { return len(d.Short) == 0 && !d.NoPayment }

// shortLines names the lines of q stock cannot serve, with what is left.
func shortLines(q app.CartQuote, lang *i18n.Catalog) []string {
	var out []string
	for _, l := range q.Items {
		switch {
		case !l.Short:
		case l.Stock <= 0:
			out = append(out, l.Name+": "+lang.T("cart.stock.out"))
		default:
			out = append(out, l.Name+": "+lang.TF("cart.stock.low", l.Stock))
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
	d.Short, d.NoPayment = shortLines(d.Quote, rq.L), len(s.methodsOf(rq.Store)) == 0
	d.CouponError = cmp.Or(d.CouponError, sentence(couponErr))
	if len(d.Quote.Items) == 0 && slices.Contains([]string{"cart.added", "cart.updated", "cart.coupon.applied", "cart.short"}, d.Notice) {
		d.Notice = "" // it would contradict the empty cart: "Added to your cart." above "Your cart is empty."
	}
	var n int64
	for _, l := range d.Quote.Items {
		n += l.Quantity
	}
	s.setCount(c, n)
	return s.render(c, rq, status, "cart", pageMeta{Title: rq.L.T("cart.title"), Description: rq.L.T("cart.desc"), NoIndex: true}, d)
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
	if e, ok := err.(*app.Error); ok && coupon != "" && (e.Code == app.EValidation || e.Code == app.EPriceChanged) &&
		e.Fields["coupon_code"] != "" {
		couponErr = fieldText(rq.L, e.Fields["coupon_code"])
		in.CouponCode = ""
		q, err = s.svc.Orders.Quote(rq.Store.ID, in)
	}
	return q, delivery, couponErr, err
}

// deliveryOption is the option of id, else the first (nil: none).
func deliveryOption(opts []app.DeliveryOption, id string) *app.DeliveryOption {
	if len(opts) == 0 {
		return nil
	}
	return &opts[max(0, slices.IndexFunc(opts, func(o app.DeliveryOption) bool { return o.ID == id }))]
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
	if i := slices.IndexFunc(cs, func(c deliveryChoice) bool { return c.ID == id }); i >= 0 {
		return &cs[i]
	}
	return nil
}

// NeedAddress reports whether every option needs an address (the
// checkout's address field is then required as typed).
func (cs deliveryChoices) NeedAddress() bool {
	return !slices.ContainsFunc(cs, func(c deliveryChoice) bool { return !c.NeedsAddress })
}

// cartFail renders the cart with the error of a cart form.
func (s *Shop) cartFail(c *fiber.Ctx, rq *request, err error) error {
	m, _, status, err := formError(rq.L, err, "cart.err.", nil)
	if err != nil {
		return err
	}
	return s.showCart(c, rq, status, cartData{Error: m})
}

// cartChange serves a cart form that changes a line (POST /cart/add,
// /cart/update, /cart/remove: product_id, variant_id, quantity): do acts
// on the cart with the form, then the cart page says m; a refused form
// shows the cart with the error.
func (s *Shop) cartChange(m string, do func(c *fiber.Ctx, rq *request, f app.CheckoutItem) error) pageFunc {
	return func(c *fiber.Ctx, rq *request) error {
		f, err := decodeCartForm(c.Body())
		if err == nil {
			err = do(c, rq, f)
		}
		if err != nil {
			return s.cartFail(c, rq, err)
		}
		if rq.Customer != nil { // a guest's count went with the cart cookie
			s.syncCount(c, rq)
		}
		return cartRedirect(c, m)
	}
}

// addLine adds the product page's form: a variant named by the picker's
// options when posted without JavaScript (variants.go).
func (s *Shop) addLine(c *fiber.Ctx, rq *request, f app.CheckoutItem) error {
	if f.Quantity < 1 {
		return app.Invalid("quantity", "must be between 1 and 1000")
	}
	if f.VariantID == 0 {
		var err error
		if f.VariantID, err = s.chosenVariant(rq, f.ProductID, c.Body()); err != nil {
			return err
		}
	}
	return s.cartOf(c, rq).add(f.ProductID, f.VariantID, f.Quantity)
}

// setLine sets a line's quantity (0 removes the line).
func (s *Shop) setLine(c *fiber.Ctx, rq *request, f app.CheckoutItem) error {
	if f.Quantity == 0 {
		return s.removeLine(c, rq, f)
	}
	return s.cartOf(c, rq).set(f.ProductID, f.VariantID, f.Quantity)
}

// removeLine drops a line.
func (s *Shop) removeLine(c *fiber.Ctx, rq *request, f app.CheckoutItem) error {
	return s.cartOf(c, rq).remove(f.ProductID, f.VariantID)
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
	cc, m := s.readCart(c, rq), "nocoupon"
	cc.Coupon = "" // remove=1, or the code typed when the pricing takes it
	if fv["remove"] == "" {
		code := app.NormalizeCouponCode(fv["coupon"])
		items, err := s.cartOf(c, rq).lines()
		if err != nil {
			return err
		}
		bad := ""
		switch {
		case code == "":
			bad = rq.L.T("cart.coupon.required")
		case len(code) > maxCoupon:
			bad = fieldText(rq.L, "must be at most 50 characters")
		default:
			if _, _, bad, err = s.quote(rq, items, code, ""); err != nil {
				return err
			}
		}
		if bad != "" {
			return s.showCart(c, rq, fiber.StatusBadRequest, cartData{CouponInput: fv["coupon"], CouponError: sentence(bad)})
		}
		cc.Coupon, m = code, "coupon"
	}
	if err := s.writeCart(c, rq, cc); err != nil {
		return s.cartFail(c, rq, err)
	}
	return cartRedirect(c, m)
}
