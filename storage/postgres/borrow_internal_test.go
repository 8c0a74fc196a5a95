package postgres

import (
	"bytes"
	"testing"
)

// TestBorrowDoc: borrowed copies share pooled chunks without overwriting one
// another (a doc that does not fit starts a new chunk, one larger than a
// chunk gets its own buffer), and the transaction's end gives the chunks back.
func TestBorrowDoc(t *testing.T) {
	tx := &Tx{}
	var want, got [][]byte
	for i, n := range []int{1200, 900, chunkSize - 100, 300, chunkSize + 1, 50, 0, chunkSize} {
		b := bytes.Repeat([]byte{byte('a' + i)}, n)
		want = append(want, b)
		got = append(got, tx.borrowDoc(b))
	}
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Fatalf("doc %d: %d bytes, want %d", i, len(got[i]), len(want[i]))
		}
		if cap(got[i]) != len(got[i]) {
			t.Fatalf("doc %d: capacity %d over its length %d (an append would write into the next doc)", i, cap(got[i]), len(got[i]))
		}
	}
	if len(tx.chunks) != 4 {
		t.Fatalf("%d pooled chunks, want 4", len(tx.chunks))
	}
	tx.releaseDocs()
	if tx.chunks != nil || tx.chunk != nil {
		t.Fatal("the chunks are still the transaction's after releaseDocs")
	}
}
