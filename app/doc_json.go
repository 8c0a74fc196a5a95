package app

import (
	"encoding/binary"
	"encoding/json"
	"errors"
)

// Doc is an entity's public JSON representation, encoded once at write time so
// that a list page is assembled from bytes. It keeps the offsets of every
// top-level member, so trimming to a set of fields copies slices instead of
// decoding and re-encoding. Members marked heavy (a product's variants) are
// kept in the Doc but left out unless a caller names them.
//
// Binary form: uint16 member count, then per member: uint8 name length, name,
// uint32 start, uint32 end, uint8 heavy; then the body. The body holds the
// members' `"name":value` encodings separated by commas, light ones first.
type Doc []byte

// DocMember is one top-level member for NewDoc.
type DocMember struct {
	Name  string
	Value any // encoded with encoding/json, or a json.RawMessage
	Heavy bool
}

// NewDoc encodes members into a Doc.
func NewDoc(members ...DocMember) (Doc, error) {
	var body []byte
	type span struct {
		name       string
		start, end int
		heavy      bool
	}
	spans := make([]span, 0, len(members))
	// light members first so that the default object is one contiguous slice
	for pass := 0; pass < 2; pass++ {
		for _, m := range members {
			if m.Heavy != (pass == 1) {
				continue
			}
			v, err := json.Marshal(m.Value)
			if err != nil {
				return nil, err
			}
			if len(body) > 0 {
				body = append(body, ',')
			}
			start := len(body)
			body = append(body, '"')
			body = append(body, m.Name...)
			body = append(body, '"', ':')
			body = append(body, v...)
			spans = append(spans, span{m.Name, start, len(body), m.Heavy})
		}
	}
	out := binary.BigEndian.AppendUint16(nil, uint16(len(spans)))
	for _, s := range spans {
		out = append(out, byte(len(s.name)))
		out = append(out, s.name...)
		out = binary.BigEndian.AppendUint32(out, uint32(s.start))
		out = binary.BigEndian.AppendUint32(out, uint32(s.end))
		if s.heavy {
			out = append(out, 1)
		} else {
			out = append(out, 0)
		}
	}
	return append(out, body...), nil
}

var errBadDoc = errors.New("app: malformed doc")

// docMember is one parsed header entry.
type docMember struct {
	name       []byte
	start, end int
	heavy      bool
}

// each walks the header of d, checking every bound, and calls fn with each
// member and the body. It returns errBadDoc for a corrupt doc.
func (d Doc) each(fn func(m docMember, body []byte)) error {
	if len(d) < 2 {
		return errBadDoc
	}
	n := int(binary.BigEndian.Uint16(d))
	// find the body first: the header is n entries of 1+len+9 bytes
	p := 2
	for i := 0; i < n; i++ {
		if p >= len(d) {
			return errBadDoc
		}
		p += 1 + int(d[p]) + 9
	}
	if p > len(d) {
		return errBadDoc
	}
	body := d[p:]
	p = 2
	for i := 0; i < n; i++ {
		l := int(d[p])
		q := p + 1 + l
		m := docMember{
			name:  d[p+1 : q],
			start: int(binary.BigEndian.Uint32(d[q:])),
			end:   int(binary.BigEndian.Uint32(d[q+4:])),
			heavy: d[q+8] == 1,
		}
		if m.start > m.end || m.end > len(body) {
			return errBadDoc
		}
		fn(m, body)
		p = q + 9
	}
	return nil
}

// AppendJSON appends the Doc as a JSON object to dst. With fields nil it writes
// every light member; otherwise only the members named in fields, plus id.
// Heavy members are written only when fields names them.
func (d Doc) AppendJSON(dst []byte, fields FieldSet) ([]byte, error) {
	orig := len(dst)
	dst = append(dst, '{')
	first, lightEnd := true, 0
	var body []byte
	err := d.each(func(m docMember, b []byte) {
		body = b
		if fields == nil {
			if !m.heavy {
				lightEnd = m.end
			}
			return
		}
		if string(m.name) != "id" && !fields.Has(string(m.name)) {
			return
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, b[m.start:m.end]...)
	})
	if err != nil {
		return dst[:orig], err
	}
	if fields == nil {
		dst = append(dst, body[:lightEnd]...)
	}
	return append(dst, '}'), nil
}

// AppendJSONWith is AppendJSON of every light member plus the heavy members named.
func (d Doc) AppendJSONWith(dst []byte, heavy ...string) ([]byte, error) {
	fs := FieldSet{}
	err := d.each(func(m docMember, _ []byte) {
		if !m.heavy {
			fs[string(m.name)] = struct{}{}
		}
	})
	if err != nil {
		return dst, err
	}
	for _, h := range heavy {
		fs[h] = struct{}{}
	}
	return d.AppendJSON(dst, fs)
}

// Names lists the member names of d (nil for a corrupt doc).
func (d Doc) Names() []string {
	var out []string
	if d.each(func(m docMember, _ []byte) { out = append(out, string(m.name)) }) != nil {
		return nil
	}
	return out
}

// FieldSet is the parsed `fields` query parameter: nil means "everything".
type FieldSet map[string]struct{}

// Has reports whether name is in the set; a nil set has every light field.
func (f FieldSet) Has(name string) bool {
	if f == nil {
		return true
	}
	_, ok := f[name]
	return ok
}

// Wants reports whether a heavy field was asked for explicitly.
func (f FieldSet) Wants(name string) bool {
	if f == nil {
		return false
	}
	_, ok := f[name]
	return ok
}
