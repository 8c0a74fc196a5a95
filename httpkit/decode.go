package httpkit

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// Decode reads a JSON body into v. An empty body, malformed JSON and values of
// the wrong type are validation_failed naming the field ("must be an
// integer"); unknown fields are ignored. An *app.Error returned by a custom
// UnmarshalJSON is reported on the field "body".
func Decode(c *fiber.Ctx, v any) error {
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

// malformed describes a JSON syntax error without Go's type names.
func malformed(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return "malformed JSON at byte " + strconv.FormatInt(se.Offset, 10)
	}
	return "malformed JSON"
}

// PathID parses a positive integer path parameter; anything else is
// not_found for what ("product").
func PathID(c *fiber.Ctx, name, what string) (uint64, error) {
	id, err := strconv.ParseUint(c.Params(name), 10, 64)
	if err != nil || id == 0 {
		return 0, app.NotFound(what)
	}
	return id, nil
}

// PathUUID reads a uuid path parameter in its canonical lower-case form
// (app.ParseUUID, any case accepted); anything else is not_found for what.
// The string is a copy, safe to keep after the handler returns.
func PathUUID(c *fiber.Ctx, name, what string) (string, error) {
	id, ok := app.ParseUUID(c.Params(name))
	if !ok {
		return "", app.NotFound(what)
	}
	return id, nil
}
