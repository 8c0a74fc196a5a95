package imaging

import (
	"image"
	"image/color"
	"testing"
)

// TestShrink: area averaging keeps a flat colour flat, averages a checkerboard
// to its mean, and a transparent pixel's colour does not bleed into its
// opaque neighbours.
func TestShrink(t *testing.T) {
	flat := image.NewNRGBA(image.Rect(0, 0, 7, 5))
	checker := image.NewGray(image.Rect(0, 0, 8, 8))
	half := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	for y := range 8 {
		for x := range 8 {
			flat.Set(x%7, y%5, color.NRGBA{200, 100, 50, 255})
			checker.SetGray(x, y, color.Gray{uint8(255 * ((x + y) % 2))})
		}
	}
	half.Set(0, 0, color.NRGBA{255, 0, 0, 255})
	half.Set(1, 0, color.NRGBA{0, 0, 255, 0})
	for _, tc := range []struct {
		name   string
		src    image.Image
		w, h   int
		x, y   int
		want   color.NRGBA
		approx bool
	}{
		{"flat 7x5 to 3x2", flat, 3, 2, 2, 1, color.NRGBA{200, 100, 50, 255}, false},
		{"checker 8x8 to 4x4", checker, 4, 4, 3, 3, color.NRGBA{128, 128, 128, 255}, true},
		{"checker 8x8 to 3x3", checker, 3, 3, 1, 1, color.NRGBA{128, 128, 128, 255}, true},
		{"red beside transparent blue", half, 1, 1, 0, 0, color.NRGBA{255, 0, 0, 128}, true},
	} {
		got := shrink(tc.src, tc.w, tc.h)
		if b := got.Bounds(); b.Dx() != tc.w || b.Dy() != tc.h {
			t.Fatalf("%s: got %v", tc.name, b)
		}
		c := color.NRGBAModel.Convert(got.At(tc.x, tc.y)).(color.NRGBA)
		near := func(a, b uint8) bool { return a == b || tc.approx && (a-b <= 2 || b-a <= 2) }
		if !near(c.R, tc.want.R) || !near(c.G, tc.want.G) || !near(c.B, tc.want.B) || !near(c.A, tc.want.A) {
			t.Errorf("%s: pixel (%d,%d) %v, want %v", tc.name, tc.x, tc.y, c, tc.want)
		}
	}
}
