package demo

import (
	"bytes"
	"image/png"
	"testing"
)

// TestRenditions: a picture's renditions are PNGs of each width (none wider
// than the picture), the same seed gives the same bytes, and the largest is
// a few KB.
func TestRenditions(t *testing.T) {
	m := renditions("organic-cotton-t-shirt-1", 480, 480)
	for w, want := range map[int]int{160: 160, 480: 480, 1200: 480} {
		cfg, err := png.DecodeConfig(bytes.NewReader(m.Files[w]))
		if err != nil || cfg.Width != want || cfg.Height != want {
			t.Fatalf("rendition %d: %dx%d (%v), want %d wide", w, cfg.Width, cfg.Height, err, want)
		}
	}
	if len(m.Files[1200]) > 8<<10 {
		t.Fatalf("the largest rendition is %d bytes, want a few KB", len(m.Files[1200]))
	}
	if again := renditions("organic-cotton-t-shirt-1", 480, 480); again.Hash != m.Hash || len(m.Hash) != 64 {
		t.Fatalf("hash %q, then %q", m.Hash, again.Hash)
	}
	if other := renditions("classic-hoodie-1", 480, 480); other.Hash == m.Hash {
		t.Fatal("two seeds drew the same picture")
	}
}

func BenchmarkRenditions(b *testing.B) {
	for b.Loop() {
		renditions("organic-cotton-t-shirt-1", 480, 480)
	}
}
