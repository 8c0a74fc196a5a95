package app

// sizedCache is a map bounded by the bytes of its values: the catalog's
// caches (category pages, product details) hold what shoppers ask for, and
// the keys come from the request (a search word, a price range, a slug), so
// without a bound any client could fill the memory. Its owner holds the
// lock.
type sizedCache[K comparable, V any] struct {
	m            map[K]V
	bytes, limit int
	size         func(K, V) int
}

func newSizedCache[K comparable, V any](limit int, size func(K, V) int) sizedCache[K, V] {
	return sizedCache[K, V]{m: map[K]V{}, limit: limit, size: size}
}

// put keeps v under k. Over the bound it drops first what stale says will
// not be served again, then whatever the map yields first (never k), down to
// 7/8 of the bound, so that a full cache is scanned once per eighth of it
// refilled rather than on every put.
func (c *sizedCache[K, V]) put(k K, v V, stale func(K, V) bool) {
	if old, ok := c.m[k]; ok {
		c.bytes -= c.size(k, old)
	}
	c.m[k] = v
	c.bytes += c.size(k, v)
	if c.bytes <= c.limit {
		return
	}
	c.drop(stale)
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

// drop deletes the entries for which fn says so and returns how many.
func (c *sizedCache[K, V]) drop(fn func(K, V) bool) int {
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

// clear deletes every entry.
func (c *sizedCache[K, V]) clear() {
	clear(c.m)
	c.bytes = 0
}
