// Package imaging turns an uploaded image into the renditions the shop
// serves: the type is sniffed from the bytes (JPEG, PNG, WebP, GIF; never the
// file name), the image is decoded, resized to Widths and encoded again with
// the standard library (JPEG when opaque, PNG when it has transparency), so
// metadata such as EXIF and GPS location never survives. It imports app for
// its errors and golang.org/x/image for WebP decoding and resampling; it must
// not import storage, web or admin.
package imaging

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"net/http"
	"runtime"
	"runtime/debug"
	"time"

	"golang.org/x/image/webp"
	"golang.org/x/sync/semaphore"

	"storefront/app"
)

// MaxBytes is the largest accepted upload (10 MiB).
const MaxBytes = 10 << 20

// MaxPixels bounds the decoded size (a small file can claim a huge canvas).
const MaxPixels = 50_000_000

// Budget bounds the memory of the images being processed, all uploads of
// the process together: each operation holds its peak (Peak: the decoded
// image, the decoder's own buffers, every rendition and its encoding) from
// before its decode until its last encoding, and an image whose peak alone is
// larger is refused from its header (payload_too_large), never decoded. 240
// MB keeps the server under 300 MB of resident memory whatever its uploads
// (docs/decisions.md, Uploads).
const Budget = 240 << 20

// Wait is how long an upload waits for room in the Budget before it is
// refused with rate_limited (429, Retry-After).
const Wait = 30 * time.Second

var (
	// decoding holds the peaks of the images being processed.
	decoding = semaphore.NewWeighted(Budget)
	// decoders run at most one per CPU: decoding and scaling are CPU work.
	decodeSlots = make(chan struct{}, runtime.NumCPU())
)

// DecodedSize is the memory an image of cfg takes once decoded.
func DecodedSize(cfg image.Config) int64 {
	return int64(cfg.Width) * int64(cfg.Height) * bytesPerPixel(cfg.ColorModel)
}

// Peak is the most memory processing an image of type ct (its bytes data,
// its header cfg) holds at once: the decoded image and what its decoder keeps
// beside it, every rendition (an RGBA copy and its encoding, the largest one
// twice more, as when a JPEG is turned upright) and the rows the scaling
// works on.
func Peak(ct string, data []byte, cfg image.Config) int64 {
	px := int64(cfg.Width) * int64(cfg.Height)
	peak := DecodedSize(cfg)
	switch {
	case ct == "image/webp" && cfg.ColorModel == color.NRGBAModel:
		peak += 4 * px // the lossless decoder's ARGB words beside the image
	case ct == "image/jpeg" && progressive(data):
		peak += 4 * px * components(cfg.ColorModel) // every block's coefficients until the last scan
	}
	w, h := cfg.Width, cfg.Height
	for i := len(Widths) - 1; i >= 0; i-- {
		w, h = fitWidth(w, h, Widths[i])
		peak += 2 * 4 * int64(w) * int64(h)
	}
	fw, fh := fitWidth(cfg.Width, cfg.Height, Widths[len(Widths)-1])
	// orient's two copies, counted for every image: without this slack two
	// 5000x5000 PNGs at once took the server to 333 MB instead of 247
	peak += 2 * 4 * int64(fw) * int64(fh)
	peak += 4*int64(max(cfg.Width, cfg.Height)) + 64*int64(fw) + 1<<20 // the rows of shrink, the decoder's buffers
	return peak
}

// components is the number of colour components of a JPEG of model m.
func components(m color.Model) int64 {
	switch m {
	case color.GrayModel:
		return 1
	case color.CMYKModel:
		return 4
	}
	return 3
}

// progressive reports whether a JPEG is progressive (its frame header is
// SOF2): the standard decoder then keeps every block's coefficients. Only the
// segments before the first scan are walked.
func progressive(data []byte) bool {
	for i := 2; i+4 <= len(data) && data[i] == 0xFF; {
		switch marker := data[i+1]; {
		case marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE:
			return true
		case marker == 0xDA || marker == 0xD9:
			return false
		}
		i += 2 + int(binary.BigEndian.Uint16(data[i+2:]))
	}
	return false
}

