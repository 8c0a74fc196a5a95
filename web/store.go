package web

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (s *Server) registerStoreRoutes(r fiber.Router) {
	r.Get("/config", s.getConfig)
	r.Get("/payment-methods", s.listPaymentMethods)
}

// getConfig serves GET /api/v1/business/website/config/ from memory.
func (s *Server) getConfig(c *fiber.Ctx) error {
	b, err := s.svc.Stores.ConfigJSON(store(c))
	if err != nil {
		return err
	}
	if httpkit.ParseFields(c) != nil {
		return httpkit.OK(c, rawJSON(b))
	}
	if cc, ok := c.Context().Conn().(*countingConn); ok {
		// the connection's copy of the whole reply, handed out without a copy
		c.Status(fiber.StatusOK)
		httpkit.SetJSON(c)
		c.Response().SetBodyRaw(cc.configReply(b))
		return nil
	}
	return httpkit.SendRaw(c, fiber.StatusOK, "", b)
}

// listPaymentMethods serves GET /api/v1/business/website/payment-methods/:
// the methods checkout accepts, each with its test flag.
func (s *Server) listPaymentMethods(c *fiber.Ctx) error {
	return httpkit.SendAll(c, s.svc.Payments.OfferedMethods(store(c)), func(m app.OfferedMethod) any { return m })
}

// rawJSON marshals as itself.
type rawJSON []byte

func (r rawJSON) MarshalJSON() ([]byte, error) { return r, nil }
