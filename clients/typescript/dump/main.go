// Command dump writes the OpenAPI document exactly as the server serves it
// (GET /openapi.json through the real handler) to the file named by its
// argument. scripts/tscheck.sh generates the TypeScript types from it.
package main

import (
	"fmt"
	"io"
	"net/http/httptest"
	"os"

	"github.com/gofiber/fiber/v2"

	"storefront/web"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: dump FILE")
		os.Exit(2)
	}
	app := fiber.New(fiber.Config{DisableStartupMessage: true})
	if err := web.ServeOpenAPI(app); err != nil {
		fmt.Fprintln(os.Stderr, "dump:", err)
		os.Exit(1)
	}
	resp, err := app.Test(httptest.NewRequest("GET", "/openapi.json", nil), -1)
	if err != nil || resp.StatusCode != 200 {
		fmt.Fprintln(os.Stderr, "dump: GET /openapi.json:", err, resp.StatusCode)
		os.Exit(1)
	}
	body, _ := io.ReadAll(resp.Body)
	if err := os.WriteFile(os.Args[1], body, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "dump:", err)
		os.Exit(1)
	}
}
