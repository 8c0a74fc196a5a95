package imaging

import (
	"image"
	"image/draw"
)

// shrink scales src down to dw x dh (not larger than src) by area averaging:
// each output pixel is the mean of the source area it covers, in
// premultiplied colour, so a transparent pixel's colour does not bleed. It
// walks the source one row at a time, holding that row, the horizontal sums
// and the two output rows a source row can fall into, besides the result;
// nothing the size of the source (draw.CatmullRom's buffer of dw x source
// height float64 quadruples was 269 MB for a 7000-pixel-high image).
func shrink(src image.Image, dw, dh int) *image.RGBA {
	b := src.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))
	if dw == b.Dx() && dh == b.Dy() {
		draw.Draw(dst, dst.Bounds(), src, b.Min, draw.Src)
		return dst
	}
	xs, ys := spans(b.Dx(), dw), spans(b.Dy(), dh)
	row := image.NewRGBA(image.Rect(0, 0, b.Dx(), 1))
	sums := make([]float64, 4*dw)
	acc := [2][]float64{make([]float64, 4*dw), make([]float64, 4*dw)}
	cur := 0 // the output row acc[0] sums
	for sy, y := range ys {
		draw.Draw(row, row.Bounds(), src, image.Pt(b.Min.X, b.Min.Y+sy), draw.Src)
		clear(sums)
		for sx, x := range xs {
			p := row.Pix[4*sx : 4*sx+4]
			add(sums[4*x.to:], p, x.w)
			if x.w2 > 0 {
				add(sums[4*x.to+4:], p, x.w2)
			}
		}
		for ; y.to > cur; cur++ { // the rows before this one are complete
			put(dst, cur, acc[0])
			acc[0], acc[1] = acc[1], acc[0]
			clear(acc[1])
		}
		addScaled(acc[0], sums, y.w)
		addScaled(acc[1], sums, y.w2)
	}
	put(dst, cur, acc[0])
	return dst
}

// span is where one source pixel falls among the output pixels: weight w in
// output pixel to, and w2 in the next one (its share of each, in output
// pixel units: the weights of one output pixel add up to 1).
type span struct {
	to    int
	w, w2 float64
}

// spans maps each of n source pixels onto m <= n output pixels.
func spans(n, m int) []span {
	out := make([]span, n)
	scale := float64(m) / float64(n)
	for i := range out {
		a, b := float64(i)*scale, float64(i+1)*scale
		to := min(int(a), m-1)
		if edge := float64(to + 1); b > edge && to+1 < m {
			out[i] = span{to: to, w: edge - a, w2: b - edge}
		} else {
			out[i] = span{to: to, w: b - a}
		}
	}
	return out
}

func add(sum []float64, p []uint8, w float64) {
	sum[0] += float64(p[0]) * w
	sum[1] += float64(p[1]) * w
	sum[2] += float64(p[2]) * w
	sum[3] += float64(p[3]) * w
}

func addScaled(acc, sums []float64, w float64) {
	if w == 0 {
		return
	}
	for i, v := range sums {
		acc[i] += v * w
	}
}

// put writes the sums of output row y into dst, rounded.
func put(dst *image.RGBA, y int, sums []float64) {
	if y >= dst.Rect.Dy() {
		return
	}
	pix := dst.Pix[y*dst.Stride : y*dst.Stride+len(sums)]
	for i, v := range sums {
		pix[i] = uint8(min(255, max(0, v+0.5)))
	}
}