func bytesPerPixel(m color.Model) int64 {
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	switch m {
	case color.GrayModel, color.AlphaModel:
		return 1
	case color.Gray16Model, color.Alpha16Model:
		return 2
	case color.YCbCrModel:
		return 3
	case color.RGBAModel, color.NRGBAModel, color.CMYKModel, color.NYCbCrAModel:
		return 4
	}
	return 8 // RGBA64, NRGBA64 and anything unknown: the widest
}

// Widths are the rendition widths, smallest first. An image narrower than a
// width is kept at its own width under that name (never scaled up).
var Widths = []int{160, 480, 1200}

// JPEGQuality is the quality of re-encoded opaque images.
const JPEGQuality = 82

// Result is a processed upload.
type Result struct {
	// Hash is the hex SHA-256 of the uploaded bytes: the content address
	// every rendition's name starts with.
	Hash string
	// Ext is "jpg" or "png"; ContentType its media type.
	Ext         string
	ContentType string
	// Files holds one encoded rendition per width of Widths.
	Files map[int][]byte
	// Width and Height are the uploaded image's size.
	Width, Height int
}

// Sniff returns the image type of data ("image/jpeg", "image/png",
// "image/webp", "image/gif"), or "" when it is none of them.
func Sniff(data []byte) string {
	switch ct := http.DetectContentType(data); ct {
	case "image/jpeg", "image/png", "image/webp", "image/gif":
		return ct
	}
	return ""
}

// Process validates, decodes, resizes and re-encodes one upload. field names
// the upload in error messages. Errors: payload_too_large over MaxBytes,
// validation_failed for a type that is not an image we take or a file that
// does not decode.
func Process(field string, data []byte) (*Result, error) {
	if len(data) > MaxBytes {
		return nil, &app.Error{Code: app.EPayloadTooLarge, Message: fmt.Sprintf("%s: an image may be at most 10 MB", field)}
	}
	if len(data) == 0 {
		return nil, app.Invalid(field, "is empty")
	}
	ct := Sniff(data)
	if ct == "" {
		return nil, app.Invalid(field, "must be a JPEG, PNG, WebP or GIF image (checked by content, not by name)")
	}
	decodeConfig, decode := decoders(ct)
	cfg, err := decodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, app.Invalid(field, "is not a readable "+ct+" image")
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > MaxPixels {
		return nil, app.Invalid(field, fmt.Sprintf("is %dx%d pixels; at most 50 megapixels", cfg.Width, cfg.Height))
	}
	peak := Peak(ct, data, cfg)
	if peak > Budget {
		return nil, &app.Error{Code: app.EPayloadTooLarge, Message: field + ": the image takes too much memory to process",
			Fields: map[string]string{field: fmt.Sprintf("is %dx%d pixels of %d bytes each (%d MB decoded, %d MB to process); at most %d MB: use fewer pixels or 8 bits per channel",
				cfg.Width, cfg.Height, bytesPerPixel(cfg.ColorModel), DecodedSize(cfg)>>20, peak>>20, Budget>>20)}}
	}
	release, err := reserve(peak)
	if err != nil {
		return nil, err
	}
	defer release()
	return render(field, ct, data, decode)
}

// collectFrom is the peak from which a finished image's garbage is collected
// at once and its memory handed back to the system (debug.FreeOSMemory),
// before its share of the Budget is given back: the heap does not grow to
// the collector's own target (three times the live heap at GOGC 200), and
// when a small allocation has landed in the freed range meanwhile, the next
// large image's new pages are not resident beside the old ones (a peak of
// 425-444 MB instead of about 272 in TestImageDecodesBoundedMemory, twice
// in runs on a loaded machine).
const collectFrom = 16 << 20

