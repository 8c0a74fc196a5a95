package web

import (
	"encoding/json"
	"strconv"
	"sync"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// listQuery is the parsed paging part of a list request.
type listQuery struct {
	app.ListParams
	Fields app.FieldSet
}

// parseList reads sort, limit, cursor and fields. sorts lists the accepted
// sorts, the default first (nil: newest only). scope names the list so that
// its cursors are good for it alone.
func (s *Server) parseList(c *fiber.Ctx, scope string, sorts []string, def, max int) (listQuery, error) {
	var q listQuery
	var v app.Validation
	q.Sort = app.SortNewest
	if len(sorts) > 0 {
		q.Sort = sorts[0]
	}
	if sv := c.Query("sort"); sv != "" {
		valid := sorts
		if valid == nil {
			valid = []string{app.SortNewest}
		}
		v.OneOf("sort", sv, valid...)
		q.Sort = sv
	}
	q.Limit = def
	if lv := c.Query("limit"); lv != "" {
		n, err := strconv.Atoi(lv)
		switch {
		case err != nil && len(lv) > 0 && isDigits(lv):
			q.Limit = max // a huge number: clamp
		case err != nil || n < 1:
			v.Add("limit", "must be an integer of at least 1")
		case n > max:
			q.Limit = max
		default:
			q.Limit = n
		}
	}
	if err := v.Err(); err != nil {
		return q, err
	}
	if cv := c.Query("cursor"); cv != "" {
		cur, err := s.cursors.Decode(scope, storeIDOf(c), q.Sort, cv)
		if err != nil {
			return q, err
		}
		q.After = cur
	}
	q.Fields = parseFields(c)
	return q, nil
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// listTail closes a list: next_cursor, has_more, any extra siblings, and the envelope.
func (s *Server) listTail(c *fiber.Ctx, b []byte, scope string, next *app.Cursor, extra map[string]any) ([]byte, error) {
	b = append(b, `],"next_cursor":`...)
	if next == nil {
		b = append(b, `null,"has_more":false`...)
	} else {
		b = strconv.AppendQuote(b, s.cursors.Encode(scope, storeIDOf(c), next))
		b = append(b, `,"has_more":true`...)
	}
	for k, v := range extra {
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		b = strconv.AppendQuote(append(b, ','), k)
		b = append(b, ':')
		b = append(b, raw...)
	}
	return append(b, '}', '}'), nil
}

// docBufs holds the buffers pages of docs are assembled in. A finished page
// is swapped into the response for fasthttp's own (pooled) body buffer, which
// goes back here: a page costs neither an allocation nor a copy. Small pages
// are copied instead, so that the big buffer stays in the pool.
var docBufs = sync.Pool{New: func() any { b := make([]byte, 0, 32<<10); return &b }}

// sendDocs writes a page of pre-encoded docs as the list shape, trimming each
// to the fields asked for and adding heavy members only when named.
func (s *Server) sendDocs(c *fiber.Ctx, scope string, page app.Page[app.Doc], fs app.FieldSet, extra map[string]any, heavy func(app.Doc, []byte) ([]byte, error)) error {
	bp := docBufs.Get().(*[]byte)
	b := append((*bp)[:0], okPrefix...)
	b = append(b, `{"items":[`...)
	var err error
	tr := app.Trimmer{Fields: fs}
	for i, d := range page.Items {
		if i > 0 {
			b = append(b, ',')
		}
		if heavy != nil {
			b, err = heavy(d, b)
		} else {
			b, err = tr.Append(b, d)
		}
		if err != nil {
			return err
		}
	}
	if b, err = s.listTail(c, b, scope, page.Next, extra); err != nil {
		return err
	}
	setJSON(c)
	if len(b) <= 8<<10 { // small (trimmed) pages: a copy is cheaper than losing the buffer
		c.Response().SetBody(b)
		*bp = b[:0]
		docBufs.Put(bp)
		return nil
	}
	if old := c.Response().SwapBody(b); cap(old) >= 16<<10 && cap(old) <= 1<<20 {
		*bp = old[:0]
		docBufs.Put(bp)
	}
	return nil
}

// sendList writes a page of items as the list shape; view maps an item to its
// wire form. Items are trimmed to ?fields=.
func sendList[T any](s *Server, c *fiber.Ctx, scope string, page app.Page[T], fs app.FieldSet, view func(T) any, extra map[string]any) error {
	b := make([]byte, 0, 512+len(page.Items)*300)
	b = append(b, okPrefix...)
	b = append(b, `{"items":[`...)
	for i, it := range page.Items {
		if i > 0 {
			b = append(b, ',')
		}
		raw, err := json.Marshal(view(it))
		if err != nil {
			return err
		}
		if fs != nil {
			raw = trimJSON(raw, fs)
		}
		b = append(b, raw...)
	}
	b, err := s.listTail(c, b, scope, page.Next, extra)
	if err != nil {
		return err
	}
	setJSON(c)
	return c.Send(b)
}

// sendAll writes a small complete set as the list shape (next_cursor null).
// The paging parameters are checked as on every list: a bad limit or sort is
// 400, and so is any cursor, since a complete set never issues one.
func sendAll[T any](s *Server, c *fiber.Ctx, items []T, view func(T) any) error {
	if err := checkCompleteList(c); err != nil {
		return err
	}
	return sendList(s, c, "", app.Page[T]{Items: items}, parseFields(c), view, nil)
}

func checkCompleteList(c *fiber.Ctx) error {
	var v app.Validation
	if lv := c.Query("limit"); lv != "" {
		n, err := strconv.Atoi(lv)
		v.Check((err == nil && n >= 1) || (err != nil && isDigits(lv)), "limit", "must be an integer of at least 1")
	}
	if sv := c.Query("sort"); sv != "" {
		v.OneOf("sort", sv, app.SortNewest)
	}
	if c.Query("cursor") != "" {
		v.Add("cursor", "invalid cursor")
	}
	return v.Err()
}
