package pagekit

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"hash/crc32"
	"strconv"
	"strings"
	"sync"

	"github.com/gofiber/fiber/v2"
)

// gzipFrom is the smallest body worth compressing (about one packet).
const gzipFrom = 1400

// Caching is how a page may be kept by the browser.
type Caching int

const (
	// NoStore: a page with a session's data (the panel, an account page).
	NoStore Caching = iota
	// PrivateNoStore: private, no-store (a shop page with a shopper or
	// marked noindex).
	PrivateNoStore
	// Revalidate: no-cache, kept and revalidated by its ETag.
	Revalidate
)

var cacheControl = [...]string{NoStore: "no-store", PrivateNoStore: "private, no-store", Revalidate: "no-cache"}

// Page is an HTML answer to send.
type Page struct {
	Status  int
	Body    []byte
	Caching Caching
	// Gzip is Body compressed, when already made (a cached page); nil:
	// compressed here when the client takes gzip and it is worth it.
	Gzip []byte
	// Keep says Body stays unchanged for as long as the response needs it
	// (else it is copied: it may be a pooled buffer).
	Keep bool
	// Parts, instead of Body, are a page kept with holes: the body is the
	// parts with Fill between them (a cached page and this visitor's CSRF
	// token), written into the response without joining them first.
	Parts [][]byte
	Fill  string
	// Zipped are Parts compressed once (ZipParts), so that a client that
	// takes gzip gets the page without compressing it per request.
	Zipped *Zipped
	// ETag, when set, is the page's tag made beforehand (PartsETag): a
	// cached page is not hashed again per request.
	ETag string
}

// Send writes p with its ETag (a weak one: the same page gzipped or not);
// a GET whose If-None-Match names it is 304 without a body.
func Send(c *fiber.Ctx, p Page) {
	h := &c.Response().Header
	h.SetContentType(fiber.MIMETextHTMLCharsetUTF8)
	h.Set(fiber.HeaderCacheControl, cacheControl[p.Caching])
	h.Set(fiber.HeaderVary, fiber.HeaderAcceptEncoding)
	etag := p.ETag
	if etag == "" {
		etag = ETag(p.Body)
	}
	h.Set(fiber.HeaderETag, etag)
	if p.Status == fiber.StatusOK && (c.Method() == fiber.MethodGet || c.Method() == fiber.MethodHead) && etagMatch(c.Get(fiber.HeaderIfNoneMatch), etag) {
		c.Status(fiber.StatusNotModified)
		return
	}
	c.Status(p.Status)
	if p.Parts != nil {
		sendParts(c, p)
		return
	}
	if len(p.Body) > gzipFrom && acceptsGzip(c) {
		if p.Gzip == nil {
			p.Gzip = Gzip(p.Body, gzip.BestSpeed)
		}
		h.Set(fiber.HeaderContentEncoding, "gzip")
		c.Response().SetBodyRaw(p.Gzip)
		return
	}
	if p.Keep {
		c.Response().SetBodyRaw(p.Body)
		return
	}
	c.Response().SetBody(p.Body)
}

// sendParts writes a page with holes: joined and gzipped when the client
// takes gzip, else appended part by part to the response's own buffer.
func sendParts(c *fiber.Ctx, p Page) {
	if acceptsGzip(c) && p.Zipped != nil && len(p.Fill) <= 0xffff {
		c.Set(fiber.HeaderContentEncoding, "gzip")
		c.Response().SetBodyRaw(p.Zipped.join(p.Fill))
		return
	}
	if acceptsGzip(c) {
		c.Set(fiber.HeaderContentEncoding, "gzip")
		c.Response().SetBodyRaw(Gzip(bytes.Join(p.Parts, []byte(p.Fill)), gzip.BestSpeed))
		return
	}
	r := c.Response()
	r.ResetBody()
	for i, part := range p.Parts {
		if i > 0 {
			r.AppendBodyString(p.Fill)
		}
		r.AppendBody(part)
	}
}

// PartsETag is the weak entity tag of a page with holes filled with fill,
// from sum, the CRC-32C of its parts made once (PartsSum): a visitor with
// the same fill (the same token) gets the same tag.
func PartsETag(sum uint32, n int, fill string) string {
	return `W/"` + strconv.FormatUint(uint64(sum), 16) + "-" + strconv.Itoa(n) + "-" +
		strconv.FormatUint(uint64(crc32.Checksum([]byte(fill), castagnoli)), 16) + `"`
}

// PartsSum is the CRC-32C of parts and their total length.
func PartsSum(parts [][]byte) (sum uint32, n int) {
	for _, part := range parts {
		sum = crc32.Update(sum, castagnoli, part)
		n += len(part)
	}
	return sum, n
}

