package storage

import (
	"bytes"

	bolt "go.etcd.io/bbolt"

	"storefront/app"
)

// prefixEnd returns the smallest key greater than every key with prefix, or
// nil when there is none (prefix all 0xff).
func prefixEnd(prefix []byte) []byte {
	end := bytes.Clone(prefix)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}

// seekGet is Bucket.Get through c, one cursor for a series of lookups: a
// Get makes a cursor of its own, whose stack was most of a search's
// allocations (four a lookup; storage/search.go).
func seekGet(c *bolt.Cursor, key []byte) []byte {
	k, v := c.Seek(key)
	if !bytes.Equal(k, key) {
		return nil
	}
	return v
}

// walk visits the keys under prefix in order (descending when desc), starting
// just after prefix|after when after is set. visit returns false to stop.
// The bytes passed to visit are bbolt's: copy what outlives the transaction.
func walk(b *bolt.Bucket, prefix, after []byte, desc bool, visit func(k, v []byte) (bool, error)) error {
	c := b.Cursor()
	var k, v []byte
	switch {
	case !desc && after == nil:
		k, v = c.Seek(prefix)
	case !desc:
		target := append(bytes.Clone(prefix), after...)
		k, v = c.Seek(target)
		if k != nil && bytes.Equal(k, target) {
			k, v = c.Next()
		}
	default:
		var target []byte
		if after == nil {
			target = prefixEnd(prefix)
		} else {
			target = append(bytes.Clone(prefix), after...)
		}
		if target == nil {
			k, v = c.Last()
		} else if k, _ = c.Seek(target); k == nil {
			k, v = c.Last()
		} else {
			k, v = c.Prev()
		}
	}
	for k != nil && bytes.HasPrefix(k, prefix) {
		more, err := visit(k, v)
		if err != nil || !more {
			return err
		}
		if desc {
			k, v = c.Prev()
		} else {
			k, v = c.Next()
		}
	}
	return nil
}

// page reads one page of a list kept under prefix: it walks from the cursor,
// lets decode turn each entry into an item (or skip it), and reads limit+1
// items to know whether there is a next page. The next cursor is the key
// suffix of the last item returned.
func page[T any](b *bolt.Bucket, prefix []byte, lp app.ListParams, desc bool, decode func(k, v []byte) (T, bool, error)) (app.Page[T], error) {
	var out app.Page[T]
	var after []byte
	if lp.After != nil {
		after = lp.After.Key
	}
	limit := lp.Limit
	if limit <= 0 {
		limit = app.DefaultLimit
	}
	var lastKey []byte
	err := walk(b, prefix, after, desc, func(k, v []byte) (bool, error) {
		item, ok, err := decode(k, v)
		if err != nil || !ok {
			return err == nil, err
		}
		if len(out.Items) == limit {
			out.Next = &app.Cursor{Sort: lp.Sort, Key: bytes.Clone(lastKey[len(prefix):])}
			return false, nil
		}
		out.Items = append(out.Items, item)
		lastKey = append(lastKey[:0], k...)
		return true, nil
	})
	if out.Items == nil {
		out.Items = []T{}
	}
	return out, err
}

// decodeJSONRecord is a page decoder for buckets whose values are JSON records.
func decodeJSONRecord[T any](what string) func(k, v []byte) (*T, bool, error) {
	return func(k, v []byte) (*T, bool, error) {
		var x T
		if err := getJSONBytes(v, &x, what); err != nil {
			return nil, false, err
		}
		return &x, true, nil
	}
}

// recordByIndex is a page decoder for index buckets whose keys end in an id:
// it loads the record from records at sid|id.
func recordByIndex[T any](records *bolt.Bucket, sid uint64, what string) func(k, v []byte) (*T, bool, error) {
	return func(k, _ []byte) (*T, bool, error) {
		var x T
		if err := getJSON(records, keyOf(sid).id(idFromKeyEnd(k)), &x, what); err != nil {
			return nil, false, err
		}
		return &x, true, nil
	}
}
