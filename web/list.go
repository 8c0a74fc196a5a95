package web

import (
	"strconv"
	"sync"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
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
		case err != nil && len(lv) > 0 && httpkit.IsDigits(lv):
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
	q.Fields = httpkit.ParseFields(c)
	return q, nil
}

// docBufs holds the buffers pages of docs are assembled in. A finished page
// is swapped into the response for fasthttp's own (pooled) body buffer, which
// goes back here: a page costs neither an allocation nor a copy. Small pages
// are copied instead, so that the big buffer stays in the pool.
// This leans on fasthttp internals: Response.SwapBody must take our buffer
// without copying and hand back bytes the response no longer uses. If an
// upgrade changed either, pages would be copied (slower) or two responses
// would share a buffer (one sent with the other's page): TestSwapBodyContract
// pins both.
var docBufs = sync.Pool{New: func() any { b := make([]byte, 0, 32<<10); return &b }}

// sendDocs writes a page of pre-encoded product docs as the list shape,
// trimming each to the fields asked for, adding heavy members only when
// named, and each product's flash deal from deals.
func (s *Server) sendDocs(c *fiber.Ctx, scope string, page app.Page[app.Doc], deals *app.LiveDeals, fs app.FieldSet, extra map[string]any, heavy func(app.Doc, []byte) ([]byte, error)) error {
	bp := docBufs.Get().(*[]byte)
	b := append((*bp)[:0], httpkit.OKPrefix...)
	b = append(b, `{"items":[`...)
	var err error
	tr := app.Trimmer{Fields: fs}
	deal := deals.Fields(fs)
	for i, d := range page.Items {
		if i > 0 {
			b = append(b, ',')
		}
		start := len(b)
		if heavy != nil {
			b, err = heavy(d, b)
		} else {
			b, err = tr.Append(b, d)
		}
		if err == nil {
			b, err = deal.Append(b, start, d)
		}
		if err != nil {
			return err
		}
	}
	if b, err = httpkit.ListTail(b, s.nextCursor(c, scope, page.Next), extra); err != nil {
		return err
	}
	httpkit.SetJSON(c)
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

// nextCursor signs the cursor of the next page for scope ("" when there is none).
func (s *Server) nextCursor(c *fiber.Ctx, scope string, next *app.Cursor) string {
	if next == nil {
		return ""
	}
	return s.cursors.Encode(scope, storeIDOf(c), next)
}

// sendList writes a page of items as the list shape; view maps an item to its
// wire form. Items are trimmed to ?fields=.
func sendList[T any](s *Server, c *fiber.Ctx, scope string, page app.Page[T], fs app.FieldSet, view func(T) any, extra map[string]any) error {
	return httpkit.SendList(c, page.Items, view, fs, s.nextCursor(c, scope, page.Next), extra)
}
