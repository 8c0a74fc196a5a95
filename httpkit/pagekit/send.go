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
	"github.com/valyala/fasthttp"
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
	// Holes, instead of Body, is a page kept with holes (a cached page):
	// the body is its parts with Fill (this visitor's CSRF token) between
	// them, written into the response without joining or compressing them.
	Holes *Holes
	Fill  string
	// ETag, when set, is the page's tag made beforehand: a cached page is
	// not hashed again per request.
	ETag string
}

// Send writes p with its ETag (a weak one: the same page gzipped or not);
// a GET whose If-None-Match names it is 304 without a body.
func Send(c *fiber.Ctx, p Page) {
	h := &c.Response().Header
	h.SetContentType(fiber.MIMETextHTMLCharsetUTF8)
	h.SetCanonical(hCacheControl, cacheControl[p.Caching])
	h.SetCanonical(hVary, hAcceptEncoding)
	var etag []byte
	var sum uint32
	switch {
	case p.Holes != nil:
		var buf [32]byte
		sum = p.Holes.crc(p.Fill)
		etag = appendETag(buf[:0], sum, p.Holes.size(p.Fill))
	case p.ETag != "":
		etag = []byte(p.ETag)
	default:
		etag = []byte(ETag(p.Body))
	}
	h.SetCanonical(hETag, etag)
	if p.Status == fiber.StatusOK && (c.Method() == fiber.MethodGet || c.Method() == fiber.MethodHead) && etagMatch(c.Get(fiber.HeaderIfNoneMatch), etag) {
		c.Status(fiber.StatusNotModified)
		return
	}
	c.Status(p.Status)
	gz := acceptsGzip(c)
	switch {
	case p.Holes != nil:
		p.Holes.writeTo(c.Response(), p.Fill, sum, gz)
	case len(p.Body) > gzipFrom && gz:
		if p.Gzip == nil {
			p.Gzip = Gzip(p.Body, gzip.BestSpeed)
		}
		h.SetCanonical(hContentEncoding, hGzip)
		c.Response().SetBodyRaw(p.Gzip)
	case p.Keep:
		c.Response().SetBodyRaw(p.Body)
	default:
		c.Response().SetBody(p.Body)
	}
}

// The headers Send sets, as fasthttp's SetCanonical takes them (not
// checked and normalised again per answer).
var (
	hCacheControl    = []byte(fiber.HeaderCacheControl)
	hVary            = []byte(fiber.HeaderVary)
	hAcceptEncoding  = []byte(fiber.HeaderAcceptEncoding)
	hETag            = []byte(fiber.HeaderETag)
	hContentEncoding = []byte(fiber.HeaderContentEncoding)
	hGzip            = []byte("gzip")
	cacheControl     = [...][]byte{NoStore: []byte("no-store"), PrivateNoStore: []byte("private, no-store"), Revalidate: []byte("no-cache")}
)

// ETag is the weak entity tag of body: its CRC-32 and length.
func ETag(body []byte) string {
	var buf [32]byte
	return string(appendETag(buf[:0], crc32.ChecksumIEEE(body), len(body)))
}

func appendETag(b []byte, sum uint32, n int) []byte {
	b = append(b, `W/"`...)
	b = strconv.AppendUint(b, uint64(sum), 16)
	b = append(b, '-')
	b = strconv.AppendInt(b, int64(n), 10)
	return append(b, '"')
}

// etagMatch reports whether an If-None-Match list names etag (or is "*").
func etagMatch(list string, etag []byte) bool {
	if list == "" {
		return false
	}
	for _, t := range strings.Split(list, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == string(bytes.TrimPrefix(etag, []byte("W/"))) {
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

// Holes is a page with holes, made once (MakeHoles) and sent to many: its
// parts as they are, and each compressed to a raw deflate run that ends on
// a byte boundary (a sync flush), with the part's CRC-32 and the factor
// that shifts a CRC past the part's length.
type Holes struct {
	parts  [][]byte
	runs   [][]byte
	crcs   []uint32
	shifts []uint32
	n      int // the parts' length
}

// holeWriters are the compressors of MakeHoles, reused (each is about a
// megabyte). A page is made once and sent many times: the default level,
// 8% fewer bytes than BestSpeed on a product page (2,749 against 2,988 of
// 9,280) for 60 against 40 us once.
var holeWriters sync.Pool // of *flate.Writer at flate.DefaultCompression

// MakeHoles cuts page at each hole (a placeholder no other text of the
// page has) and compresses each part once. Nil: page has no hole.
func MakeHoles(page, hole []byte) *Holes {
	if !bytes.Contains(page, hole) {
		return nil
	}
	z := &Holes{parts: bytes.Split(page, hole)}
	fw, _ := holeWriters.Get().(*flate.Writer)
	if fw == nil {
		fw, _ = flate.NewWriter(nil, flate.DefaultCompression)
	}
	defer holeWriters.Put(fw)
	for _, part := range z.parts {
		var b bytes.Buffer
		fw.Reset(&b)
		fw.Write(part)
		fw.Flush()
		z.runs = append(z.runs, b.Bytes())
		z.crcs = append(z.crcs, crc32.ChecksumIEEE(part))
		z.shifts = append(z.shifts, crcShift(len(part)))
		z.n += len(part)
	}
	return z
}

// size is the length of the page with fill in its holes.
func (z *Holes) size(fill string) int { return z.n + (len(z.parts)-1)*len(fill) }

// crc is the CRC-32 of the page with fill in its holes, combined from the
// parts' and the fill's: the parts are not read again.
func (z *Holes) crc(fill string) uint32 {
	fillCRC, fillShift := crc32.ChecksumIEEE([]byte(fill)), crcShift(len(fill))
	var sum uint32
	for i := range z.parts {
		if i > 0 {
			sum = mulModP(fillShift, sum) ^ fillCRC
		}
		sum = mulModP(z.shifts[i], sum) ^ z.crcs[i]
	}
	return sum
}

// writeTo writes the page with fill in its holes as r's body, into the
// response's pooled buffer. Gzipped (gz), it is a gzip member (RFC 1952):
// the fill goes between the runs as a stored deflate block (RFC 1951
// 3.2.4: a zero byte on the byte boundary, its length and the length's
// complement), an empty final stored block ends the stream, then sum (the
// page's CRC-32) and its length. Per request this copies; it neither
// compresses nor allocates. A fill too long for one stored block is
// compressed with the page per request.
func (z *Holes) writeTo(r *fasthttp.Response, fill string, sum uint32, gz bool) {
	r.ResetBody()
	if !gz || len(fill) > 0xffff {
		for i, part := range z.parts {
			if i > 0 {
				r.AppendBodyString(fill)
			}
			r.AppendBody(part)
		}
		if gz {
			r.SetBodyRaw(Gzip(append([]byte(nil), r.Body()...), gzip.BestSpeed))
			r.Header.SetCanonical(hContentEncoding, hGzip)
		}
		return
	}
	r.Header.SetCanonical(hContentEncoding, hGzip)
	r.AppendBody([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff})
	l := uint16(len(fill))
	stored := []byte{0, byte(l), byte(l >> 8), byte(^l), byte(^l >> 8)}
	for i, run := range z.runs {
		if i > 0 {
			r.AppendBody(stored)
			r.AppendBodyString(fill)
		}
		r.AppendBody(run)
	}
	var tail [13]byte
	copy(tail[:], []byte{1, 0, 0, 0xff, 0xff})
	binary.LittleEndian.PutUint32(tail[5:], sum)
	binary.LittleEndian.PutUint32(tail[9:], uint32(z.size(fill)))
	r.AppendBody(tail[:])
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
