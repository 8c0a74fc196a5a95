package demo

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"image"
	"image/color"
	"image/png"
	"maps"
	"math"
	"strconv"
	"strings"
	"sync"

	"storefront/app"
)

// The demo's pictures (issue 36.7): demo.json names each picture by a
// placeholder URL, "https://picsum.photos/seed/{seed}/{width}/{height}",
// which Seed never loads: it draws a picture from the seed (flat shapes in
// one of a few palettes, rounded corners, a few KB as PNG) at each width of
// the renditions, stores them in the media store as an upload's, and writes
// the media URL instead. Nothing of the demo is loaded from another host.

// placeholder begins the URLs demo.json names pictures with.
const placeholder = "https://picsum.photos/seed/"

// maxPictureWidth is the widest picture drawn (a wider one is scaled down,
// its shape kept), maxBannerWidth that of a picture at least twice as wide
// as high (the hero, the banners): the largest rendition is no wider.
const (
	maxPictureWidth = 480
	maxBannerWidth  = 1200
)

// pictures draws and stores the demo store's pictures, each seed once.
type pictures struct {
	svc     *app.Services
	storeID uint64
	urls    map[string]string
}

// url returns the media URL of the picture a placeholder URL names; any
// other URL is returned as it is.
func (p *pictures) url(u string) (string, error) {
	rest, ok := strings.CutPrefix(u, placeholder)
	if !ok {
		return u, nil
	}
	if got, ok := p.urls[rest]; ok {
		return got, nil
	}
	seed, w, h, err := parsePlaceholder(rest)
	if err != nil {
		return "", err
	}
	got, err := p.svc.Catalog.StoreMedia(p.storeID, drawnRenditions(rest, seed, w, h))
	if err != nil {
		return "", fmt.Errorf("demo: store picture %s: %w", seed, err)
	}
	p.urls[rest] = got
	return got, nil
}

// drawn holds the renditions drawn in this process by placeholder (92
// pictures, 210 KB): a demo server seeds once, but a test binary seeds the
// demo store up to a dozen times, and drawing them cost 2 CPU seconds a time
// under the race detector. The files are only read (stored as they are).
var drawn sync.Map // placeholder "{seed}/{width}/{height}" -> app.Media

// drawnRenditions returns renditions(seed, w, h), drawn once per process,
// with a map of its own.
func drawnRenditions(key, seed string, w, h int) app.Media {
	v, ok := drawn.Load(key)
	if !ok {
		v, _ = drawn.LoadOrStore(key, renditions(seed, w, h))
	}
	m := v.(app.Media)
	m.Files = maps.Clone(m.Files)
	return m
}

// renditions draws the picture at every width of app.MediaWidths (none
// wider than w: the shapes are drawn at each size, not scaled), as an
// upload's renditions; its hash is the SHA-256 of the largest.
func renditions(seed string, w, h int) app.Media {
	m := app.Media{Ext: "png", Files: map[int][]byte{}}
	var largest []byte
	drawn := 0 // the width of largest
	for _, mw := range app.MediaWidths {
		if rw := min(mw, w); rw != drawn {
			largest, drawn = drawPicture(seed, rw, max(1, h*rw/w)), rw
		}
		m.Files[mw] = largest
	}
	sum := sha256.Sum256(largest)
	m.Hash = hex.EncodeToString(sum[:])
	return m
}

// parsePlaceholder reads "{seed}/{width}/{height}", the size scaled down to
// maxPictureWidth (maxBannerWidth).
func parsePlaceholder(rest string) (seed string, w, h int, err error) {
	parts := strings.Split(rest, "/")
	if len(parts) == 3 {
		w, err = strconv.Atoi(parts[1])
		if err == nil {
			h, err = strconv.Atoi(parts[2])
		}
	}
	if len(parts) != 3 || err != nil || w <= 0 || h <= 0 || w > 4000 || h > 4000 {
		return "", 0, 0, fmt.Errorf("demo: bad picture URL %s%s", placeholder, rest)
	}
	limit := maxPictureWidth
	if w >= 2*h {
		limit = maxBannerWidth
	}
	if w > limit {
		w, h = limit, max(1, h*limit/w)
	}
	return parts[0], w, h, nil
}

// fill draws and stores every picture d names (config, categories,
// products) and writes their media URLs into d.
func (p *pictures) fill(d *Data) error {
	var err error
	if d.Config, err = p.json(d.Config); err != nil {
		return err
	}
	for i := range d.Categories {
		if d.Categories[i].Image, err = p.url(d.Categories[i].Image); err != nil {
			return err
		}
	}
	for i := range d.Products {
		if imgs := d.Products[i].Images; imgs != nil {
			got, err := p.strings(*imgs)
			if err != nil {
				return err
			}
			d.Products[i].Images = &got
		}
	}
	return nil
}

