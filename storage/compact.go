package storage

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"strings"
	"time"
)

// The compact binary records (idempotency records, payment sessions, orders)
// are built from a few parts: uvarint and varint numbers, length-prefixed
// strings, fixed-size bytes, and a redirect URL stored without the session
// id it contains. A record whose first byte is '{' is the older JSON form.

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

// timeFits reports whether appendTime can hold t exactly: the zero time, or
// a time in UTC within Unix nanoseconds.
func timeFits(t time.Time) bool {
	return t == (time.Time{}) || utcNanos(t) && t.UnixNano() != math.MinInt64
}

// appendTime writes t (timeFits): uvarint 0 for the zero time, else 1 + its
// Unix nanoseconds zigzag-encoded; read back in UTC.
func appendTime(b []byte, t time.Time) []byte {
	if t == (time.Time{}) {
		return append(b, 0)
	}
	return binary.AppendUvarint(b, zigzag(t.UnixNano())+1)
}

// storedJSON is a stored record as JSON: the older JSON form as it is, a
// compact one decoded and marshalled.
func storedJSON[T any](k, v []byte, decode func(k, v []byte) (*T, error)) ([]byte, error) {
	if len(v) > 0 && v[0] == '{' {
		return v, nil
	}
	r, err := decode(k, v)
	if err != nil {
		return nil, err
	}
	return json.Marshal(r)
}
