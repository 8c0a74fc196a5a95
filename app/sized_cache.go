package app

// SizedCache is a map bounded by the bytes of its values: the catalog's
// caches (product pages and details) hold what shoppers ask for, and the keys come from the
// request (a search word, a price range, a slug), so without a bound any
// client could fill the memory. Its owner holds the lock: a write lock for
// Put, Drop and Clear; Get and Len only read.
type SizedCache[K comparable, V any] struct {
	m            map[K]V
	bytes, limit int
	size         func(K, V) int
}

// NewSizedCache returns an empty cache of at most limit bytes, each entry
// counted as size says.
func NewSizedCache[K comparable, V any](limit int, size func(K, V) int) SizedCache[K, V] {
	return SizedCache[K, V]{m: map[K]V{}, limit: limit, size: size}
}

// Get returns the entry under k.
func (c *SizedCache[K, V]) Get(k K) (V, bool) {
	v, ok := c.m[k]
	return v, ok
}

// Len is the number of entries; Bytes what they hold, as size counts it.
func (c *SizedCache[K, V]) Len() int   { return len(c.m) }
func (c *SizedCache[K, V]) Bytes() int { return c.bytes }

// Put keeps v under k. Over the bound it drops first what stale says will
// not be served again, then whatever the map yields first (never k), down to
// 7/8 of the bound, so that a full cache is scanned once per eighth of it
// refilled rather than on every put.
func (c *SizedCache[K, V]) Put(k K, v V, stale func(K, V) bool) {
	if old, ok := c.m[k]; ok {
		c.bytes -= c.size(k, old)
	}
	c.m[k] = v
	c.bytes += c.size(k, v)
	if c.bytes <= c.limit {
		return
	}
	c.Drop(stale)
	low := c.limit - c.limit/8
	for k2, v2 := range c.m {
		if c.bytes <= low {
			break
		}
		if k2 != k {
			delete(c.m, k2)
			c.bytes -= c.size(k2, v2)
		}
	}
}

// Drop deletes the entries for which fn says so and returns how many.
func (c *SizedCache[K, V]) Drop(fn func(K, V) bool) int {
	n := 0
	for k, v := range c.m {
		if fn(k, v) {
			delete(c.m, k)
			c.bytes -= c.size(k, v)
			n++
		}
	}
	return n
}

// Clear deletes every entry.
func (c *SizedCache[K, V]) Clear() {
	clear(c.m)
	c.bytes = 0
}
