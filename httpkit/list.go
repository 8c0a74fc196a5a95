package httpkit

import (
	"encoding/json"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// ListTail closes the list shape begun with `{"items":[` and the envelope:
// next_cursor (null when next is empty), has_more, any extra members.
func ListTail(b []byte, next string, extra map[string]any) ([]byte, error) {
	b = append(b, `],"next_cursor":`...)
	if next == "" {
		b = append(b, `null,"has_more":false`...)
	} else {
		b = strconv.AppendQuote(b, next)
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

// SendList writes items in the list shape {items, next_cursor, has_more}
// inside the envelope (arrays [], never null); view maps an item to its wire form, each item is
// trimmed to fs (nil: whole), next is the signed cursor of the next page
// ("" on the last page) and extra adds members beside items.
func SendList[T any](c *fiber.Ctx, items []T, view func(T) any, fs app.FieldSet, next string, extra map[string]any) error {
	b := make([]byte, 0, 512+len(items)*300)
	b = append(b, OKPrefix...)
	b = append(b, `{"items":[`...)
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		raw, err := json.Marshal(app.EmptySlices(view(it))) // arrays are [], never null
		if err != nil {
			return err
		}
		if fs != nil {
			raw = TrimJSON(raw, fs)
		}
		b = append(b, raw...)
	}
	b, err := ListTail(b, next, extra)
	if err != nil {
		return err
	}
	SetJSON(c)
	return c.Send(b)
}

// SendAll writes a small complete set in the list shape (next_cursor null),
// each item trimmed to ?fields=. The paging parameters are checked as on
// every list: a bad limit or sort is 400, and so is any cursor, since a
// complete set never issues one.
func SendAll[T any](c *fiber.Ctx, items []T, view func(T) any) error {
	if err := checkCompleteList(c); err != nil {
		return err
	}
	return SendList(c, items, view, ParseFields(c), "", nil)
}

func checkCompleteList(c *fiber.Ctx) error {
	var v app.Validation
	if lv := c.Query("limit"); lv != "" {
		n, err := strconv.Atoi(lv)
		v.Check((err == nil && n >= 1) || (err != nil && IsDigits(lv)), "limit", "must be an integer of at least 1")
	}
	if sv := c.Query("sort"); sv != "" {
		v.OneOf("sort", sv, app.SortNewest)
	}
	if c.Query("cursor") != "" {
		v.Add("cursor", "invalid cursor")
	}
	return v.Err()
}

// IsDigits reports whether s is a non-empty run of ASCII digits.
func IsDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
