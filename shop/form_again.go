package shop

import (
	"cmp"
	"net/url"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit/pagekit"
)

// A form whose CSRF token no longer holds (the session expired, the page
// stayed open for days, the cookies were cleared) is shown again rather
// than answered with a bare error page: the same form with what the
// shopper typed (never a password), a fresh token and the note
// form.expired, status 403 (Shop.form). Nothing is done with it: the
// shopper checks it and sends it again.

// expired is the note of a form shown again.
func expired(rq *request) string { return rq.L.T("form.expired") }

// readd is the product page's add-to-cart form shown again on the cart page.
type readd struct {
	app.CheckoutItem
	Name string
}

// cartAgain shows a cart form again: the cart as it is with the note; an
// update's quantity in its line as typed, a coupon as typed, and the
// product page's add form as a button that adds it.
func (s *Shop) cartAgain(c *fiber.Ctx, rq *request) error {
	d := cartData{Error: expired(rq), Delivery: c.Query("delivery")}
	switch {
	case strings.HasPrefix(c.Path(), "/cart/coupon"):
		fv, _ := pagekit.DecodeForm(c.Body(), maxCartForm, couponFields)
		d.CouponInput = fv["coupon"]
	case strings.HasPrefix(c.Path(), "/cart/update"):
		if f, err := decodeCartForm(c.Body()); err == nil {
			d.Typed = &f
		}
	case strings.HasPrefix(c.Path(), "/cart/add"):
		f, err := decodeCartForm(c.Body())
		if err == nil && f.Quantity >= 1 {
			if q, _, _, err := s.quote(rq, []app.CheckoutItem{f}, "", ""); err == nil && len(q.Items) == 1 {
				d.Readd = &readd{f, q.Items[0].Name}
			}
		}
	}
	return s.showCart(c, rq, fiber.StatusForbidden, d)
}

// checkoutAgain shows the checkout form again with what was typed.
func (s *Shop) checkoutAgain(c *fiber.Ctx, rq *request, items []app.CheckoutItem) error {
	f, _ := decodeCheckoutForm(c.Body())
	return s.showCheckout(c, rq, fiber.StatusForbidden, items, checkoutData{Form: f, Error: expired(rq)})
}

// contactAgain shows the contact form again with what was typed.
func (s *Shop) contactAgain(c *fiber.Ctx, rq *request) error {
	f, _ := decodeContactForm(c.Body())
	f.Alert = expired(rq)
	return s.renderContact(c, rq, fiber.StatusForbidden, f)
}

// reviewAgain shows the product page again with the review as typed. A
// guest (whose session ended) has no review form: the error page says to
// reload, and the page then offers to sign in.
func (s *Shop) reviewAgain(c *fiber.Ctx, rq *request) error {
	slug, _ := url.PathUnescape(c.Params("slug"))
	if rq.Customer == nil {
		return app.Errorf(app.EForbidden, "%s", rq.L.T("error.csrf"))
	}
	form, _ := decodeReviewForm(c.Body())
	d, err := s.loadProduct(c, rq, slug)
	if err != nil {
		return err
	}
	form.Message = expired(rq)
	d.Review = form
	return s.renderProduct(c, rq, fiber.StatusForbidden, d)
}

// again shows an account form again with the values typed (newForm
// leaves passwords out) and the note as its refusal (403).
func (s *Shop) again(f accountForm) pageFunc {
	return func(c *fiber.Ctx, rq *request) error {
		vals, _ := decodeAccountForm(c.Body(), f.fields)
		return s.formFail(c, rq, f.view(rq, vals), app.Errorf(app.EForbidden, "%s", expired(rq)))
	}
}

// typedAge is how long the checkout form comes back filled from an order
// that was not paid.
const typedAge = 24 * time.Hour

// typedBefore fills f with what this browser typed at its last checkout
// (the order its cart cookie names) when that order was not paid (the
// payment failed or was cancelled) and is less than typedAge old, placed
// by the same shopper (or as a guest, by a guest): the form comes back as
// the shopper left it. The order is where it is kept: nothing more is
// stored, and no card data ever reaches the shop.
func (s *Shop) typedBefore(c *fiber.Ctx, rq *request, f *checkoutForm) error {
	cc := s.readCart(c, rq)
	if cc.Order == 0 {
		return nil
	}
	o, err := s.svc.Orders.Order(rq.Store.ID, cc.Order)
	if app.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if o.CustomerID != rq.customerID() || o.PaymentStatus == app.PaymentPaid || s.svc.Now().Sub(o.CreatedAt) > typedAge {
		return nil
	}
	f.Email, f.ReceiverName, f.Phone = o.Email, o.ReceiverName, o.Phone
	if !o.Pickup {
		f.Address = o.Address
	}
	f.Delivery, f.PaymentMethod = cmp.Or(f.Delivery, o.DeliveryOption), cmp.Or(o.PaymentMethod, f.PaymentMethod)
	return nil
}
