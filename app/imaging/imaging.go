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
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"net/http"
	"runtime"

	"golang.org/x/image/draw"
	"golang.org/x/image/webp"
	"golang.org/x/sync/semaphore"

	"storefront/app"
)

// MaxBytes is the largest accepted upload (10 MiB).
const MaxBytes = 10 << 20

// MaxPixels bounds the decoded size (a small file can claim a huge canvas).
const MaxPixels = 50_000_000

// DecodeBudget bounds the memory of decoded images: one whose decoded size
// (from its header: pixels x bytes per pixel of its colour model) is larger
// is refused before it is decoded, and the decodes running at once hold at
// most this much together.
const DecodeBudget = 200 << 20

var (
	// decoding holds the decoded bytes of the images being processed.
	decoding = semaphore.NewWeighted(DecodeBudget)
	// decoders run at most one per CPU: decoding and scaling are CPU work.
	decodeSlots = make(chan struct{}, runtime.NumCPU())
)

// DecodedSize is the memory an image of cfg takes once decoded.
func DecodedSize(cfg image.Config) int64 {
	return int64(cfg.Width) * int64(cfg.Height) * bytesPerPixel(cfg.ColorModel)
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
	size := DecodedSize(cfg)
	if size > DecodeBudget {
		return nil, app.Invalid(field, fmt.Sprintf("is %dx%d pixels of %d bytes each (%d MB decoded); at most %d MB: use fewer pixels or 8 bits per channel",
			cfg.Width, cfg.Height, bytesPerPixel(cfg.ColorModel), size>>20, DecodeBudget>>20))
	}
	decodeSlots <- struct{}{}
	defer func() { <-decodeSlots }()
	_ = decoding.Acquire(context.Background(), size) // never fails: no deadline, size <= DecodeBudget
	defer decoding.Release(size)
	return render(field, ct, data, decode)
}

// render decodes data and encodes its renditions.
func render(field, ct string, data []byte, decode func(r *bytes.Reader) (image.Image, error)) (*Result, error) {
	img, err := decode(bytes.NewReader(data))
	if err != nil {
		return nil, app.Invalid(field, "is not a readable "+ct+" image")
	}
	if ct == "image/jpeg" {
		// a phone's photo is stored sideways with an EXIF orientation: turn
		// it upright before re-encoding drops the metadata
		img = orient(img, jpegOrientation(data))
	}
	sum := sha256.Sum256(data)
	b := img.Bounds()
	res := &Result{Hash: hex.EncodeToString(sum[:]), Files: make(map[int][]byte, len(Widths)), Width: b.Dx(), Height: b.Dy()}
	opaque := isOpaque(img)
	if opaque {
		res.Ext, res.ContentType = "jpg", "image/jpeg"
	} else {
		res.Ext, res.ContentType = "png", "image/png"
	}
	// Scale from the largest down, each from the previous: cheaper than
	// three scalings of the original, and the same to the eye.
	src := img
	for i := len(Widths) - 1; i >= 0; i-- {
		w := Widths[i]
		r := resize(src, w)
		var buf bytes.Buffer
		if opaque {
			err = jpeg.Encode(&buf, r, &jpeg.Options{Quality: JPEGQuality})
		} else {
			err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, r)
		}
		if err != nil {
			return nil, fmt.Errorf("imaging: encode %d: %w", w, err)
		}
		res.Files[w] = buf.Bytes()
		src = r
	}
	return res, nil
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

// resize scales img to width w (keeping the aspect ratio), or copies it into
// a plain RGBA/NRGBA image when it is not wider than w.
func resize(img image.Image, w int) image.Image {
	b := img.Bounds()
	nw, nh := b.Dx(), b.Dy()
	if nw > w {
		nh = max(1, (nh*w+nw/2)/nw)
		nw = w
	}
	dst := image.NewNRGBA(image.Rect(0, 0, nw, nh))
	if nw == b.Dx() && nh == b.Dy() {
		draw.Draw(dst, dst.Bounds(), img, b.Min, draw.Src)
		return dst
	}
	draw.CatmullRom.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
	return dst
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
