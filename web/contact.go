package web

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (s *Server) registerContactRoutes(r fiber.Router) {
	r.Post("/contact", s.submitContact)
}

// submitContact serves POST /api/v1/business/website/contact/: data is the
// stored message. Every attempt, valid or not, counts against the client
// IP's ratelimit.contact_per_minute (through the services' one limiter,
// shared by every process on PostgreSQL).
func (s *Server) submitContact(c *fiber.Ctx) error {
	if s.cfg.ContactPerMinute > 0 {
		lim := app.Limit{Key: "contact|" + app.AddrKey(s.clientIP(c)), Max: s.cfg.ContactPerMinute, Window: time.Minute}
		if err := app.TakeAll(s.svc.Limits, "too many requests; retry later", lim); err != nil {
			return err
		}
	}
	var in app.ContactInput
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	m, err := s.svc.Contact.Submit(store(c).ID, in)
	if err != nil {
		return err
	}
	return httpkit.OK(c, m.View())
}
