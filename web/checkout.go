package web

import (
	"bytes"
	"embed"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
	"storefront/httpkit/pagekit"
)

// The sandbox page is parsed once at start-up (pagekit): a broken template fails the start.
//
//go:embed sandbox/pay.html
var sandboxFS embed.FS

var sandboxPages = must(pagekit.ParseTemplates(sandboxFS, pagekit.TemplateOptions{Dir: "sandbox", Need: []string{"pay"}}))

// sandboxHeaders forbid framing the sandbox's pages (clickjacking of the Pay button).
var sandboxHeaders = pagekit.SecurityHeaders{CSP: (&pagekit.CSP{}).Set("frame-ancestors", "'none'").String()}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func (s *Server) registerCheckoutRoutes(r fiber.Router) {
	r.Post("/payment/initiate", s.optionalShopper, s.initiatePayment)
	r.Post("/payment/verify", s.verifyPayment)
	r.Post("/payment/quote", s.quotePayment)
	r.Get("/orders", s.shopper, s.listOrders)
	r.Get("/orders/:order_id", s.shopper, s.getOrder)
	// The sandbox gateway's pages are for the shopper's browser: no API key.
	s.App.Get("/sandbox/pay/:session_id", s.sandboxPay)
	s.App.Post("/sandbox/pay/:session_id", s.sandboxOutcome)
	// Payment providers' webhooks: signed by the provider, no API key.
	s.App.Post("/api/v1/payments/stripe/webhook/:store_id", s.stripeWebhook)
}

// stripeWebhook serves POST /api/v1/payments/stripe/webhook/{store_id}/:
// a Stripe event signed (Stripe-Signature) with the store's webhook secret.
// A bad signature is 400 and changes nothing; handled and ignored events
// alike are 200, so Stripe stops retrying them.
func (s *Server) stripeWebhook(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "store_id", "store")
	if err != nil {
		return err
	}
	note, err := s.svc.Payments.Webhook(app.ProviderStripe, id, c.Body(), c.Get("Stripe-Signature"))
	if err != nil {
		return err
	}
	return httpkit.OK(c, fiber.Map{"received": true, "result": note})
}

// initiatePayment serves POST /api/v1/business/website/payment/initiate/
// (endpoint 8): Key alone places a guest order, Key+Token a shopper's.
func (s *Server) initiatePayment(c *fiber.Ctx) error {
	var in app.CheckoutInput
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	var customerID uint64
	if sh := shopperOf(c); sh != nil {
		customerID = sh.CustomerID
	}
	idem := app.Idempotency{Key: c.Get(httpkit.IdempotencyKeyHeader), Name: httpkit.IdempotencyKeyHeader}
	res, err := s.svc.Orders.InitiateFrom(store(c).ID, customerID, s.clientIP(c), in, idem)
	if err != nil {
		return err
	}
	return httpkit.OK(c, res)
}

// quotePayment serves POST /api/v1/business/website/payment/quote/: lines
// priced as payment/initiate prices them, with the coupon and delivery fee,
// without placing an order (the shop's cart and checkout pages show it).
func (s *Server) quotePayment(c *fiber.Ctx) error {
	var in app.QuoteInput
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	q, err := s.svc.Orders.Quote(store(c).ID, in)
	if err != nil {
		return err
	}
	return httpkit.OK(c, q)
}

type verifyInput struct {
	PaymentSessionID string            `json:"payment_session_id"`
	ProviderParams   map[string]string `json:"provider_params"`
}

// verifyPayment serves POST /api/v1/business/website/payment/verify/
// (endpoint 9): 200 for paid and failed payments alike.
func (s *Server) verifyPayment(c *fiber.Ctx) error {
	var in verifyInput
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	res, err := s.svc.Payments.Verify(store(c).ID, in.PaymentSessionID, in.ProviderParams)
	if err != nil {
		return err
	}
	return httpkit.OK(c, res)
}

func viewOrder(o *app.Order) any { return o.View() }

// listOrders serves GET /api/v1/business/website/orders/ (newest first).
func (s *Server) listOrders(c *fiber.Ctx) error {
	lq, err := s.parseList(c, "orders", nil, app.DefaultLimit, app.MaxLimit)
	if err != nil {
		return err
	}
	page, err := s.svc.Orders.CustomerOrders(*shopperOf(c), lq.ListParams)
	if err != nil {
		return err
	}
	return sendList(s, c, "orders", page, lq.Fields, viewOrder, nil)
}

// getOrder serves GET /api/v1/business/website/orders/{order_id}/.
func (s *Server) getOrder(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "order_id", "order")
	if err != nil {
		return err
	}
	o, err := s.svc.Orders.CustomerOrder(*shopperOf(c), id)
	if err != nil {
		return err
	}
	return httpkit.OK(c, o.View())
}

// sandboxPay serves GET /sandbox/pay/{session_id}/: the sandbox gateway's page.
func (s *Server) sandboxPay(c *fiber.Ctx) error {
	v, err := s.svc.Payments.SandboxPage(c.Params("session_id"))
	if err != nil {
		return s.sandboxError(c, err)
	}
	var b bytes.Buffer
	if err := sandboxPages.Execute(&b, "pay", v); err != nil {
		return err
	}
	sandboxHeaders.Set(c)
	pagekit.Send(c, pagekit.Page{Status: fiber.StatusOK, Body: b.Bytes(), Keep: true, Caching: pagekit.NoStore})
	return nil
}

// sandboxOutcome serves POST /sandbox/pay/{session_id}/ (form field outcome):
// 303 to callback_url with the signed parameters.
func (s *Server) sandboxOutcome(c *fiber.Ctx) error {
	loc, err := s.svc.Payments.SandboxPay(c.Params("session_id"), c.FormValue("outcome"))
	if err != nil {
		return s.sandboxError(c, err)
	}
	return c.Redirect(loc, fiber.StatusSeeOther)
}

// sandboxError answers a browser: the plain error page with the error's status.
func (s *Server) sandboxError(c *fiber.Ctx, err error) error {
	code := app.ErrorCode(err)
	if code == app.EInternal {
		return err
	}
	sandboxHeaders.Set(c)
	status := httpkit.StatusOf(code)
	pagekit.SendPlain(c, status, "Sandbox payment", app.ErrorMessage(err), strconv.Itoa(status)+" "+code)
	return nil
}
