package postgres

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"storefront/app"
)

// A cursor's Key is the suffix of the bbolt index key of the last item of a
// page: its sort values then its id, each in the bbolt encoding. Both
// backends issue and read the same keys.
type kind byte

const (
	kU64  kind = iota // 8 bytes big-endian (ids, prices, numbers)
	kByte             // one byte (flags, ratings)
	kStr              // the string then 0x00
	kTime             // unix seconds with the sign bit flipped, 8 bytes
)

// col is one column of a keyset: its SQL expression and key encoding.
type col struct {
	expr string
	kind kind
}

// keyset is the order of a list: columns, all ascending or all descending.
type keyset struct {
	cols []col
	desc bool
}

func byID(desc bool) keyset { return keyset{cols: []col{{"id", kU64}}, desc: desc} }

// appendKey appends one value in its key encoding.
func appendKey(b []byte, k kind, v any) []byte {
	switch k {
	case kU64:
		return binary.BigEndian.AppendUint64(b, uint64(toInt64(v)))
	case kByte:
		return append(b, byte(toInt64(v)))
	case kStr:
		s := v.(string)
		for i := 0; i < len(s); i++ {
			if s[i] != 0 {
				b = append(b, s[i])
			}
		}
		return append(b, 0)
	case kTime:
		return binary.BigEndian.AppendUint64(b, uint64(v.(time.Time).Unix())^1<<63)
	}
	panic("postgres: bad key kind")
}

func toInt64(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case int32:
		return int64(x)
	case int16:
		return int64(x)
	}
	panic(fmt.Sprintf("postgres: key value %T", v))
}

// decodeKey reads the values of a cursor key; a key may stop early at a
// column boundary (a seek position, like ActiveFlashDeals' first page).
func (ks keyset) decodeKey(key []byte) ([]any, error) {
	var vals []any
	for _, c := range ks.cols {
		if len(key) == 0 {
			break
		}
		switch c.kind {
		case kU64, kTime:
			if len(key) < 8 {
				return nil, app.Invalid("cursor", "invalid cursor")
			}
			u := binary.BigEndian.Uint64(key)
			key = key[8:]
			if c.kind == kTime {
				vals = append(vals, time.Unix(int64(u^1<<63), 0).UTC())
			} else {
				vals = append(vals, int64(u))
			}
		case kByte:
			vals = append(vals, int64(key[0]))
			key = key[1:]
		case kStr:
			i := strings.IndexByte(string(key), 0)
			if i < 0 {
				return nil, app.Invalid("cursor", "invalid cursor")
			}
			vals = append(vals, string(key[:i]))
			key = key[i+1:]
		}
	}
	if len(key) != 0 {
		return nil, app.Invalid("cursor", "invalid cursor")
	}
	return vals, nil
}

// list is one keyset-paged query: SELECT sel FROM from [AND keyset > after]
// ORDER BY keyset LIMIT n. sel must end with the keyset's columns.
type list struct {
	sel    string
	from   string // "FROM t WHERE store_id = $1 AND ..."
	args   []any
	keys   keyset
	chunk  int // rows per round trip when decode skips items (0: limit+1)
	seekTo []byte
	// doc, when set, reads the first column (bytes) without pgx's copy and
	// keeps what doc returns: a copy in memory that outlives the row.
	doc func([]byte) []byte
}

// page reads one page: it walks from the cursor (or seekTo for the first
// page), lets decode turn each row into an item (or skip it) and reads
// limit+1 items to know whether there is a next page.
func page[T any](t *Tx, storeID uint64, what string, l list, lp app.ListParams, decode func(vals []any) (T, bool, error)) (app.Page[T], error) {
	var out app.Page[T]
	if err := t.lock(storeID); err != nil {
		return out, err
	}
	limit, afterVals, err := l.start(lp)
	if err != nil {
		return out, err
	}
	chunk := limit + 1
	if l.chunk > chunk {
		chunk = l.chunk
	}
	nk := len(l.keys.cols)
	// sized for a page (limit+1 items) at once, not grown by appends
	out.Items = make([]T, 0, limit+1)
	keyVals := make([][]any, 0, limit+1) // each item's key values
	rd := &rowReader{doc: l.doc}
	for {
		sql, args := l.sql(afterVals, chunk)
		chunkRows, err := t.readChunk(rd, what, chunk, sql, args)
		if err != nil {
			return out, err
		}
		n := len(chunkRows)
		var last []any
		for _, vals := range chunkRows {
			last = vals[len(vals)-nk:]
			if len(out.Items) > limit {
				break
			}
			item, ok, err := decode(vals)
			if err != nil {
				return out, err
			}
			if !ok {
				continue
			}
			out.Items = append(out.Items, item)
			keyVals = append(keyVals, last)
		}
		if len(out.Items) > limit || n < chunk {
			break
		}
		afterVals = last
	}
	if len(out.Items) > limit {
		out.Items = out.Items[:limit]
		out.Next = l.keys.cursor(lp.Sort, keyVals[limit-1])
	}
	if out.Items == nil {
		out.Items = []T{}
	}
	return out, nil
}

