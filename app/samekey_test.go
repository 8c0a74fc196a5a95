package app

import (
	"strings"
	"testing"
)

// TestSameKey: sameKey is ==, for every length around the word size and a
// difference at every position (in the words and in the tail).
func TestSameKey(t *testing.T) {
	for n := 0; n <= 70; n++ {
		a := NewAPIKey() + NewAPIKey()
		a = a[:n]
		if !sameKey(a, strings.Clone(a)) {
			t.Fatalf("len %d: an equal key differs", n)
		}
		for i := 0; i < n; i++ {
			b := []byte(a)
			b[i] ^= 0x01
			if sameKey(a, string(b)) {
				t.Fatalf("len %d: a difference at byte %d is not seen", n, i)
			}
			b[i] ^= 0x81 // only the top bit differs
			if sameKey(a, string(b)) {
				t.Fatalf("len %d: a difference in the top bit of byte %d is not seen", n, i)
			}
		}
		if n > 0 && (sameKey(a, a[:n-1]) || sameKey(a[:n-1], a)) {
			t.Fatalf("len %d: a shorter key is the same", n)
		}
	}
}
