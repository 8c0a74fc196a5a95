package web

import (
	"bytes"
	_ "embed"

	"github.com/gofiber/fiber/v2"
)

// The API reference at /docs/: Redoc renders /openapi.json in the browser.
// docs/redoc.standalone.js is the file bundles/redoc.standalone.js of the npm
// package redoc@3.0.1 (MIT, docs/redoc.LICENSE), committed and embedded: no
// CDN. To update it: npm pack redoc@VERSION, copy the file, change the
// version here and in RedocVersion.

// RedocVersion is the vendored renderer's version.
const RedocVersion = "3.0.1"

var (
	//go:embed docs/index.html
	docsPage []byte
	//go:embed docs/redoc.standalone.js
	vendoredRedocJS []byte
	redocJS         = localRedoc(vendoredRedocJS)
)

// redocExternal are the addresses the vendored renderer would reach on
// another host, and what the served copy says instead: the "redocly" badge's
// logo (from cdn.redoc.ly, a CSP error on every load) becomes an empty SVG;
// the icon sets (cdn.redocly.com, used only by x-icon extensions this
// document does not use) and the telemetry endpoint point at this server.
// The vendored file stays as published; the rewrite happens once at start.
var redocExternal = []struct{ from, to string }{
	{"https://cdn.redoc.ly/redoc/logo-mini-full.svg", emptySVG},
	{"https://cdn.redoc.ly/redoc/logo-mini.svg", emptySVG},
	{"https://cdn.redocly.com/icons/", "/docs/icons/"},
	{"https://otel.cloud.redocly.com/v1/traces", "/docs/telemetry"},
}

const emptySVG = "data:image/svg+xml,%3Csvg%20xmlns=%22http://www.w3.org/2000/svg%22/%3E"

// localRedoc returns the renderer with every redocExternal address replaced.
func localRedoc(js []byte) []byte {
	for _, r := range redocExternal {
		js = bytes.ReplaceAll(js, []byte(r.from), []byte(r.to))
	}
	return js
}

// docsCSP allows the page exactly what Redoc needs: its own script, the inline
// styles it generates (styled-components), fetching /openapi.json, data: and
// blob: images and its search worker from a blob.
const docsCSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
	"font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// serveDocs mounts GET /docs/ (the page; /docs answers the same) and the
// renderer's script.
func serveDocs(r fiber.Router) {
	page := func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
		c.Set("Content-Security-Policy", docsCSP)
		c.Set("X-Content-Type-Options", "nosniff")
		c.Set("Referrer-Policy", "no-referrer")
		c.Set(fiber.HeaderCacheControl, "no-cache")
		return c.Send(docsPage)
	}
	r.Get("/docs", page)
	r.Get("/docs/", page)
	r.Get("/docs/redoc.standalone.js", func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, "text/javascript; charset=utf-8")
		c.Set("X-Content-Type-Options", "nosniff")
		c.Set(fiber.HeaderCacheControl, "public, max-age=86400")
		c.Set(fiber.HeaderETag, `"redoc-`+RedocVersion+`"`)
		return c.Send(redocJS)
	})
	// The renderer's telemetry, pointed here by localRedoc: accepted, dropped.
	r.Post("/docs/telemetry", func(c *fiber.Ctx) error { return c.SendStatus(fiber.StatusNoContent) })
}