// strings replaces the placeholder URLs of a list.
func (p *pictures) strings(list []string) ([]string, error) {
	out := make([]string, len(list))
	for i, u := range list {
		var err error
		if out[i], err = p.url(u); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// json replaces every placeholder URL among the strings of a JSON value.
func (p *pictures) json(raw json.RawMessage) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("demo: decode config: %w", err)
	}
	v, err := p.walk(v)
	if err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

func (p *pictures) walk(v any) (any, error) {
	var err error
	switch x := v.(type) {
	case string:
		return p.url(x)
	case []any:
		for i := range x {
			if x[i], err = p.walk(x[i]); err != nil {
				return nil, err
			}
		}
	case map[string]any:
		for k := range x {
			if x[k], err = p.walk(x[k]); err != nil {
				return nil, err
			}
		}
	}
	return v, nil
}

// palettes are the pictures' colours: background, then two shapes.
var palettes = [][3]color.NRGBA{
	{{0xe8, 0xdf, 0xd0, 0xff}, {0xc0, 0x6c, 0x4a, 0xff}, {0x3d, 0x5a, 0x6c, 0xff}},
	{{0xdc, 0xe6, 0xe0, 0xff}, {0x4f, 0x7c, 0x65, 0xff}, {0xe0, 0xa9, 0x3b, 0xff}},
	{{0xe3, 0xe4, 0xee, 0xff}, {0x5b, 0x5f, 0x97, 0xff}, {0xd9, 0x6c, 0x75, 0xff}},
	{{0xf1, 0xe6, 0xd6, 0xff}, {0x8a, 0x5a, 0x44, 0xff}, {0x6f, 0x94, 0x9b, 0xff}},
	{{0xdd, 0xe5, 0xec, 0xff}, {0x2f, 0x4b, 0x6e, 0xff}, {0xc9, 0x8b, 0x2e, 0xff}},
	{{0xef, 0xe1, 0xe1, 0xff}, {0x9c, 0x3d, 0x54, 0xff}, {0x58, 0x6e, 0x4a, 0xff}},
}

// drawPicture draws a w x h PNG from seed: a background, a disc and a bar
// placed by the seed's hash, with transparent rounded corners. The picture
// is paletted (one byte a pixel, four colours) and each row is filled a run
// at a time: drawing and encoding cost a quarter of an RGBA picture's, which
// keeps the demo's start quick even under the race detector.
func drawPicture(seed string, w, h int) []byte {
	f := fnv.New64a()
	f.Write([]byte(seed))
	n := f.Sum64()
	pal := palettes[n%uint64(len(palettes))]
	img := image.NewPaletted(image.Rect(0, 0, w, h), color.Palette{color.NRGBA{}, pal[0], pal[1], pal[2]})
	short := min(w, h)
	r := float64(short) * (0.22 + float64(n>>8%20)/100)               // the disc's radius
	cx, cy := float64(w)*(0.3+float64(n>>16%40)/100), float64(h)*0.45 // its centre
	barTop := int(float64(h) * (0.68 + float64(n>>24%12)/100))
	corner := max(2, short/24)
	for y := 0; y < h; y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+w]
		if y >= barTop {
			fill(row, 3)
		} else {
			fill(row, 1)
			if dy := float64(y) - cy; dy*dy <= r*r {
				half := math.Sqrt(r*r - dy*dy)
				fill(row[max(0, int(cx-half)):min(w, int(cx+half)+1)], 2)
			}
		}
		if y < corner || y >= h-corner {
			for x := 0; x < w; x++ {
				if outsideCorner(x, y, w, h, corner) {
					row[x] = 0
				}
			}
		}
	}
	var buf bytes.Buffer
	_ = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img) // to memory: cannot fail
	return buf.Bytes()
}

// fill sets every byte of b to c, doubling what is set with copy.
func fill(b []byte, c byte) {
	if len(b) == 0 {
		return
	}
	b[0] = c
	for n := 1; n < len(b); n *= 2 {
		copy(b[n:], b[:n])
	}
}

// outsideCorner reports whether (x, y) is outside the rounded corners of
// radius c of a w x h rectangle.
func outsideCorner(x, y, w, h, c int) bool {
	ex, ey := -1, -1
	switch {
	case x < c:
		ex = c
	case x >= w-c:
		ex = w - c - 1
	}
	switch {
	case y < c:
		ey = c
	case y >= h-c:
		ey = h - c - 1
	}
	if ex < 0 || ey < 0 {
		return false
	}
	dx, dy := x-ex, y-ey
	return dx*dx+dy*dy > c*c
}
