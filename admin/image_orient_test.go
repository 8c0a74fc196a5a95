package admin_test

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/jpeg"
	"strings"
	"testing"

	"storefront/testenv"
)

// orientedJPEG is a w×h landscape JPEG whose left half is red and right half
// blue, with an EXIF APP1 segment (a little-endian TIFF header, one IFD
// entry) saying orientation o, as a phone held upright writes it.
func orientedJPEG(t testing.TB, w, h int, o uint16) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.RGBA{220, 20, 20, 255}
			if x >= w/2 {
				c = color.RGBA{20, 20, 220, 255}
			}
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	tiff := []byte("II\x2a\x00\x08\x00\x00\x00")     // little endian, IFD at 8
	tiff = binary.LittleEndian.AppendUint16(tiff, 1) // one entry
	tiff = binary.LittleEndian.AppendUint16(tiff, 0x0112)
	tiff = binary.LittleEndian.AppendUint16(tiff, 3) // SHORT
	tiff = binary.LittleEndian.AppendUint32(tiff, 1)
	tiff = binary.LittleEndian.AppendUint16(tiff, o)
	tiff = append(tiff, 0, 0, 0, 0, 0, 0) // value padding, no next IFD
	exif := append([]byte("Exif\x00\x00"), tiff...)
	seg := append([]byte{0xFF, 0xE1, byte((len(exif) + 2) >> 8), byte(len(exif) + 2)}, exif...)
	raw := buf.Bytes()
	return append(append(append([]byte{}, raw[:2]...), seg...), raw[2:]...)
}

// A phone photo with EXIF orientation 6 (stored landscape, to be turned 90°
// clockwise) comes back portrait, the stored left side on top.
func TestImageUploadExifOrientation(t *testing.T) {
	e := testenv.New(t)
	sid, _ := e.Store("Shop A")
	p := e.Product(sid, 0, "Mug", 2000, 5)
	for _, tc := range []struct {
		name   string
		o      uint16
		w, h   int
		redTop bool
	}{
		{"Orientation6", 6, 300, 600, true},
		{"Orientation1", 1, 600, 300, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got productImages
			uploadImages(e, e.OwnerToken, sid, p.ID, testenv.File{Name: "phone.jpg", Data: orientedJPEG(t, 600, 300, tc.o)}).Expect(t, 201, "").Decode(t, &got)
			url := got.Images[len(got.Images)-1]
			url = strings.Replace(url, "-1200.jpg", "-480.jpg", 1)
			r := getMedia(t, e, url, nil)
			img, err := jpeg.Decode(bytes.NewReader(r.Raw))
			if err != nil {
				t.Fatalf("decode: %v (%d)", err, r.Status)
			}
			b := img.Bounds()
			if b.Dx()*tc.h != b.Dy()*tc.w {
				t.Fatalf("got %dx%d, want the shape %dx%d", b.Dx(), b.Dy(), tc.w, tc.h)
			}
			if tc.o == 6 {
				top, _, _, _ := img.At(b.Dx()/2, b.Dy()/8).RGBA()
				bottom, _, _, _ := img.At(b.Dx()/2, b.Dy()*7/8).RGBA()
				if top>>8 < 150 || bottom>>8 > 100 {
					t.Fatalf("red at the top %d, at the bottom %d: not turned clockwise", top>>8, bottom>>8)
				}
			}
			if bytes.Contains(r.Raw, []byte("Exif")) {
				t.Fatal("the EXIF segment survived")
			}
		})
	}
}
