package web

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

var (
	okPrefix = []byte(`{"status":true,"status_code":200,"message":"","data":`)
)

func envelopePrefix(status int, message string) []byte {
	if status == fiber.StatusOK && message == "" {
		return okPrefix
	}
	m, _ := json.Marshal(message)
	b := []byte(`{"status":true,"status_code":`)
	b = strconv.AppendInt(b, int64(status), 10)
	b = append(b, `,"message":`...)
	b = append(b, m...)
	return append(b, `,"data":`...)
}

// ok writes data in the success envelope with status 200. For GET requests
// with ?fields= an object is trimmed to the named top-level fields (id stays).
func ok(c *fiber.Ctx, data any) error { return reply(c, fiber.StatusOK, "", data) }

func reply(c *fiber.Ctx, status int, message string, data any) error {
	raw, err := json.Marshal(app.EmptySlices(data)) // arrays are [], never null
	if err != nil {
		return err
	}
	if c.Method() == fiber.MethodGet {
		if fs := parseFields(c); fs != nil {
			raw = trimJSON(raw, fs)
		}
	}
	return sendRaw(c, status, message, raw)
}

// sendRaw writes pre-encoded JSON data in the success envelope, straight into
// the response's pooled body buffer (no allocation per response).
func sendRaw(c *fiber.Ctx, status int, message string, data []byte) error {
	c.Status(status)
	setJSON(c)
	r := c.Response()
	r.ResetBody()
	r.AppendBody(envelopePrefix(status, message))
	r.AppendBody(data)
	r.AppendBodyString("}")
	return nil
}

// trimJSON keeps only the fields of a JSON object (id always). Anything other
// than an object is returned unchanged.
func trimJSON(raw []byte, fs app.FieldSet) []byte {
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

// parseFields reads ?fields=a,b. It returns nil when fields is absent or empty.
func parseFields(c *fiber.Ctx) app.FieldSet {
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

// decode reads a JSON body into v. Malformed JSON and wrong types are
// validation_failed naming the field; unknown fields are ignored.
func decode(c *fiber.Ctx, v any) error {
	body := c.Body()
	if len(strings.TrimSpace(string(body))) == 0 {
		return app.Invalid("body", "a JSON body is required")
	}
	if err := json.Unmarshal(body, v); err != nil {
		var te *json.UnmarshalTypeError
		var ae *app.Error
		switch {
		case errors.As(err, &te) && te.Field != "":
			return app.Invalid(te.Field, "must be "+jsonKind(te.Type.Kind().String()))
		case errors.As(err, &te):
			return app.Invalid("body", "must be a JSON object")
		case errors.As(err, &ae):
			return &app.Error{Code: app.EValidation, Message: "validation failed", Fields: map[string]string{"body": ae.Message}}
		default:
			return app.Invalid("body", malformed(err))
		}
	}
	return nil
}

func jsonKind(k string) string {
	switch {
	case strings.HasPrefix(k, "int"), strings.HasPrefix(k, "uint"):
		return "an integer"
	case strings.HasPrefix(k, "float"):
		return "a number"
	case k == "string":
		return "a string"
	case k == "bool":
		return "a boolean"
	case k == "slice", k == "array":
		return "an array"
	case k == "map", k == "struct":
		return "an object"
	}
	return "of the right type"
}

// pathID parses an integer path parameter; anything else is not_found.
func pathID(c *fiber.Ctx, name, what string) (uint64, error) {
	id, err := strconv.ParseUint(c.Params(name), 10, 64)
	if err != nil || id == 0 {
		return 0, app.NotFound(what)
	}
	return id, nil
}

// setJSON sets the JSON content type without the generic header path (it
// normalizes the key on every call, which shows on the hottest endpoints).
func setJSON(c *fiber.Ctx) {
	c.Response().Header.SetContentType(fiber.MIMEApplicationJSONCharsetUTF8)
}

// malformed describes a JSON syntax error without Go's type names.
func malformed(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return "malformed JSON at byte " + strconv.FormatInt(se.Offset, 10)
	}
	return "malformed JSON"
}