// reserve takes peak bytes of the Budget, waiting at most Wait (then
// rate_limited), and a decoder slot; the returned func gives both back.
func reserve(peak int64) (func(), error) {
	ctx, cancel := context.WithTimeout(context.Background(), Wait)
	defer cancel()
	if decoding.Acquire(ctx, peak) != nil {
		return nil, &app.Error{Code: app.ERateLimited, Message: "the server is processing other images: retry in a minute", RetryAfter: 60}
	}
	decodeSlots <- struct{}{}
	return func() {
		<-decodeSlots
		if peak >= collectFrom {
			debug.FreeOSMemory()
		}
		decoding.Release(peak)
	}, nil
}

// render decodes data and encodes its renditions: the largest scaled from the
// decoded image (and turned upright when a JPEG says so), each smaller one
// from the one before.
func render(field, ct string, data []byte, decode func(r *bytes.Reader) (image.Image, error)) (*Result, error) {
	img, err := decode(bytes.NewReader(data))
	if err != nil {
		return nil, app.Invalid(field, "is not a readable "+ct+" image")
	}
	o := 1
	if ct == "image/jpeg" {
		// a phone's photo is stored sideways with an EXIF orientation: turn
		// it upright before re-encoding drops the metadata
		o = jpegOrientation(data)
	}
	sum := sha256.Sum256(data)
	b := img.Bounds()
	res := &Result{Hash: hex.EncodeToString(sum[:]), Files: make(map[int][]byte, len(Widths)), Width: b.Dx(), Height: b.Dy()}
	if o >= 5 {
		res.Width, res.Height = b.Dy(), b.Dx()
	}
	opaque := isOpaque(img)
	res.Ext, res.ContentType = "png", "image/png"
	if opaque {
		res.Ext, res.ContentType = "jpg", "image/jpeg"
	}
	var src image.Image
	for i := len(Widths) - 1; i >= 0; i-- {
		w := Widths[i]
		var r image.Image
		if src == nil {
			uw, uh := fitWidth(res.Width, res.Height, w)
			if o >= 5 {
				uw, uh = uh, uw
			}
			r = orient(shrink(img, uw, uh), o)
			img = nil // the decoded image is garbage from here
		} else {
			sw, sh := fitWidth(src.Bounds().Dx(), src.Bounds().Dy(), w)
			r = shrink(src, sw, sh)
		}
		if res.Files[w], err = encode(r, opaque); err != nil {
			return nil, fmt.Errorf("imaging: encode %d: %w", w, err)
		}
		src = r
	}
	return res, nil
}

// encode is img as a JPEG when opaque, else as a PNG.
func encode(img image.Image, opaque bool) ([]byte, error) {
	var buf bytes.Buffer
	var err error
	if opaque {
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: JPEGQuality})
	} else {
		err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img)
	}
	return buf.Bytes(), err
}

func decoders(ct string) (func(r *bytes.Reader) (image.Config, error), func(r *bytes.Reader) (image.Image, error)) {
	switch ct {
	case "image/jpeg":
		return func(r *bytes.Reader) (image.Config, error) { return jpeg.DecodeConfig(r) },
			func(r *bytes.Reader) (image.Image, error) { return jpeg.Decode(r) }
	case "image/png":
		return func(r *bytes.Reader) (image.Config, error) { return png.DecodeConfig(r) },
			func(r *bytes.Reader) (image.Image, error) { return png.Decode(r) }
	case "image/gif": // the first frame
		return func(r *bytes.Reader) (image.Config, error) { return gif.DecodeConfig(r) },
			func(r *bytes.Reader) (image.Image, error) { return gif.Decode(r) }
	default:
		return func(r *bytes.Reader) (image.Config, error) { return webp.DecodeConfig(r) },
			func(r *bytes.Reader) (image.Image, error) { return webp.Decode(r) }
	}
}

// fitWidth is the size of a w x h image scaled to width at most max,
// keeping the aspect ratio (never scaled up).
func fitWidth(w, h, maxW int) (int, int) {
	if w <= maxW {
		return w, h
	}
	return maxW, max(1, (h*maxW+w/2)/w)
}

// isOpaque reports whether every pixel is fully opaque.
func isOpaque(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return o.Opaque()
	}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if _, _, _, a := img.At(x, y).RGBA(); a != 0xffff {
				return false
			}
		}
	}
	return true
}
