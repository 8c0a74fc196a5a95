package storage

import (
	"encoding/binary"
	"encoding/json"
	"strings"
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
// once a part runs past the end or does not parse.
type compactReader struct {
	b   []byte
	err bool
}

func (d *compactReader) uvarint() uint64 {
	n, w := binary.Uvarint(d.b)
	if w <= 0 {
		d.err = true
		return 0
	}
	d.b = d.b[w:]
	return n
}

func (d *compactReader) varint() int64 {
	n, w := binary.Varint(d.b)
	if w <= 0 {
		d.err = true
		return 0
	}
	d.b = d.b[w:]
	return n
}

func (d *compactReader) bytes(n int) []byte {
	if d.err || len(d.b) < n {
		d.err = true
		return nil
	}
	out := d.b[:n]
	d.b = d.b[n:]
	return out
}

func (d *compactReader) str() string {
	n := d.uvarint()
	if d.err || n > uint64(len(d.b)) {
		d.err = true
		return ""
	}
	return string(d.bytes(int(n)))
}

// redirect reads what appendRedirect wrote, putting id back in.
func (d *compactReader) redirect(id string) string {
	at := d.uvarint()
	url := d.str()
	if at == 0 {
		return url
	}
	if at-1 > uint64(len(url)) {
		d.err = true
		return ""
	}
	return url[:at-1] + id + url[at-1:]
}

// done reports whether every part read well and nothing is left over.
func (d *compactReader) done() bool { return !d.err && len(d.b) == 0 }

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
