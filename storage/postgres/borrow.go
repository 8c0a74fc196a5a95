package postgres

import "sync"

// A page read with app.ProductQuery.Borrow is written out before its
// transaction ends (CatalogService.WithProducts), so its docs need not be
// copies of their own: they are copied out of the connection's buffer into
// chunks of a pool that the transaction gives back when it ends. A page of
// docs then allocates nothing the garbage collector must later reclaim (it
// was 30 KB a page, most of the binary's allocation under a catalog load).

// chunkSize is the size of a pooled chunk; a doc larger than that gets a
// buffer of its own (not pooled).
const chunkSize = 64 << 10

var docChunks = sync.Pool{New: func() any { b := make([]byte, 0, chunkSize); return &b }}

// borrowDoc copies b into the transaction's chunks; the copy is valid until
// the transaction ends.
func (t *Tx) borrowDoc(b []byte) []byte {
	n := len(t.chunk)
	if cap(t.chunk)-n < len(b) {
		if len(b) > chunkSize {
			return ownDoc(b)
		}
		c := docChunks.Get().(*[]byte)
		t.chunks = append(t.chunks, c)
		t.chunk, n = (*c)[:0], 0
	}
	t.chunk = append(t.chunk, b...)
	return t.chunk[n:len(t.chunk):len(t.chunk)]
}

// ownDoc copies b into a buffer of its own, exactly as long (bytes.Clone may
// round the capacity up; TestBorrowDoc pins that no doc has room to grow).
func ownDoc(b []byte) []byte {
	c := make([]byte, len(b))
	copy(c, b)
	return c
}

// releaseDocs gives the transaction's chunks back: every borrowed doc it
// handed out is dead.
func (t *Tx) releaseDocs() {
	for _, c := range t.chunks {
		docChunks.Put(c)
	}
	t.chunks, t.chunk = nil, nil
}
