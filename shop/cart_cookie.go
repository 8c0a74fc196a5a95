package shop

import (
	"encoding/base64"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// The guest cart lives in the sf_cart cookie, signed for the store
// (Shop.sign): a tampered cookie, or one another store's shop made, reads as
// an empty cart, never as an error. Its text is
// "1~{product}-{variant}-{quantity}_...~{coupon, base64url}~{order}": at most
// app.MaxCartLines lines and maxCartCookie bytes, so it always fits in a
// browser's cookie. It also keeps the coupon applied (for signed-in shoppers
// too) and the last order this browser placed (whose confirmation it may show).

// maxCartCookie bounds the signed cart cookie (browsers keep 4096 bytes).
const maxCartCookie = 3000

// maxCoupon is the longest coupon code kept (the API's limit).
const maxCoupon = 50

// cartCookieAge is how long a guest's cart is kept.
const cartCookieAge = 30 * 24 * time.Hour

// guestCart is the content of the cart cookie.
type guestCart struct {
	Items  []app.CheckoutItem
	Coupon string
	Order  uint64
}

// encodeCart writes cc as the cookie's (unsigned) text.
func encodeCart(cc guestCart) string {
	lines := make([]string, len(cc.Items))
	for i, it := range cc.Items {
		lines[i] = strconv.FormatUint(it.ProductID, 10) + "-" + strconv.FormatUint(it.VariantID, 10) + "-" + strconv.FormatInt(it.Quantity, 10)
	}
	order := ""
	if cc.Order != 0 {
		order = strconv.FormatUint(cc.Order, 10)
	}
	return "1~" + strings.Join(lines, "_") + "~" + base64.RawURLEncoding.EncodeToString([]byte(cc.Coupon)) + "~" + order
}

// decodeCart reads the cookie's (unsigned) text; anything malformed or
// out of bounds is false.
func decodeCart(v string) (guestCart, bool) {
	var cc guestCart
	parts := strings.Split(v, "~")
	if len(v) > maxCartCookie || len(parts) != 4 || parts[0] != "1" {
		return cc, false
	}
	if parts[1] != "" {
		lines := strings.Split(parts[1], "_")
		if len(lines) > app.MaxCartLines {
			return cc, false
		}
		for _, l := range lines {
			it, ok := decodeCartLine(l)
			if !ok || lineOf(cc.Items, it.ProductID, it.VariantID) >= 0 { // a line twice: not a cookie we made
				return guestCart{}, false
			}
			cc.Items = append(cc.Items, it)
		}
	}
	coupon, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(coupon) > maxCoupon {
		return guestCart{}, false
	}
	cc.Coupon = string(coupon)
	if parts[3] != "" {
		if cc.Order, err = strconv.ParseUint(parts[3], 10, 64); err != nil || cc.Order == 0 {
			return guestCart{}, false
		}
	}
	return cc, true
}

// decodeCartLine reads "{product}-{variant}-{quantity}".
func decodeCartLine(l string) (app.CheckoutItem, bool) {
	f := strings.Split(l, "-")
	if len(f) != 3 {
		return app.CheckoutItem{}, false
	}
	p, err1 := strconv.ParseUint(f[0], 10, 64)
	v, err2 := strconv.ParseUint(f[1], 10, 64)
	q, err3 := strconv.ParseInt(f[2], 10, 64)
	ok := err1 == nil && err2 == nil && err3 == nil && p != 0 && q >= 1 && q <= app.MaxLineQuantity
	return app.CheckoutItem{ProductID: p, VariantID: v, Quantity: q}, ok
}

// readCart is the browser's cart cookie for rq's store (empty when absent,
// tampered with, or made by another store's shop).
func (s *Shop) readCart(c *fiber.Ctx, rq *request) guestCart {
	raw := c.Cookies(cookieCart)
	if raw == "" || len(raw) > maxCartCookie+100 {
		return guestCart{}
	}
	v, ok := s.unsign(rq.Store.ID, raw)
	if !ok {
		return guestCart{}
	}
	cc, _ := decodeCart(v)
	return cc
}

// writeCart sets the cart cookie (deletes it when cc is empty), and a
// guest's count cookie (cart_live.go). It lasts 30 days. Errors: validation_failed when the cart no longer fits.
func (s *Shop) writeCart(c *fiber.Ctx, rq *request, cc guestCart) error {
	if rq.Customer == nil {
		s.setCount(c, units(cc.Items))
	}
	if len(cc.Items) == 0 && cc.Coupon == "" && cc.Order == 0 {
		s.setCookie(c, cookieCart, "", -1)
		return nil
	}
	v := s.sign(rq.Store.ID, encodeCart(cc))
	if len(v) > maxCartCookie || len(cc.Items) > app.MaxCartLines {
		return app.Invalid("product_id", rq.L.T("cart.full"))
	}
	s.setCookie(c, cookieCart, v, cartCookieAge)
	return nil
}

// cookieStore is a guest's cart: the cookie.
type cookieStore struct {
	s  *Shop
	c  *fiber.Ctx
	rq *request
}

func (k *cookieStore) lines() ([]app.CheckoutItem, error) {
	return k.s.readCart(k.c, k.rq).Items, nil
}

func (k *cookieStore) add(productID, variantID uint64, qty int64) error {
	if qty < 1 || qty > app.MaxLineQuantity {
		return app.Invalid("quantity", "must be between 1 and 1000")
	}
	if err := k.s.svc.Carts.Sellable(k.rq.Store.ID, productID, variantID); err != nil {
		return err
	}
	cc := k.s.readCart(k.c, k.rq)
	switch i := lineOf(cc.Items, productID, variantID); {
	case i >= 0 && cc.Items[i].Quantity+qty > app.MaxLineQuantity:
		return app.Invalid("quantity", "a line holds at most 1000 units")
	case i >= 0:
		cc.Items[i].Quantity += qty
	case len(cc.Items) >= app.MaxCartLines:
		return app.Invalid("product_id", k.rq.L.T("cart.full"))
	default:
		cc.Items = append(cc.Items, app.CheckoutItem{ProductID: productID, VariantID: variantID, Quantity: qty})
	}
	return k.s.writeCart(k.c, k.rq, cc)
}

func (k *cookieStore) set(productID, variantID uint64, qty int64) error {
	if qty < 1 || qty > app.MaxLineQuantity {
		return app.Invalid("quantity", "must be between 1 and 1000")
	}
	cc := k.s.readCart(k.c, k.rq)
	i := lineOf(cc.Items, productID, variantID)
	if i < 0 {
		return app.NotFound("cart item")
	}
	cc.Items[i].Quantity = qty
	return k.s.writeCart(k.c, k.rq, cc)
}

func (k *cookieStore) remove(productID, variantID uint64) error {
	cc := k.s.readCart(k.c, k.rq)
	if i := lineOf(cc.Items, productID, variantID); i >= 0 {
		cc.Items = slices.Delete(cc.Items, i, i+1)
	}
	return k.s.writeCart(k.c, k.rq, cc)
}

// lineOf is the index of the line of a product and variant (-1: none).
func lineOf(items []app.CheckoutItem, productID, variantID uint64) int {
	return slices.IndexFunc(items, func(it app.CheckoutItem) bool { return it.ProductID == productID && it.VariantID == variantID })
}
