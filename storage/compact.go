package storage

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"time"
)

// Orders, payment sessions and idempotency records are stored in one form
// each, a compact binary one (schema 3; migrate3.go rewrote the forms
// before it). Plain JSON was measured against them (docs/benchmarks.md,
// issue 30): it doubles the bytes on disk per order and the CPU of a
// verification. The forms are built from a few parts: uvarint and varint
// numbers, length-prefixed strings, fixed-size bytes, times, and a redirect
// URL stored without the session id it contains.

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// appendRedirect writes url with the first occurrence of id cut out (it is
// stored beside it): uvarint position+1 (0: not in it), then the rest.
func appendRedirect(b []byte, url, id string) []byte {
	at := 0
	if i := strings.Index(url, id); id != "" && i >= 0 {
		url, at = url[:i]+url[i+len(id):], i+1
	}
	return appendString(binary.AppendUvarint(b, uint64(at)), url)
}

// compactReader reads the parts of a compact record in order; err is set
// once a part runs past the end or does not parse. It reads one string
// copy of the record (compactReader{s: string(v)}): the strings it returns
// are slices of it, so a record costs one allocation for all of them.
type compactReader struct {
	s   string
	err bool
}

// fail marks the record bad; every later part reads as zero.
func (d *compactReader) fail() { d.err, d.s = true, "" }

func (d *compactReader) uvarint() uint64 {
	var x uint64
	for i := 0; i < len(d.s) && i < binary.MaxVarintLen64; i++ {
		c := d.s[i]
		if i == binary.MaxVarintLen64-1 && c > 1 {
			break // overflows 64 bits
		}
		x |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			d.s = d.s[i+1:]
			return x
		}
	}
	d.fail()
	return 0
}

// varint reads a zigzag-encoded number (binary.AppendVarint).
func (d *compactReader) varint() int64 { return unzigzag(d.uvarint()) }

// zigzag and unzigzag map signed numbers to unsigned ones and back, small
// magnitudes to small numbers (binary.AppendVarint's encoding).
func zigzag(n int64) uint64   { return uint64(n<<1 ^ n>>63) }
func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

func (d *compactReader) bytes(n int) string {
	if len(d.s) < n {
		d.fail()
		return ""
	}
	out := d.s[:n]
	d.s = d.s[n:]
	return out
}

func (d *compactReader) str() string {
	n := d.uvarint()
	if n > uint64(len(d.s)) {
		d.fail()
		return ""
	}
	return d.bytes(int(n))
}

// redirect reads what appendRedirect wrote, putting id back in.
func (d *compactReader) redirect(id string) string {
	at := d.uvarint()
	url := d.str()
	if at == 0 {
		return url
	}
	if at-1 > uint64(len(url)) {
		d.fail()
		return ""
	}
	return url[:at-1] + id + url[at-1:]
}

// count reads a list's length (appendCount): false for null. Each element
// takes at least least bytes, so a damaged count cannot ask for more memory
// than the record could hold.
func (d *compactReader) count(least int) (int, bool) {
	n := d.uvarint()
	if n == 0 {
		return 0, false
	}
	if n-1 > uint64(len(d.s)/least) {
		d.fail()
		return 0, false
	}
	return int(n - 1), true
}

// time reads what appendTime wrote.
func (d *compactReader) time() time.Time {
	u := d.uvarint()
	if u == 0 {
		return time.Time{}
	}
	return time.Unix(0, unzigzag(u-1)).UTC()
}

// done reports whether every part read well and nothing is left over.
func (d *compactReader) done() bool { return !d.err && len(d.s) == 0 }

// appendCount writes a list's length: 0 for null, else 1+n.
func appendCount(b []byte, isNil bool, n int) []byte {
	if isNil {
		return append(b, 0)
	}
	return binary.AppendUvarint(b, uint64(n)+1)
}

// errTimeRange: a time the forms cannot hold (before 1678 or after 2262).
var errTimeRange = errors.New("storage: a time outside Unix nanoseconds (years 1678-2262) cannot be stored")

// unixNanos reports whether t is an instant Unix nanoseconds hold exactly.
func unixNanos(t time.Time) bool {
	n := t.UnixNano()
	return n != math.MinInt64 && time.Unix(0, n).Equal(t)
}

// timesFit is nil when appendTime can hold every one of ts: the zero time,
// or an instant within Unix nanoseconds (read back in UTC).
func timesFit(ts ...time.Time) error {
	for _, t := range ts {
		if !t.IsZero() && !unixNanos(t) {
			return errTimeRange
		}
	}
	return nil
}

// appendTime writes t (timesFit): uvarint 0 for the zero time, else 1 + its
// Unix nanoseconds zigzag-encoded; read back in UTC.
func appendTime(b []byte, t time.Time) []byte {
	if t.IsZero() {
		return append(b, 0)
	}
	return binary.AppendUvarint(b, zigzag(t.UnixNano())+1)
}

// storedJSON is a stored record decoded and marshalled (Export hands JSON on).
func storedJSON[T any](k, v []byte, decode func(k, v []byte) (*T, error)) ([]byte, error) {
	r, err := decode(k, v)
	if err != nil {
		return nil, err
	}
	return json.Marshal(r)
}
