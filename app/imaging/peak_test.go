package imaging

import (
	"image"
	"image/color"
	"testing"
)

// TestPeak: the budget counts the whole operation: the decoded image, a
// progressive JPEG's coefficients (SOF2 before the first scan), the lossless
// WebP decoder's words and every rendition.
func TestPeak(t *testing.T) {
	seg := func(marker byte, n int) []byte {
		return append([]byte{0xFF, marker, byte((n + 2) >> 8), byte(n + 2)}, make([]byte, n)...)
	}
	jpeg := func(sof byte) []byte {
		b := []byte{0xFF, 0xD8}
		b = append(b, seg(0xE0, 14)...) // APP0
		b = append(b, seg(sof, 15)...)  // the frame header
		return append(b, seg(0xDA, 10)...)
	}
	big := image.Config{Width: 7000, Height: 7000, ColorModel: color.YCbCrModel}
	renditions := int64(2*4*(1200*1200+480*480+160*160)+2*4*1200*1200) + 4*7000 + 64*1200 + 1<<20
	for _, tc := range []struct {
		name string
		ct   string
		data []byte
		cfg  image.Config
		want int64
	}{
		{"baseline JPEG", "image/jpeg", jpeg(0xC0), big, 49_000_000*3 + renditions},
		{"progressive JPEG", "image/jpeg", jpeg(0xC2), big, 49_000_000*(3+4*3) + renditions},
		{"RGBA PNG", "image/png", nil, image.Config{Width: 7000, Height: 7000, ColorModel: color.NRGBAModel}, 49_000_000*4 + renditions},
		{"lossless WebP", "image/webp", nil, image.Config{Width: 7000, Height: 7000, ColorModel: color.NRGBAModel}, 49_000_000*8 + renditions},
	} {
		if got := Peak(tc.ct, tc.data, tc.cfg); got != tc.want {
			t.Errorf("%s: peak %d MB, want %d MB", tc.name, got>>20, tc.want>>20)
		}
	}
	if Peak("image/png", nil, image.Config{Width: 7000, Height: 7000, ColorModel: color.NRGBAModel}) > Budget {
		t.Error("a 7000x7000 RGBA PNG does not fit the budget")
	}
	if Peak("image/jpeg", jpeg(0xC2), big) <= Budget {
		t.Error("a 49 MP progressive JPEG fits the budget: its coefficients are not counted")
	}
}
