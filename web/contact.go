package web

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (s *Server) registerContactRoutes(r fiber.Router) {
	var limit *Limiter
	if s.cfg.ContactPerMinute > 0 {
		limit = NewLimiter(s.cfg.ContactPerMinute, time.Minute)
	}
	r.Post("/contact", func(c *fiber.Ctx) error { return s.submitContact(c, limit) })
}

// submitContact serves POST /api/v1/business/website/contact/: data is the
// stored message. Every attempt, valid or not, counts against the client
// IP's ratelimit.contact_per_minute.
func (s *Server) submitContact(c *fiber.Ctx, limit *Limiter) error {
	if limit != nil {
		if allowed, wait := limit.Allow(s.proxies.ClientIP(c)); !allowed {
			return rateLimited(wait)
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
