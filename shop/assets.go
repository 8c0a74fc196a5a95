package shop

import (
	"embed"

	"storefront/httpkit/pagekit"

	"github.com/gofiber/fiber/v2"
)

//go:embed templates/*.html static/*
var embedded embed.FS

// loadAssets fingerprints the static files, served under /assets/.
func loadAssets() (*pagekit.Assets, error) { return pagekit.LoadAssets(embedded, "static", "/assets/") }

// serveAsset serves GET /assets/{name}.{hash}.{ext}, compressed when the
// client takes gzip. An unknown or stale name is 404.
func (s *Shop) serveAsset(c *fiber.Ctx) error {
	if !s.assets.Serve(c, c.Params("file")) {
		return fiber.ErrNotFound
	}
	return nil
}
