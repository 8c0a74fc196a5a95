package web

import (
	"github.com/gofiber/fiber/v2"
)

// CORS for browser storefronts (docs/decisions.md, "CORS"). Each store
// lists exact allowed origins (Store.AllowedOrigins). A preflight carries
// no X-Service-Key, so it cannot name a store: it is answered 204 before
// the key check, allowing the origin when ANY active store lists it. The
// actual request carries the key, and its response allows the origin only
// when the key's store lists it (or, when the key is missing or wrong, when
// any store does, so that the browser can read the 401).
const (
	corsAllowMethods  = "GET, POST, PUT, PATCH, DELETE, OPTIONS"
	corsAllowHeaders  = "X-Service-Key, Authorization, Content-Type, Idempotency-Key, X-Cart-Token"
	corsExposeHeaders = "X-Request-ID, Retry-After"
	corsMaxAge        = "600"
)

// The Vary values are set whole, as c.Vary would merge them into an empty
// header (no handler before cors sets Vary), without its merge per request.
var (
	headerVary    = []byte(fiber.HeaderVary)
	varyActual    = []byte(fiber.HeaderOrigin)
	varyPreflight = []byte(fiber.HeaderOrigin + ", " + fiber.HeaderAccessControlRequestMethod + ", " + fiber.HeaderAccessControlRequestHeaders)
)

// cors answers preflights and marks actual responses; it runs before apiKey.
func (s *Server) cors(c *fiber.Ctx) error {
	origin := c.Get(fiber.HeaderOrigin)
	if c.Method() == fiber.MethodOptions {
		c.Response().Header.SetCanonical(headerVary, varyPreflight)
		if origin != "" && s.svc.Stores.OriginAllowedAnywhere(origin) {
			h := &c.Response().Header
			h.Set(fiber.HeaderAccessControlAllowOrigin, origin)
			h.Set(fiber.HeaderAccessControlAllowMethods, corsAllowMethods)
			h.Set(fiber.HeaderAccessControlAllowHeaders, corsAllowHeaders)
			h.Set(fiber.HeaderAccessControlMaxAge, corsMaxAge)
		}
		return c.SendStatus(fiber.StatusNoContent)
	}
	c.Response().Header.SetCanonical(headerVary, varyActual)
	if origin == "" {
		return c.Next()
	}
	err := c.Next()
	allowed := false
	if st := store(c); st != nil {
		allowed = s.svc.Stores.AllowsOrigin(st, origin)
	} else {
		allowed = s.svc.Stores.OriginAllowedAnywhere(origin)
	}
	if allowed {
		h := &c.Response().Header
		h.Set(fiber.HeaderAccessControlAllowOrigin, origin)
		h.Set(fiber.HeaderAccessControlExposeHeaders, corsExposeHeaders)
	}
	return err
}
