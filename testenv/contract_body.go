package testenv

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
)

// Bodies are checked here, not by openapi3filter (called with
// ExcludeRequestBody and ExcludeResponseBody), for two reasons of time: for
// our 3.1 document kin-openapi compiles each schema for JSON Schema 2020-12
// on every call, even when it then checks with its 3.0 validator (a schema
// that refers to a component and uses no keyword only 2020-12 has); and the
// suites send the same body (an error, an empty list) again and again. So a
// body is checked the way openapi3filter does (decoded by its media type,
// visited as a request or a response, by the validator kin-openapi would
// use), once per schema and body. The compiling was two thirds of the
// contract check's CPU and a tenth of the HTTP suites' under -race.

// legacySchemas remembers, per schema, whether kin-openapi checks it with
// its 3.0 validator.
var legacySchemas sync.Map // *openapi3.Schema -> bool

func checkedAsLegacy(s *openapi3.Schema) bool {
	if v, ok := legacySchemas.Load(s); ok {
		return v.(bool)
	}
	raw, err := json.Marshal(s)
	legacy := err == nil && bytes.Contains(raw, []byte(`"$ref":"#/components/schemas/`)) && !uses2020Keywords(s)
	legacySchemas.Store(s, legacy)
	return legacy
}

// uses2020Keywords is openapi3's schemaUsesJSONSchema2020Features: a
// keyword of JSON Schema 2020-12 anywhere in s or the schemas it refers to.
func uses2020Keywords(s *openapi3.Schema) bool {
	found := false
	_ = openapi3.NewSchemaRef("", s).WalkSubtree(func(_ string, ref *openapi3.SchemaRef) error {
		v := ref.Value
		if v != nil && (v.Const != nil || len(v.PrefixItems) != 0 || v.Contains != nil ||
			len(v.PatternProperties) != 0 || len(v.DependentSchemas) != 0 || v.PropertyNames != nil ||
			v.UnevaluatedItems.Has != nil || v.UnevaluatedItems.Schema != nil ||
			v.UnevaluatedProperties.Has != nil || v.UnevaluatedProperties.Schema != nil ||
			v.If != nil || v.Then != nil || v.Else != nil ||
			len(v.DependentRequired) != 0 || len(v.Defs) != 0 || v.ContentSchema != nil) {
			found = true
		}
		return nil
	})
	return found
}

// verdict is the outcome of checking one body against one media type.
type verdict struct {
	reason string // "" when the body matches
	err    error
}

var verdicts sync.Map // [sha256 of media type, direction, body] -> verdict

// checkBody checks body (sent with header) against mt the way openapi3filter
// does, as a request or a response: decoded by its media type, then visited
// by the validator kin-openapi would use for the schema.
func checkBody(mt *openapi3.MediaType, header http.Header, body []byte, asResponse bool) verdict {
	key := sha256.Sum256(fmt.Appendf(nil, "%p %t %s", mt, asResponse, body))
	if v, ok := verdicts.Load(key); ok {
		return v.(verdict)
	}
	v := visitBody(mt, header, body, asResponse)
	verdicts.Store(key, v)
	return v
}

func visitBody(mt *openapi3.MediaType, header http.Header, body []byte, asResponse bool) verdict {
	value, err := openapi3filter.RegisteredBodyDecoder("application/json")(bytes.NewReader(body), header, mt.Schema, func(name string) *openapi3.Encoding { return mt.Encoding[name] })
	if err != nil {
		return verdict{"failed to decode body", err}
	}
	opts := []openapi3.SchemaValidationOption{openapi3.MultiErrors(), openapi3.VisitAsRequest()}
	if asResponse {
		opts[1] = openapi3.VisitAsResponse()
	}
	if !checkedAsLegacy(mt.Schema.Value) {
		opts = append(opts, openapi3.EnableJSONSchema2020())
	}
	if err := mt.Schema.Value.VisitJSON(value, opts...); err != nil {
		return verdict{"body doesn't match schema", err}
	}
	return verdict{}
}

// jsonMedia is the media type of content for a body sent with header when
// it is plain JSON (application/json, no encoding, not a string): the
// bodies checked here. Any other is left to openapi3filter whole.
func jsonMedia(content openapi3.Content, header http.Header) *openapi3.MediaType {
	media, _, err := mime.ParseMediaType(header.Get("Content-Type"))
	if err != nil || media != "application/json" {
		return nil
	}
	mt := content.Get(header.Get("Content-Type"))
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil || len(mt.Encoding) != 0 || mt.Schema.Value.Type.Is("string") {
		return nil
	}
	return mt
}

// answerMedia is jsonMedia of x's answer in the status's response (or the
// default), for the answers openapi3filter.ValidateResponse checks the body of.
func answerMedia(route *routers.Route, x exchange) *openapi3.MediaType {
	switch x.status {
	case http.StatusNotModified, http.StatusPermanentRedirect, http.StatusTemporaryRedirect, http.StatusMovedPermanently:
		return nil
	}
	if x.method == http.MethodHead || route.Operation.Responses.Len() == 0 {
		return nil
	}
	ref := route.Operation.Responses.Status(x.status)
	if ref == nil {
		ref = route.Operation.Responses.Default()
	}
	if ref == nil || ref.Value == nil {
		return nil
	}
	return jsonMedia(ref.Value.Content, x.respHeader)
}

// requestMedia is jsonMedia of x's request body, when it sent one.
func requestMedia(route *routers.Route, x exchange) *openapi3.MediaType {
	rb := route.Operation.RequestBody
	if rb == nil || rb.Value == nil || len(x.reqBody) == 0 {
		return nil
	}
	return jsonMedia(rb.Value.Content, x.header)
}
