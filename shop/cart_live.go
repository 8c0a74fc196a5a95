package shop

import (
	"net/url"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// The cart that reacts (shop.js) and the header's cart count.
//
// With JavaScript the cart page's forms are sent with fetch to the same
// routes as without it; the browser follows the 303 to the cart page, and
// shop.js puts that page's #cart-view in place of its own: lines, totals,
// notices and the delivery choice are always the server's (no sum in the
// browser). The count of the header is the cookie sf_count, written
// whenever this browser's cart is read or changed, which shop.js reads: a
// shared cached page never holds anybody's count.

// cookieCount holds the number of units in this browser's cart, for the
// header's badge. It is the one shop cookie scripts may read (not
// HttpOnly): a display hint, never trusted by the server.
const cookieCount = "sf_count"

// setCount writes the header's count cookie (deleted at 0), unless the
// request already carries that count.
func (s *Shop) setCount(c *fiber.Ctx, n int64) {
	v := ""
	if n > 0 {
		v = strconv.FormatInt(n, 10)
	}
	if c.Cookies(cookieCount) == v {
		return
	}
	ck := fiber.Cookie{Name: cookieCount, Value: v, Path: "/", MaxAge: int(cartCookieAge.Seconds()),
		SameSite: fiber.CookieSameSiteLaxMode, Secure: s.cfg.SecureCookies || c.Protocol() == "https"}
	if v == "" {
		ck.MaxAge = -1
	}
	c.Cookie(&ck)
}

// units is the number of units of lines.
func units(lines []app.CheckoutItem) int64 {
	var n int64
	for _, l := range lines {
		n += l.Quantity
	}
	return n
}

// syncCount writes the count cookie from the cart of rq's shopper (after
// a sign-in, a sign-out or a payment: the cart changed elsewhere).
func (s *Shop) syncCount(c *fiber.Ctx, rq *request) {
	lines, err := s.cartOf(c, rq).lines()
	if err == nil {
		s.setCount(c, units(lines))
	}
}

// cartRedirect is 303 to the cart with notice m and the delivery option
// the form was sent with.
func cartRedirect(c *fiber.Ctx, m string) error {
	to := "/cart/?m=" + m
	if d := c.Query("delivery"); d != "" && len(d) <= 100 {
		to += "&delivery=" + url.QueryEscape(d)
	}
	return redirect(c, to)
}
