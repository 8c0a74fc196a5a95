package web

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"regexp"
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

// OpenAPI returns the merged OpenAPI 3.1 document as served: an operation
// that takes fields= answers anyOf the full schema X (every member
// required: the answer without fields=) and XFields (only id required: the
// answer with fields=), so the document holds for every request.
func OpenAPI() ([]byte, error) { return buildOpenAPI(true) }

// OpenAPIFull returns the document as it holds for a request without
// fields=: those operations answer the full schema X alone. The contract
// check validates such exchanges against it (stricter than the served one).
func OpenAPIFull() ([]byte, error) { return buildOpenAPI(false) }

func buildOpenAPI(served bool) ([]byte, error) {
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
	if err := addFieldsSchemas(doc); err != nil {
		return nil, err
	}
	if err := fullAnswers(doc, served); err != nil {
		return nil, err
	}
	addServerResponses(doc)
	return json.MarshalIndent(doc, "", "  ")
}

// addServerResponses lists on every operation the statuses any request can
// meet whatever its route: 408 request_timeout and 431
// request_headers_too_large (the server answers them before routing), and
// on every operation that writes (not GET) 507 storage_full while the disk is
// full, and on every operation 503 storage_unavailable while the database
// cannot be reached; on every list (an answer of the List schema) 400
// validation_failed for a malformed limit, sort or cursor, which even the
// complete lists check. A fragment that lists one itself keeps its own.
func addServerResponses(doc map[string]any) {
	paths, _ := doc["paths"].(map[string]any)
	for _, item := range paths {
		ops, _ := item.(map[string]any)
		for method, op := range ops {
			o, ok := op.(map[string]any)
			if !ok || method == "parameters" {
				continue
			}
			resp, _ := o["responses"].(map[string]any)
			if resp == nil {
				continue
			}
			add := map[string]string{"408": "Error", "431": "Error", "503": "StorageUnavailable"}
			if method != "get" {
				add["507"] = "StorageFull"
			}
			if ok, _ := json.Marshal(resp["200"]); strings.Contains(string(ok), `"#/components/schemas/List"`) {
				add["400"] = "Error"
			}
			for status, ref := range add {
				if _, ok := resp[status]; !ok {
					resp[status] = map[string]any{"$ref": "#/components/responses/" + ref}
				}
			}
		}
	}
}

// fieldsSuffix names the derived schemas of fields= responses: a fragment that
// refers to "#/components/schemas/ProductFields" gets a copy of Product in
// which only id is required, because fields= can drop every other top-level
// member. The full schema keeps every member required.
const fieldsSuffix = "Fields"

// addFieldsSchemas derives every referenced XFields schema from X.
func addFieldsSchemas(doc map[string]any) error {
	comps, _ := doc["components"].(map[string]any)
	schemas, _ := comps["schemas"].(map[string]any)
	raw, _ := json.Marshal(doc["paths"])
	const prefix = `"#/components/schemas/`
	for rest := string(raw); ; {
		i := strings.Index(rest, prefix)
		if i < 0 {
			break
		}
		rest = rest[i+len(prefix):]
		name := rest[:strings.IndexByte(rest, '"')]
		base, ok := strings.CutSuffix(name, fieldsSuffix)
		if !ok || schemas[name] != nil {
			continue
		}
		full, ok := schemas[base].(map[string]any)
		if !ok {
			return fmt.Errorf("openapi: %s refers to no schema %s", name, base)
		}
		derived := make(map[string]any, len(full))
		for k, v := range full {
			derived[k] = v
		}
		derived["required"] = []any{"id"}
		derived["description"] = base + " as trimmed by fields=: only id is always present; the other members are there when named in fields (all of them without fields)."
		schemas[name] = derived
	}
	return nil
}

// fullAnswers makes every answer that refers to an XFields schema refer to
// anyOf X and XFields (served) or to X alone (the answer without fields=),
// and says so in its description.
func fullAnswers(doc map[string]any, served bool) error {
	full := `{"$$ref":"#/components/schemas/${1}"}` // a regexp replacement: $$ is $
	if served {
		full = `{"anyOf":[{"$$ref":"#/components/schemas/${1}"},{"$$ref":"#/components/schemas/${1}` + fieldsSuffix + `"}]}`
	}
	paths, _ := doc["paths"].(map[string]any)
	for _, item := range paths {
		ops, _ := item.(map[string]any)
		for _, op := range ops {
			o, _ := op.(map[string]any)
			resp, _ := o["responses"].(map[string]any)
			for status, r := range resp {
				raw, err := json.Marshal(r)
				if err != nil {
					return err
				}
				names := fieldsRef.FindAllStringSubmatch(string(raw), -1)
				if len(names) == 0 {
					continue
				}
				var answer map[string]any
				if err := json.Unmarshal([]byte(fieldsRef.ReplaceAllString(string(raw), full)), &answer); err != nil {
					return err
				}
				desc, _ := answer["description"].(string)
				answer["description"] = strings.TrimSpace(desc + " Without fields=, the full " + names[0][1] +
					"; with fields=, only id and the named members (schema " + names[0][1] + fieldsSuffix + ").")
				resp[status] = answer
			}
		}
	}
	return nil
}

// fieldsRef is a reference to an XFields schema, as JSON.
var fieldsRef = regexp.MustCompile(`\{"\$ref":"#/components/schemas/([A-Za-z0-9]+)` + fieldsSuffix + `"\}`)

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

// ServeOpenAPI mounts GET /openapi.json and the API reference page at /docs/.
func ServeOpenAPI(r fiber.Router) error {
	doc, err := OpenAPI()
	if err != nil {
		return err
	}
	r.Get("/openapi.json", func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
		return c.Send(doc)
	})
	serveDocs(r)
	return nil
}