// ETag is the weak entity tag of body: its CRC-32C and length.
func ETag(body []byte) string {
	sum := crc32.Checksum(body, castagnoli)
	return `W/"` + strconv.FormatUint(uint64(sum), 16) + "-" + strconv.Itoa(len(body)) + `"`
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// etagMatch reports whether an If-None-Match list names etag (or is "*").
func etagMatch(list, etag string) bool {
	if list == "" {
		return false
	}
	for _, t := range strings.Split(list, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == strings.TrimPrefix(etag, "W/") {
			return true
		}
	}
	return false
}

func acceptsGzip(c *fiber.Ctx) bool {
	return strings.Contains(c.Get(fiber.HeaderAcceptEncoding), "gzip")
}

// Gzip compresses b at level (gzip.BestSpeed for pages made per request,
// gzip.BestCompression for files made once). A compressor's state is
// about a megabyte: those of BestSpeed, the per-request level, are reused.
func Gzip(b []byte, level int) []byte {
	var gz bytes.Buffer
	if level != gzip.BestSpeed {
		zw, _ := gzip.NewWriterLevel(&gz, level)
		zw.Write(b)
		zw.Close()
		return gz.Bytes()
	}
	zw, _ := speedWriters.Get().(*gzip.Writer)
	if zw == nil {
		zw, _ = gzip.NewWriterLevel(&gz, level)
	} else {
		zw.Reset(&gz)
	}
	zw.Write(b)
	zw.Close()
	speedWriters.Put(zw)
	return gz.Bytes()
}

var speedWriters sync.Pool // of *gzip.Writer at BestSpeed

// Zipped is a page with holes compressed once: each part a raw deflate run
// that ends on a byte boundary (a sync flush), with the part's CRC-32 and
// the factor that shifts a CRC past the part's length.
type Zipped struct {
	runs   [][]byte
	crcs   []uint32
	shifts []uint32
	size   int // of the parts
}

// ZipParts compresses each part of a page with holes once (Zipped.join
// strings the runs together per request with the fill between them).
func ZipParts(parts [][]byte) *Zipped {
	z := &Zipped{}
	for _, part := range parts {
		var b bytes.Buffer
		fw, _ := flate.NewWriter(&b, flate.BestSpeed)
		fw.Write(part)
		fw.Flush()
		z.runs = append(z.runs, b.Bytes())
		z.crcs = append(z.crcs, crc32.ChecksumIEEE(part))
		z.shifts = append(z.shifts, crcShift(len(part)))
		z.size += len(part)
	}
	return z
}

// join is the gzip member (RFC 1952) of the parts joined with fill: the
// fill goes between the runs as a stored deflate block (RFC 1951 3.2.4: a
// zero byte on the byte boundary, its length and the length's complement),
// an empty final stored block ends the stream, then the CRC-32 of the whole
// (the parts' CRCs combined with the fill's) and its length. Per request
// this copies; it neither compresses nor reads the parts.
func (z *Zipped) join(fill string) []byte {
	size := 10 + 5 + 8
	for _, r := range z.runs {
		size += len(r) + 5 + len(fill)
	}
	out := append(make([]byte, 0, size), 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff)
	fillCRC, fillShift := crc32.ChecksumIEEE([]byte(fill)), crcShift(len(fill))
	var sum uint32
	for i, r := range z.runs {
		if i > 0 {
			l := uint16(len(fill))
			out = append(out, 0, byte(l), byte(l>>8), byte(^l), byte(^l>>8))
			out = append(out, fill...)
			sum = mulModP(fillShift, sum) ^ fillCRC
		}
		out = append(out, r...)
		sum = mulModP(z.shifts[i], sum) ^ z.crcs[i]
	}
	out = append(out, 1, 0, 0, 0xff, 0xff)
	out = binary.LittleEndian.AppendUint32(out, sum)
	return binary.LittleEndian.AppendUint32(out, uint32(z.size+(len(z.runs)-1)*len(fill)))
}

// The CRC-32 of a joined page from its pieces' (zlib's crc32_combine):
// crc(A B) = crc(A) * x^(8 len B) ^ crc(B), in GF(2) modulo the
// polynomial, bits reflected.
const crcPoly = 0xedb88320

// mulModP is a*b modulo the polynomial.
func mulModP(a, b uint32) uint32 {
	var p uint32
	for m := uint32(1) << 31; m != 0; m >>= 1 {
		if a&m != 0 {
			p ^= b
		}
		if b&1 != 0 {
			b = b>>1 ^ crcPoly
		} else {
			b >>= 1
		}
	}
	return p
}

// x2n[k] is x^(2^k) modulo the polynomial.
var x2n = func() (t [32]uint32) {
	p := uint32(1) << 30 // x^1
	for k := range t {
		t[k] = p
		p = mulModP(p, p)
	}
	return t
}()

// crcShift is x^(8n): what a CRC is multiplied by to move it past n bytes.
func crcShift(n int) uint32 {
	p := uint32(1) << 31 // x^0
	for k := 3; n != 0; n, k = n>>1, k+1 {
		if n&1 != 0 {
			p = mulModP(x2n[k&31], p)
		}
	}
	return p
}
