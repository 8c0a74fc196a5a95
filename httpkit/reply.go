package httpkit

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// OKPrefix is the success envelope up to its data member, for status 200 and
// no message; a writer that assembles a body itself appends the data and "}".
var OKPrefix = []byte(`{"status":true,"status_code":200,"message":"","data":`)

// EnvelopePrefix returns the success envelope up to its data member.
func EnvelopePrefix(status int, message string) []byte {
	if status == fiber.StatusOK && message == "" {
		return OKPrefix
	}
	m, _ := json.Marshal(message)
	b := []byte(`{"status":true,"status_code":`)
	b = strconv.AppendInt(b, int64(status), 10)
	b = append(b, `,"message":`...)
	b = append(b, m...)
	return append(b, `,"data":`...)
}

// OK writes data in the success envelope with status 200.
func OK(c *fiber.Ctx, data any) error { return Reply(c, fiber.StatusOK, "", data) }

// Created writes data in the success envelope with status 201.
func Created(c *fiber.Ctx, data any) error { return Reply(c, fiber.StatusCreated, "", data) }

// Reply writes data in the success envelope; arrays are [], never null
// (app.EmptySlices). For GET requests with ?fields= an object is trimmed to
// the named top-level fields (id stays).
func Reply(c *fiber.Ctx, status int, message string, data any) error {
	raw, err := json.Marshal(app.EmptySlices(data))
	if err != nil {
		return err
	}
	if c.Method() == fiber.MethodGet {
		if fs := ParseFields(c); fs != nil {
			raw = TrimJSON(raw, fs)
		}
	}
	return SendRaw(c, status, message, raw)
}

// SendRaw writes pre-encoded JSON data in the success envelope, straight into
// the response's pooled body buffer (no allocation per response).
func SendRaw(c *fiber.Ctx, status int, message string, data []byte) error {
	c.Status(status)
	SetJSON(c)
	r := c.Response()
	r.ResetBody()
	r.AppendBody(EnvelopePrefix(status, message))
	r.AppendBody(data)
	r.AppendBodyString("}")
	return nil
}

// SetJSON sets the JSON content type without the generic header path (it
// normalizes the key on every call, which shows on the hottest endpoints).
func SetJSON(c *fiber.Ctx) {
	c.Response().Header.SetContentType(fiber.MIMEApplicationJSONCharsetUTF8)
}

// TrimJSON keeps only the fields of a JSON object (id always). Anything other
// than an object is returned unchanged.
func TrimJSON(raw []byte, fs app.FieldSet) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return raw
	}
	for k := range m {
		if k != "id" && !fs.Has(k) {
			delete(m, k)
		}
	}
	out, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return out
}

// ParseFields reads ?fields=a,b (at most 64 names). It returns nil when
// fields is absent or empty.
func ParseFields(c *fiber.Ctx) app.FieldSet {
	q := c.Query("fields")
	if q == "" {
		return nil
	}
	fs := app.FieldSet{"id": {}}
	for _, f := range strings.Split(q, ",") {
		if f = strings.TrimSpace(f); f != "" && len(fs) < 64 {
			fs[f] = struct{}{}
		}
	}
	return fs
}
