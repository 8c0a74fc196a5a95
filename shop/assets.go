package shop

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"path"
	"strings"

	"github.com/gofiber/fiber/v2"
)

//go:embed templates/*.html static/*
var embedded embed.FS

// asset is one static file, fingerprinted: its URL changes with its
// content, so it is served as immutable.
type asset struct {
	url, ctype string
	body, gz   []byte
}

// assetSet maps a file name (shop.css) to its asset, and its
// fingerprinted name (shop.1a2b3c4d.css) to the same.
type assetSet map[string]*asset

func loadAssets() (assetSet, error) {
	files, err := fs.Glob(embedded, "static/*")
	if err != nil {
		return nil, err
	}
	set := assetSet{}
	for _, f := range files {
		body, err := embedded.ReadFile(f)
		if err != nil {
			return nil, err
		}
		name := path.Base(f)
		sum := sha256.Sum256(body)
		ext := path.Ext(name)
		hashed := strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:4]) + ext
		a := &asset{url: "/assets/" + hashed, ctype: mime.TypeByExtension(ext), body: body}
		if a.ctype == "" {
			a.ctype = "application/octet-stream"
		}
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		zw.Write(body)
		zw.Close()
		if gz.Len() < len(body) {
			a.gz = gz.Bytes()
		}
		set[name], set[hashed] = a, a
	}
	return set, nil
}

// url is the fingerprinted URL of a static file (templates: {{asset "shop.css"}}).
func (as assetSet) url(name string) (string, error) {
	a := as[name]
	if a == nil {
		return "", fmt.Errorf("shop: no static file %q", name)
	}
	return a.url, nil
}

// serveAsset serves GET /assets/{name}.{hash}.{ext}, compressed when the
// client takes gzip. An unknown or stale name is 404.
func (s *Shop) serveAsset(c *fiber.Ctx) error {
	a := s.assets[c.Params("file")]
	if a == nil || a.url != c.Path() {
		return fiber.ErrNotFound
	}
	c.Set(fiber.HeaderContentType, a.ctype)
	c.Set(fiber.HeaderCacheControl, "public, max-age=31536000, immutable")
	c.Set(fiber.HeaderVary, fiber.HeaderAcceptEncoding)
	c.Set("X-Content-Type-Options", "nosniff")
	if a.gz != nil && strings.Contains(c.Get(fiber.HeaderAcceptEncoding), "gzip") {
		c.Set(fiber.HeaderContentEncoding, "gzip")
		return c.Send(a.gz)
	}
	return c.Send(a.body)
}
