package web_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"storefront/testenv"
	"storefront/web"
)

// The rules every operation of the OpenAPI document follows, so that a typed
// client (openapi-typescript) needs no casts. A new route that breaks one
// fails here with the operation and the JSON path named.

// opVerbs are the verbs an operationId may start with (verbNoun:
// listProducts, getOrder, approveAdminReview).
var opVerbs = []string{"list", "get", "create", "update", "delete", "add", "remove", "register", "login", "logout",
	"refresh", "verify", "resend", "forgot", "reset", "rotate", "approve", "reject", "initiate", "submit", "request",
	"cancel", "export", "import", "download", "upload", "search", "send", "mark", "reorder", "restore", "revoke", "change", "replay", "retry"}

var opIDPattern = regexp.MustCompile(`^(` + strings.Join(opVerbs, "|") + `)[A-Z][A-Za-z0-9]*$`)

type openapiDoc struct {
	Paths      map[string]map[string]json.RawMessage `json:"paths"`
	Components struct {
		Schemas map[string]any `json:"schemas"`
	} `json:"components"`
}

func loadDoc(t *testing.T) (openapiDoc, map[string]any) {
	t.Helper()
	raw, err := web.OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	var doc openapiDoc
	var tree map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &tree); err != nil {
		t.Fatal(err)
	}
	return doc, tree
}

type operation struct {
	OperationID string         `json:"operationId"`
	Tags        []string       `json:"tags"`
	Description string         `json:"description"`
	Parameters  []any          `json:"parameters"`
	RequestBody map[string]any `json:"requestBody"`
	Responses   map[string]any `json:"responses"`
}

func eachOperation(t *testing.T, doc openapiDoc, fn func(method, path string, op operation)) {
	t.Helper()
	paths := make([]string, 0, len(doc.Paths))
	for p := range doc.Paths {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		for _, m := range []string{"get", "put", "post", "patch", "delete"} {
			raw, ok := doc.Paths[p][m]
			if !ok {
				continue
			}
			var op operation
			if err := json.Unmarshal(raw, &op); err != nil {
				t.Fatalf("%s %s: %v", m, p, err)
			}
			fn(strings.ToUpper(m), p, op)
		}
	}
}

// TestOpenAPIDocumentLoads: kin-openapi loads and validates the document
// (OpenAPI 3.1) as the response check of every HTTP test uses it.
func TestOpenAPIDocumentLoads(t *testing.T) {
	t.Parallel()
	if _, _, err := testenv.Contract(); err != nil {
		t.Fatal(err)
	}
}

// TestOpenAPIOperationIDs: every operation has a unique verbNoun operationId.
func TestOpenAPIOperationIDs(t *testing.T) {
	t.Parallel()
	doc, _ := loadDoc(t)
	seen := map[string]string{}
	eachOperation(t, doc, func(method, path string, op operation) {
		where := method + " " + path
		switch {
		case op.OperationID == "":
			t.Errorf("%s: no operationId", where)
		case !opIDPattern.MatchString(op.OperationID):
			t.Errorf("%s: operationId %q is not verbNoun (a verb of %v, then CamelCase)", where, op.OperationID, opVerbs)
		case seen[op.OperationID] != "":
			t.Errorf("%s: operationId %q is also %s", where, op.OperationID, seen[op.OperationID])
		}
		seen[op.OperationID] = where
	})
}

// schemaWalker checks that every schema is typed: objects list required (in
// responses) or are typed maps, arrays have typed items.
type schemaWalker struct {
	schemas  map[string]any
	response bool
	problems []string
	visiting map[string]bool
}

func (w *schemaWalker) fail(path, format string, args ...any) {
	w.problems = append(w.problems, path+": "+fmt.Sprintf(format, args...))
}

