package web

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// The OpenAPI document is kept as fragments, one per resource (openapi/*.json),
// each a partial OpenAPI 3.1 object with "paths" and "components". They are
// merged once at start-up; a broken fragment fails the start.
//
//go:embed openapi/*.json
var openapiFS embed.FS

// OpenAPI returns the merged OpenAPI 3.1 document.
func OpenAPI() ([]byte, error) {
	names, err := fs.Glob(openapiFS, "openapi/*.json")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	doc := map[string]any{}
	for _, name := range names {
		raw, err := openapiFS.ReadFile(name)
		if err != nil {
			return nil, err
		}
		var frag map[string]any
		if err := json.Unmarshal(raw, &frag); err != nil {
			return nil, fmt.Errorf("openapi: %s: %w", name, err)
		}
		mergeInto(doc, frag)
	}
	addOperationIDs(doc)
	return json.MarshalIndent(doc, "", "  ")
}

// addOperationIDs names every operation that has no operationId after its
// method and path ("get_business_website_products_slug"), so client generators
// get stable, unique names.
func addOperationIDs(doc map[string]any) {
	paths, _ := doc["paths"].(map[string]any)
	for path, item := range paths {
		ops, _ := item.(map[string]any)
		for method, op := range ops {
			o, isOp := op.(map[string]any)
			if !isOp || method == "parameters" {
				continue
			}
			if _, has := o["operationId"]; has {
				continue
			}
			name := strings.TrimPrefix(path, "/api/v1/")
			name = strings.NewReplacer("{", "", "}", "", "-", "_", "/", "_").Replace(strings.Trim(name, "/"))
			o["operationId"] = method + "_" + name
		}
	}
}

// mergeInto merges src into dst: objects merge key by key, anything else replaces.
func mergeInto(dst, src map[string]any) {
	for k, v := range src {
		if sm, ok := v.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				mergeInto(dm, sm)
				continue
			}
		}
		dst[k] = v
	}
}

// ServeOpenAPI mounts GET /openapi.json.
func ServeOpenAPI(r fiber.Router) error {
	doc, err := OpenAPI()
	if err != nil {
		return err
	}
	r.Get("/openapi.json", func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
		return c.Send(doc)
	})
	return nil
}
