package shop

import "github.com/gofiber/fiber/v2"

// Test-only hooks (compiled into the package's tests, never the binary).

// MountTestRoutes adds routes that call the session helpers the account pages
// use: POST /test/sign-in (access, refresh) and POST /test/sign-out, each
// answering 303 to /cart/ (or the error page).
func MountTestRoutes(s *Shop, a *fiber.App) {
	a.Post("/test/sign-in", s.page(func(c *fiber.Ctx, rq *request) error {
		if err := s.signIn(c, rq, c.FormValue("access"), c.FormValue("refresh")); err != nil {
			return err
		}
		return redirect(c, "/cart/")
	}))
	a.Post("/test/sign-out", s.page(func(c *fiber.Ctx, rq *request) error {
		s.signOut(c, rq)
		return redirect(c, "/cart/")
	}))
	a.Get("/test/who", s.page(func(c *fiber.Ctx, rq *request) error {
		if rq.Customer == nil {
			return c.SendString("guest")
		}
		return c.SendString("customer " + rq.Customer.Email)
	}))
}

// DecodeCart reads a cart cookie's unsigned text (for the fuzz test).
func DecodeCart(v string) (items int, ok bool) {
	cc, ok := decodeCart(v)
	if ok {
		again, ok2 := decodeCart(encodeCart(cc))
		if !ok2 || encodeCart(again) != encodeCart(cc) {
			panic("a cart cookie does not survive a round trip: " + v)
		}
	}
	return len(cc.Items), ok
}

// DecodeCartForm and DecodeCheckoutForm are the form decoders (fuzzed).
func DecodeCartForm(body []byte) error { _, err := decodeCartForm(body); return err }

func DecodeCheckoutForm(body []byte) error { _, err := decodeCheckoutForm(body); return err }