func (w *schemaWalker) walk(path string, node any) {
	s, ok := node.(map[string]any)
	if !ok {
		w.fail(path, "schema is not an object")
		return
	}
	if ref, ok := s["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/components/schemas/")
		if w.visiting[name] {
			return
		}
		w.visiting[name] = true
		target, ok := w.schemas[name]
		if !ok {
			w.fail(path, "unknown $ref %s", ref)
			return
		}
		w.walk(path+" ("+name+")", target)
		delete(w.visiting, name)
		return
	}
	combined := false
	for _, k := range []string{"allOf", "oneOf", "anyOf"} {
		if list, ok := s[k].([]any); ok {
			combined = true
			for i, m := range list {
				w.walk(fmt.Sprintf("%s/%s/%d", path, k, i), m)
			}
		}
	}
	types := map[string]bool{}
	switch ty := s["type"].(type) {
	case string:
		types[ty] = true
	case []any:
		for _, x := range ty {
			if n, ok := x.(string); ok {
				types[n] = true
			}
		}
	}
	_, hasConst := s["const"]
	_, hasEnum := s["enum"]
	props, hasProps := s["properties"].(map[string]any)
	if len(types) == 0 && !combined && !hasConst && !hasEnum && !hasProps {
		w.fail(path, "untyped schema")
		return
	}
	if types["object"] || hasProps {
		if hasProps {
			if _, ok := s["required"]; !ok && w.response {
				w.fail(path, "object lists no required members")
			}
			names := make([]string, 0, len(props))
			for n := range props {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				w.walk(path+"/"+n, props[n])
			}
		}
		switch ap := s["additionalProperties"].(type) {
		case map[string]any:
			w.walk(path+"/*", ap)
		default:
			req, _ := s["required"].([]any)
			if !hasProps && !combined && len(req) == 0 { // a bare required list narrows an allOf sibling
				w.fail(path, "object without properties or a typed additionalProperties")
			}
		}
	}
	if types["array"] {
		items, ok := s["items"]
		if !ok {
			w.fail(path, "array without items")
		} else {
			w.walk(path+"/items", items)
		}
	}
}

// TestOpenAPISchemasExact: every success response and request body is fully
// typed; response objects list their required members; every success
// envelope requires data; fields= schemas appear only on operations that
// take fields and say so.
func TestOpenAPISchemasExact(t *testing.T) {
	t.Parallel()
	doc, _ := loadDoc(t)
	eachOperation(t, doc, func(method, path string, op operation) {
		name := op.OperationID
		if name == "getOpenAPIDocument" {
			return // the document itself: any JSON object
		}
		takesFields := false
		for _, p := range op.Parameters {
			raw, _ := json.Marshal(p)
			if strings.Contains(string(raw), `#/components/parameters/fields"`) || strings.Contains(string(raw), `"name":"fields"`) {
				takesFields = true
			}
		}
		if body, ok := op.RequestBody["content"].(map[string]any); ok {
			for media, c := range body {
				w := &schemaWalker{schemas: doc.Components.Schemas, visiting: map[string]bool{}}
				if sch, ok := c.(map[string]any)["schema"]; ok {
					w.walk("request "+media, sch)
				}
				for _, p := range w.problems {
					t.Errorf("%s (%s %s): %s", name, method, path, p)
				}
			}
		}
		for status, r := range op.Responses {
			rm, _ := r.(map[string]any)
			content, _ := rm["content"].(map[string]any)
			jsonContent, ok := content["application/json"].(map[string]any)
			if !strings.HasPrefix(status, "2") || !ok {
				continue
			}
			sch := jsonContent["schema"]
			raw, _ := json.Marshal(sch)
			if strings.Contains(string(raw), fieldsSuffixRef) && !(takesFields && strings.Contains(op.Description, "fields=")) {
				t.Errorf("%s (%s %s) %s: a fields= schema on an operation that does not take fields or does not say so in its description", name, method, path, status)
			}
			w := &schemaWalker{schemas: doc.Components.Schemas, response: true, visiting: map[string]bool{}}
			w.walk(status, sch)
			for _, p := range w.problems {
				t.Errorf("%s (%s %s): %s", name, method, path, p)
			}
			if !requiresData(doc.Components.Schemas, sch) {
				t.Errorf("%s (%s %s) %s: the success envelope does not require data", name, method, path, status)
			}
		}
	})
}

const fieldsSuffixRef = `Fields"`

// requiresData reports whether a success schema is the envelope with data
// both described and required (across allOf members).
func requiresData(schemas map[string]any, node any) bool {
	required, described := map[string]bool{}, map[string]bool{}
	var collect func(any)
	collect = func(n any) {
		s, _ := n.(map[string]any)
		if ref, ok := s["$ref"].(string); ok {
			collect(schemas[strings.TrimPrefix(ref, "#/components/schemas/")])
			return
		}
		if list, ok := s["allOf"].([]any); ok {
			for _, m := range list {
				collect(m)
			}
		}
		if r, ok := s["required"].([]any); ok {
			for _, x := range r {
				if n, ok := x.(string); ok {
					required[n] = true
				}
			}
		}
		if p, ok := s["properties"].(map[string]any); ok {
			for k := range p {
				described[k] = true
			}
		}
	}
	collect(node)
	return required["data"] && described["data"] && required["status"] && required["message"]
}
