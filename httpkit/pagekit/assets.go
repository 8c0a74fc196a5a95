package pagekit

import (
	"cmp"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"path"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// asset is one static file, fingerprinted: its URL changes with its
// content, so it is served as immutable.
type asset struct {
	url, ctype string
	body, gz   []byte
}

// Assets are the static files of a folder: each by its name (shop.css)
// and by its fingerprinted name (shop.1a2b3c4d.css), served under a prefix
// ("/assets/").
type Assets struct {
	prefix string
	files  map[string]*asset
}

// LoadAssets reads every file of dir in fsys, to be served under prefix.
func LoadAssets(fsys fs.FS, dir, prefix string) (*Assets, error) {
	files, err := fs.Glob(fsys, dir+"/*")
	if err != nil {
		return nil, err
	}
	as := &Assets{prefix: prefix, files: map[string]*asset{}}
	for _, f := range files {
		body, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, fmt.Errorf("static files: %w", err)
		}
		name := path.Base(f)
		sum := sha256.Sum256(body)
		ext := path.Ext(name)
		hashed := strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:4]) + ext
		a := &asset{url: prefix + hashed, ctype: contentType(ext), body: body}
		if gz := Gzip(body, gzip.BestCompression); len(gz) < len(body) {
			a.gz = gz
		}
		as.files[name], as.files[hashed] = a, a
	}
	return as, nil
}

// URL is the fingerprinted URL of a static file (templates: {{asset "shop.css"}}).
func (as *Assets) URL(name string) (string, error) {
	a := as.files[name]
	if a == nil {
		return "", fmt.Errorf("no static file %q", name)
	}
	return a.url, nil
}

// Serve answers GET prefix+{name}.{hash}.{ext}, gzipped when the client
// takes it; false for an unknown or stale name (the caller's 404).
func (as *Assets) Serve(c *fiber.Ctx, file string) bool {
	a := as.files[file]
	if a == nil || a.url != as.prefix+file {
		return false
	}
	as.send(c, a, "public, max-age=31536000, immutable")
	return true
}

// ServeFile answers with the file name under its plain name, kept a day
// (a favicon the browser asks for by a fixed path); false when unknown.
func (as *Assets) ServeFile(c *fiber.Ctx, name string) bool {
	a := as.files[name]
	if a == nil {
		return false
	}
	as.send(c, a, "public, max-age=86400")
	return true
}

func (as *Assets) send(c *fiber.Ctx, a *asset, cache string) {
	c.Set(fiber.HeaderContentType, a.ctype)
	c.Set(fiber.HeaderCacheControl, cache)
	c.Set(fiber.HeaderVary, fiber.HeaderAcceptEncoding)
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	if a.gz != nil && acceptsGzip(c) {
		c.Set(fiber.HeaderContentEncoding, "gzip")
		c.Response().SetBodyRaw(a.gz)
		return
	}
	c.Response().SetBodyRaw(a.body)
}

// contentType is the type of a static file by its extension: the few a
// page uses are fixed here (the system's table differs between machines).
func contentType(ext string) string {
	switch ext {
	case ".css":
		return "text/css; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	case ".png":
		return "image/png"
	case ".ico":
		return "image/x-icon"
	case ".woff2":
		return "font/woff2"
	}
	return cmp.Or(mime.TypeByExtension(ext), "application/octet-stream")
}
