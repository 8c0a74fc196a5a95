package httpkit_test

import (
	"encoding/json"
	"io"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func TestDecode(t *testing.T) {
	type in struct {
		N int    `json:"n"`
		S string `json:"s"`
	}
	a := fiber.New()
	a.Post("/", func(c *fiber.Ctx) error {
		var v in
		err := httpkit.Decode(c, &v)
		var ae *app.Error
		if err == nil {
			return c.SendString("ok")
		}
		ae, _ = err.(*app.Error)
		b, _ := json.Marshal(ae.Fields)
		return c.SendString(string(b))
	})
	for _, tc := range []struct{ name, body, want string }{
		{"OK", `{"n":1,"s":"x"}`, `ok`},
		{"Empty", ` `, `{"body":"a JSON body is required"}`},
		{"WrongType", `{"n":"x"}`, `{"n":"must be an integer"}`},
		{"WrongTypeString", `{"s":1}`, `{"s":"must be a string"}`},
		{"NotObject", `[1]`, `{"body":"must be a JSON object"}`},
		{"Malformed", `{"n":`, `{"body":"malformed JSON at byte 5"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := a.Test(httptest.NewRequest("POST", "/", strings.NewReader(tc.body)), -1)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(res.Body)
			if string(got) != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestPathIDAndUUID(t *testing.T) {
	a := fiber.New()
	a.Get("/id/:id", func(c *fiber.Ctx) error {
		id, err := httpkit.PathID(c, "id", "thing")
		if err != nil {
			return c.SendString(app.ErrorCode(err))
		}
		return c.SendString(strconv.FormatUint(id, 10))
	})
	a.Get("/u/:id", func(c *fiber.Ctx) error {
		id, err := httpkit.PathUUID(c, "id", "thing")
		if err != nil {
			return c.SendString(app.ErrorCode(err))
		}
		return c.SendString(id)
	})
	for _, tc := range []struct{ path, want string }{
		{"/id/7", "7"}, {"/id/0", "not_found"}, {"/id/-1", "not_found"}, {"/id/x", "not_found"},
		{"/u/0B4F0C0E-3F6E-4D3A-9A57-1F2A3B4C5D6E", "0b4f0c0e-3f6e-4d3a-9a57-1f2a3b4c5d6e"},
		{"/u/not-a-uuid", "not_found"},
	} {
		res, err := a.Test(httptest.NewRequest("GET", tc.path, nil), -1)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(res.Body)
		if string(got) != tc.want {
			t.Errorf("%s: got %s, want %s", tc.path, got, tc.want)
		}
	}
}
