package web

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// registerMediaRoutes serves uploaded product images. They are public (an
// <img> sends no API key) and immutable: the name holds the SHA-256 of the
// upload, so a URL never changes meaning.
func (s *Server) registerMediaRoutes() {
	s.App.Get("/media/:store_id/:file", s.mediaFile)
}

// mediaFile serves GET /media/{store}/{sha256}-{width}.{ext}.
func (s *Server) mediaFile(c *fiber.Ctx) error {
	storeID, err := strconv.ParseUint(c.Params("store_id"), 10, 64)
	if err != nil || storeID == 0 {
		return app.NotFound("image")
	}
	hash, width, ext, ok := app.ParseMediaFile(c.Params("file"))
	if !ok {
		return app.NotFound("image")
	}
	etag := `"` + hash + "-" + strconv.Itoa(width) + `"`
	c.Set(fiber.HeaderCacheControl, "public, max-age=31536000, immutable")
	c.Set(fiber.HeaderETag, etag)
	if match := c.Get(fiber.HeaderIfNoneMatch); match != "" && etagMatch(match, etag) {
		// The name is the content: a stored ETag stays true as long as the
		// image exists. Check that it does, so a deleted image is 404.
		n, err := s.svc.Catalog.MediaRefs(storeID, hash)
		if err != nil {
			return err
		}
		if n > 0 {
			return c.SendStatus(fiber.StatusNotModified)
		}
	}
	f, err := s.svc.Catalog.MediaFile(storeID, hash, width)
	if err != nil {
		c.Set(fiber.HeaderCacheControl, "no-store")
		c.Set(fiber.HeaderETag, "")
		return err
	}
	if f.Ext != ext {
		c.Set(fiber.HeaderCacheControl, "no-store")
		return app.NotFound("image")
	}
	c.Set(fiber.HeaderContentType, f.ContentType())
	c.Set("X-Content-Type-Options", "nosniff")
	return c.Send(f.Data)
}

// etagMatch reports whether an If-None-Match list names etag (or is "*").
func etagMatch(header, etag string) bool {
	for len(header) > 0 {
		i := 0
		for i < len(header) && (header[i] == ' ' || header[i] == ',') {
			i++
		}
		header = header[i:]
		j := 0
		for j < len(header) && header[j] != ',' {
			j++
		}
		tag := header[:j]
		for len(tag) > 0 && tag[len(tag)-1] == ' ' {
			tag = tag[:len(tag)-1]
		}
		if len(tag) > 2 && tag[:2] == "W/" {
			tag = tag[2:]
		}
		if tag == etag || tag == "*" {
			return true
		}
		header = header[j:]
	}
	return false
}