// readChunk runs one chunk's query of a list and reads its rows whole: the
// decoding of a page may run queries of its own (keep functions), and the
// connection serves one at a time.
func (t *Tx) readChunk(rd *rowReader, what string, chunk int, sql string, args []any) ([][]any, error) {
	rows, err := t.query(sql, args...)
	if err != nil {
		return nil, t.fail(fmt.Errorf("postgres: list %s: %w", what, err))
	}
	chunkRows := make([][]any, 0, chunk)
	for rows.Next() {
		vals, err := rd.values(rows, chunk)
		if err != nil {
			rows.Close()
			return nil, t.fail(fmt.Errorf("postgres: list %s: %w", what, err))
		}
		chunkRows = append(chunkRows, vals)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, t.fail(fmt.Errorf("postgres: list %s: %w", what, err))
	}
	return chunkRows, nil
}

// start is where a page begins: its limit and the key values it follows
// (nil: the start).
func (l list) start(lp app.ListParams) (limit int, after []any, err error) {
	limit = lp.Limit
	if limit <= 0 {
		limit = app.DefaultLimit
	}
	key := l.seekTo
	if lp.After != nil {
		key = lp.After.Key
	}
	if key != nil {
		after, err = l.keys.decodeKey(key)
	}
	return limit, after, err
}

// cursor is the cursor of the page that ends with the row of key values vals.
func (ks keyset) cursor(sort string, vals []any) *app.Cursor {
	var k []byte
	for i, c := range ks.cols {
		k = appendKey(k, c.kind, vals[i])
	}
	return &app.Cursor{Sort: sort, Key: k}
}

// rowReader decodes rows as rows.Values does. With doc set, it reads the
// first column without pgx's copy and keeps doc's, and the rows of a chunk
// share one slice of values.
type rowReader struct {
	doc  func([]byte) []byte
	flat []any              // values of the chunk's rows still to read
	dest []any              // Scan's destinations
	raw  pgtype.DriverBytes // the connection's buffer, valid until the next row
}

// values decodes the next row; chunk is how many rows the query may return.
func (r *rowReader) values(rows pgx.Rows, chunk int) ([]any, error) {
	if r.doc == nil {
		return rows.Values()
	}
	nc := len(rows.FieldDescriptions())
	if r.dest == nil {
		r.dest = make([]any, nc)
		r.dest[0] = &r.raw
	}
	if len(r.flat) < nc {
		r.flat = make([]any, chunk*nc)
	}
	vals := r.flat[:nc:nc]
	r.flat = r.flat[nc:]
	for i := 1; i < nc; i++ {
		r.dest[i] = &vals[i]
	}
	if err := rows.Scan(r.dest...); err != nil {
		return nil, err
	}
	vals[0] = r.doc(r.raw)
	return vals, nil
}

// sql builds the query of one round trip from after (nil: the start).
func (l list) sql(after []any, n int) (string, []any) {
	var b strings.Builder
	args := append([]any(nil), l.args...)
	fmt.Fprintf(&b, "SELECT %s %s", l.sel, l.from)
	dir, op := "", ">"
	if l.keys.desc {
		dir, op = " DESC", "<"
	}
	if len(after) > 0 {
		partial := len(after) < len(l.keys.cols)
		if partial && !l.keys.desc {
			op = ">=" // a seek position: keys that start with it come after it
		}
		var lhs, rhs []string
		for i, v := range after {
			args = append(args, v)
			lhs = append(lhs, l.keys.cols[i].expr)
			rhs = append(rhs, fmt.Sprintf("$%d", len(args)))
		}
		fmt.Fprintf(&b, " AND (%s) %s (%s)", strings.Join(lhs, ", "), op, strings.Join(rhs, ", "))
	}
	b.WriteString(" ORDER BY ")
	for i, c := range l.keys.cols {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c.expr + dir)
	}
	fmt.Fprintf(&b, " LIMIT %d", n)
	return b.String(), args
}

// keyCols is the SELECT list of a keyset's columns.
func (ks keyset) keyCols() string {
	var s []string
	for _, c := range ks.cols {
		s = append(s, c.expr)
	}
	return strings.Join(s, ", ")
}

// docList pages JSON documents: SELECT doc, <keys>.
func docList[T any](t *Tx, storeID uint64, what, from string, args []any, ks keyset, lp app.ListParams) (app.Page[*T], error) {
	l := list{sel: "doc::text, " + ks.keyCols(), from: from, args: args, keys: ks}
	return page(t, storeID, what, l, lp, decodeDoc[T](t, what))
}

func decodeDoc[T any](t *Tx, what string) func(vals []any) (*T, bool, error) {
	return func(vals []any) (*T, bool, error) {
		var x T
		if err := json.Unmarshal([]byte(vals[0].(string)), &x); err != nil {
			return nil, false, t.fail(fmt.Errorf("postgres: decode %s: %w", what, err))
		}
		return &x, true, nil
	}
}

// ownDoc copies b into a buffer of its own, exactly as long (bytes.Clone may
// round the capacity up).
func ownDoc(b []byte) []byte {
	c := make([]byte, len(b))
	copy(c, b)
	return c
}
