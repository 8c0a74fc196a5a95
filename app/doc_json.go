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

// DocVersion is the encoding version of the public documents storage keeps
// pre-encoded: Product.Doc (this binary form) and Review.View's JSON. Raise
// it with any change to what they write (a renamed field, a new member):
// every backend records the version its stored docs were written with and
// re-encodes them all from the records at start when it differs.
// TestDocVersion fails when the encoding changes and this does not.
const DocVersion = 1

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
	if len(spans) > maxDocMembers {
		return nil, errors.New("app: too many members for a doc")
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

// errPlainDoc is the error of a plain doc asked for anything but its whole self.
var errPlainDoc = errors.New("app: a plain doc has no members to choose from")

// maxDocMembers bounds NewDoc: a count of 0x7B00 or more would begin with
// '{', the first byte of a plain doc.
const maxDocMembers = 0x7B00 - 1

// Plain reports whether d is a plain doc: the JSON object itself ("{...}")
// rather than the binary form, as a backend may return a page's items for
// ProductQuery.Whole. AppendJSON with no field set copies it; whatever needs
// its members (a field set, AppendJSONWith, Names) fails with a clear error.
// No binary form begins with '{' (NewDoc refuses that many members).
func (d Doc) Plain() bool { return len(d) > 0 && d[0] == '{' }

// headerEnd is the offset where the body of a doc with n members starts: past
// each member's entry (name length, name, start, end, heavy flag).
func (d Doc) headerEnd(n int) (int, error) {
	hdr := 2
	for i := 0; i < n; i++ {
		if hdr >= len(d) {
			return 0, errBadDoc
		}
		hdr += 1 + int(d[hdr]) + 9
	}
	if hdr > len(d) {
		return 0, errBadDoc
	}
	return hdr, nil
}

// AppendJSON appends the Doc as a JSON object to dst. With fields nil it writes
// every light member; otherwise only the members named in fields, plus id.
// Heavy members are written only when fields names them.
func (d Doc) AppendJSON(dst []byte, fields FieldSet) ([]byte, error) {
	if d.Plain() {
		if fields != nil {
			return dst, errPlainDoc
		}
		return append(dst, d...), nil
	}
	if len(d) < 2 {
		return dst, errBadDoc
	}
	n := int(binary.BigEndian.Uint16(d))
	if fields == nil {
		return d.appendLight(dst, n)
	}
	p := 2
	hdr, err := d.headerEnd(n)
	if err != nil {
		return dst, err
	}
	body := d[hdr:]
	dst = append(dst, '{')
	first := true
	for i := 0; i < n; i++ {
		l := int(d[p])
		name := d[p+1 : p+1+l]
		q := p + 1 + l
		start := int(binary.BigEndian.Uint32(d[q:]))
		end := int(binary.BigEndian.Uint32(d[q+4:]))
		p = q + 9
		if start > end || end > len(body) {
			return dst, errBadDoc
		}
		if string(name) != "id" && !fields.Has(string(name)) {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, body[start:end]...)
	}
	return append(dst, '}'), nil
}

// appendLight writes every light member: light members come first in the
// body, so this is one copy of the body up to the end of the last light one,
// found in a single walk of the header (the list fast path).
func (d Doc) appendLight(dst []byte, n int) ([]byte, error) {
	p, lightEnd := 2, 0
	for i := 0; i < n; i++ {
		if p >= len(d) {
			return dst, errBadDoc
		}
		q := p + 1 + int(d[p])
		if q+9 > len(d) {
			return dst, errBadDoc
		}
		if d[q+8] != 1 {
			lightEnd = int(binary.BigEndian.Uint32(d[q+4:]))
		}
		p = q + 9
	}
	if p+lightEnd > len(d) {
		return dst, errBadDoc
	}
	dst = append(dst, '{')
	dst = append(dst, d[p:p+lightEnd]...)
	return append(dst, '}'), nil
}

// AppendJSONWith is AppendJSON of every light member plus the heavy members
// named (a product's detail: one walk of the header, no field set built).
func (d Doc) AppendJSONWith(dst []byte, heavy ...string) ([]byte, error) {
	if d.Plain() {
		return dst, errPlainDoc
	}
	if len(d) < 2 {
		return dst, errBadDoc
	}
	n := int(binary.BigEndian.Uint16(d))
	hdr, err := d.headerEnd(n)
	if err != nil {
		return dst, err
	}
	body := d[hdr:]
	dst = append(dst, '{')
	// Members written one after the other are copied as one run when the body
	// holds them one comma apart (NewDoc's layout): a detail is then one copy
	// of its body, not one per member.
	runStart, runEnd := -1, -1
	for p, i := 2, 0; i < n; i++ {
		l := int(d[p])
		name := d[p+1 : p+1+l]
		q := p + 1 + l
		start := int(binary.BigEndian.Uint32(d[q:]))
		end := int(binary.BigEndian.Uint32(d[q+4:]))
		isHeavy := d[q+8] == 1
		p = q + 9
		if start > end || end > len(body) {
			return dst, errBadDoc
		}
		if isHeavy && string(name) != "id" && !named(name, heavy) {
			continue
		}
		if runStart >= 0 && start == runEnd+1 && body[runEnd] == ',' {
			runEnd = end
			continue
		}
		if runStart >= 0 {
			dst = append(append(dst, body[runStart:runEnd]...), ',')
		}
		runStart, runEnd = start, end
	}
	if runStart >= 0 {
		dst = append(dst, body[runStart:runEnd]...)
	}
	return append(dst, '}'), nil
}

func named(name []byte, names []string) bool {
	for _, n := range names {
		if string(name) == n {
			return true
		}
	}
	return false
}

// light locates the parts of d that make its light form: the header
// entries of the light members (d[2:hdr]), n of them, and the body up to the
// end of the last one (d[body:body+end]). ok is false when d has no heavy
// member, or is malformed, or its light members are not all first (NewDoc
// writes them first): then d is its own light form.
func (d Doc) light() (n, hdr, body, end int, ok bool) {
	if len(d) < 2 || d.Plain() {
		return 0, 0, 0, 0, false
	}
	total := int(binary.BigEndian.Uint16(d))
	p, heavy := 2, false
	for i := 0; i < total; i++ {
		if p >= len(d) {
			return 0, 0, 0, 0, false
		}
		q := p + 1 + int(d[p])
		if q+9 > len(d) {
			return 0, 0, 0, 0, false
		}
		if d[q+8] == 1 {
			heavy = true
		} else {
			if heavy { // a light member after a heavy one
				return 0, 0, 0, 0, false
			}
			n, hdr = n+1, q+9
			end = int(binary.BigEndian.Uint32(d[q+4:]))
		}
		p = q + 9
	}
	if !heavy || n == 0 || p+end > len(d) {
		return 0, 0, 0, 0, false
	}
	return n, hdr, p, end, true
}

// LightLen is the length of AppendLight's output.
func (d Doc) LightLen() int {
	_, hdr, _, end, ok := d.light()
	if !ok {
		return len(d)
	}
	return hdr + end
}

// AppendLight appends d without its heavy members (a product's variants):
// a smaller Doc that AppendJSON and Trimmer write alike for every field set
// that names no heavy member. A doc it cannot shorten is appended whole.
func (d Doc) AppendLight(dst []byte) []byte {
	n, hdr, body, end, ok := d.light()
	if !ok {
		return append(dst, d...)
	}
	dst = binary.BigEndian.AppendUint16(dst, uint16(n))
	dst = append(dst, d[2:hdr]...)
	return append(dst, d[body:body+end]...)
}

// Names lists the member names of d (nil for a corrupt doc).
func (d Doc) Names() []string {
	var out []string
	if d.each(func(name []byte, _ bool) { out = append(out, string(name)) }) != nil {
		return nil
	}
	return out
}

// each calls fn with every member's name, checking each header entry's
// bounds first; a corrupt doc is errBadDoc, never a panic.
func (d Doc) each(fn func(name []byte, heavy bool)) error {
	if d.Plain() {
		return errPlainDoc
	}
	if len(d) < 2 {
		return errBadDoc
	}
	n := int(binary.BigEndian.Uint16(d))
	for p, i := 2, 0; i < n; i++ {
		if p >= len(d) {
			return errBadDoc
		}
		q := p + 1 + int(d[p])
		if q+9 > len(d) {
			return errBadDoc
		}
		fn(d[p+1:q], d[q+8] == 1)
		p = q + 9
	}
	return nil
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

// Trimmer writes docs trimmed to one field set, as AppendJSON does. Docs of
// one kind share their member names, so it remembers the names of the last
// header it read and what the set said of each: a page of products costs one
// set lookup per member name, not one per member of every doc.
type Trimmer struct {
	Fields FieldSet
	names  []byte // the last header's names, each after its length byte
	keep   []bool // per member of that header: written or not
}

// Append appends d as AppendJSON(dst, t.Fields) would.
func (t *Trimmer) Append(dst []byte, d Doc) ([]byte, error) {
	if t.Fields == nil || len(d) < 2 || d.Plain() {
		return d.AppendJSON(dst, t.Fields)
	}
	n := int(binary.BigEndian.Uint16(d))
	// walk the header to its end, checking it against the remembered names
	hdr, np := 2, 0
	same := n == len(t.keep)
	for i := 0; i < n; i++ {
		if hdr >= len(d) {
			return dst, errBadDoc
		}
		l := int(d[hdr])
		if hdr+1+l+9 > len(d) {
			return dst, errBadDoc
		}
		if same {
			if np+1+l > len(t.names) || int(t.names[np]) != l || string(t.names[np+1:np+1+l]) != string(d[hdr+1:hdr+1+l]) {
				same = false
			} else {
				np += 1 + l
			}
		}
		hdr += 1 + l + 9
	}
	if !same {
		if cap(t.keep) < n {
			t.names, t.keep = make([]byte, 0, hdr), make([]bool, 0, n)
		}
		t.names, t.keep = t.names[:0], t.keep[:0]
		for p, i := 2, 0; i < n; i++ {
			l := int(d[p])
			name := d[p+1 : p+1+l]
			t.names = append(append(t.names, byte(l)), name...)
			t.keep = append(t.keep, string(name) == "id" || t.Fields.Has(string(name)))
			p += 1 + l + 9
		}
	}
	body := d[hdr:]
	dst = append(dst, '{')
	first := true
	for p, i := 2, 0; i < n; i++ {
		q := p + 1 + int(d[p])
		p = q + 9
		if !t.keep[i] {
			continue
		}
		start := int(binary.BigEndian.Uint32(d[q:]))
		end := int(binary.BigEndian.Uint32(d[q+4:]))
		if start > end || end > len(body) {
			return dst, errBadDoc
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, body[start:end]...)
	}
	return append(dst, '}'), nil
}
