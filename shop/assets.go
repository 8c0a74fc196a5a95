package shop

import (
	"embed"

	"github.com/gofiber/fiber/v2"
)

//go:embed templates/*.html static/*
var embedded embed.FS

// serveAsset serves GET /assets/{name}.{hash}.{ext}, compressed when the
// client takes gzip. An unknown or stale name is 404.
func (s *Shop) serveAsset(c *fiber.Ctx) error {
	if !s.assets.Serve(c, c.Params("file")) {
		return fiber.ErrNotFound
	}
	return nil
}
