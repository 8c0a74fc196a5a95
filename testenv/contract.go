package testenv

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"storefront/web"
)

// The contract check: every response that Env.Do records is validated, when
// the test ends, against the OpenAPI document the server serves
// (web.OpenAPI), so every HTTP test is also a check that the document tells
// the truth: the status must be one the operation lists, and the body must
// match its schema. Requests to paths the document does not describe (panel
// pages) are skipped.

// exchange is one recorded request and its response.
type exchange struct {
	method, target string
	header         http.Header // request headers
	reqBody        []byte      // the request body sent (nil: none)
	offContract    bool        // Req.OffContract: the request is not validated
	status         int
	respHeader     http.Header
	body           []byte
}

type recorder struct {
	mu   sync.Mutex
	seen []exchange
	off  bool
}

func (r *recorder) add(x exchange) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.off {
		r.seen = append(r.seen, x)
	}
}

// SkipContract turns the response check off for this env: only for tests that
// break the server on purpose (a closed database, a full disk) where the
// answers are not API behaviour.
func (e *Env) SkipContract() {
	e.rec.mu.Lock()
	e.rec.off = true
	e.rec.seen = nil
	e.rec.mu.Unlock()
}

var contract struct {
	once   sync.Once
	doc    *openapi3.T
	router routers.Router
	full   routers.Router // web.OpenAPIFull: for requests without fields=
	err    error
}

// Contract returns the loaded OpenAPI document and a router over it (loaded
// once per test binary).
func Contract() (*openapi3.T, routers.Router, error) {
	contract.once.Do(func() {
		contract.doc, contract.router, contract.err = loadContract(web.OpenAPI)
		if contract.err == nil {
			_, contract.full, contract.err = loadContract(web.OpenAPIFull)
		}
	})
	return contract.doc, contract.router, contract.err
}

func loadContract(build func() ([]byte, error)) (*openapi3.T, routers.Router, error) {
	raw, err := build()
	if err != nil {
		return nil, nil, err
	}
	doc, err := openapi3.NewLoader().LoadFromData(raw)
	if err != nil {
		return nil, nil, fmt.Errorf("openapi: load: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, nil, fmt.Errorf("openapi: invalid document: %w", err)
	}
	// The document's one server is "/" (same origin); the router matches
	// paths only.
	doc.Servers = nil
	router, err := legacy.NewRouter(doc)
	return doc, router, err
}

// routerFor is the router of target: the served document's when the
// request names fields= (its answers are anyOf the full and the trimmed
// schema), else the stricter one whose answers are the full schema alone.
func routerFor(router routers.Router, target string) routers.Router {
	if u, err := url.Parse(target); err == nil && u.Query().Get("fields") != "" {
		return router
	}
	return contract.full
}

// checkContract validates the recorded responses; called at cleanup.
func (e *Env) checkContract(t testing.TB) {
	e.rec.mu.Lock()
	seen := e.rec.seen
	e.rec.seen = nil
	e.rec.mu.Unlock()
	if len(seen) == 0 {
		return
	}
	_, router, err := Contract()
	if err != nil {
		t.Errorf("contract: %v", err)
		return
	}
	reported := map[string]bool{}
	for _, x := range seen {
		if msg := validateExchange(routerFor(router, x.target), x); msg != "" && !reported[msg] {
			reported[msg] = true
			t.Errorf("%s", msg)
		}
	}
}

// ValidateResponse checks one response against the document as served
// (what /openapi.json gives an outside client) and returns a message naming
// the operation, the status and the JSON path of the first mismatch, or ""
// when it conforms (or the path is not in the document).
func ValidateResponse(method, target string, status int, header http.Header, body []byte) string {
	_, router, err := Contract()
	if err != nil {
		return err.Error()
	}
	// the request is not known here: only the response is checked
	return validateExchange(router, exchange{method: method, target: target, offContract: true, status: status, respHeader: header, body: body})
}

func validateExchange(router routers.Router, x exchange) string {
	req := httptest.NewRequest(x.method, "http://shop.test"+x.target, nil)
	for k, v := range x.header {
		req.Header[k] = v
	}
	route, params, err := router.FindRoute(req)
	if err != nil {
		return "" // not a documented path (HTML pages, sandbox)
	}
	if msg := validateRequest(route, params, x); msg != "" {
		return msg
	}
	if !strings.HasPrefix(x.respHeader.Get("Content-Type"), "application/json") {
		// Documented JSON operations answer JSON; anything else is only checked
		// when the operation lists that media type for the status.
		if x.status >= 300 || len(x.body) == 0 {
			return ""
		}
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
		Status:                 x.status,
		Header:                 x.respHeader,
		Body:                   io.NopCloser(bytes.NewReader(x.body)),
		Options:                &openapi3filter.Options{MultiError: true, IncludeResponseStatus: true},
	}
	err = openapi3filter.ValidateResponse(context.Background(), in)
	if err == nil {
		return ""
	}
	body := x.body
	if len(body) > 600 {
		body = append(body[:600:600], "..."...)
	}
	return fmt.Sprintf("contract: %s (%s %s) status %d does not match the OpenAPI document:\n%s\nbody: %s",
		route.Operation.OperationID, x.method, route.Path, x.status, describe(err), body)
}

// ValidateWebhook checks one webhook delivery against the document's
// webhooks section: the entry named by the payload's type must exist, its
// header parameters (webhook-id, webhook-timestamp, webhook-signature) must
// be present and match, and the body must match its payload schema. It
// returns "" when the delivery conforms.
func ValidateWebhook(header http.Header, body []byte) string {
	doc, _, err := Contract()
	if err != nil {
		return err.Error()
	}
	var payload map[string]any
	if err := json.Unmarshal(body, &payload); err != nil {
		return fmt.Sprintf("contract: webhook body is not a JSON object: %v", err)
	}
	typ, _ := payload["type"].(string)
	item := doc.Webhooks[typ]
	if item == nil || item.Post == nil {
		return fmt.Sprintf("contract: webhook %q is not in the document's webhooks section", typ)
	}
	op := item.Post
	var problems []string
	for _, p := range op.Parameters {
		prm := p.Value
		if prm.In != openapi3.ParameterInHeader {
			continue
		}
		v := header.Get(prm.Name)
		if v == "" {
			if prm.Required {
				problems = append(problems, "  header "+prm.Name+" missing")
			}
			continue
		}
		if err := prm.Schema.Value.VisitJSON(v); err != nil {
			problems = append(problems, "  header "+prm.Name+":\n"+describe(err))
		}
	}
	schema := op.RequestBody.Value.Content.Get("application/json").Schema.Value
	var decoded any
	_ = json.Unmarshal(body, &decoded)
	if err := schema.VisitJSON(decoded, openapi3.MultiErrors()); err != nil {
		problems = append(problems, describe(err))
	}
	if len(problems) == 0 {
		return ""
	}
	if len(body) > 600 {
		body = append(body[:600:600], "..."...)
	}
	return fmt.Sprintf("contract: webhook %s does not match the OpenAPI document:\n%s\nbody: %s", typ, strings.Join(problems, "\n"), body)
}

// validateRequest checks the request of a 2xx exchange against the
// operation: parameters and body. Security is not checked here (the HTTP
// tests check who may call what).
func validateRequest(route *routers.Route, params map[string]string, x exchange) string {
	if x.offContract || x.status < 200 || x.status > 299 {
		return ""
	}
	req := httptest.NewRequest(x.method, "http://shop.test"+x.target, bytes.NewReader(x.reqBody))
	for k, v := range x.header {
		req.Header[k] = v
	}
	if x.reqBody == nil {
		req.Body = http.NoBody
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{MultiError: true, AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
	err := openapi3filter.ValidateRequest(context.Background(), in)
	if err == nil {
		return ""
	}
	body := x.reqBody
	if len(body) > 600 {
		body = append(body[:600:600], "..."...)
	}
	return fmt.Sprintf("contract: %s (%s %s) request answered %d does not match the OpenAPI document (mark a request sent off-contract on purpose with Req.OffContract):\n%s\nrequest body: %s",
		route.Operation.OperationID, x.method, x.target, x.status, describe(err), body)
}

// describe lists each schema mismatch as "at /json/path: reason".
func describe(err error) string {
	var lines []string
	var walk func(error)
	walk = func(err error) {
		var multi openapi3.MultiError
		if errors.As(err, &multi) {
			for _, e := range multi {
				walk(e)
			}
			return
		}
		var se *openapi3.SchemaError
		if errors.As(err, &se) {
			lines = append(lines, fmt.Sprintf("  at /%s: %s", strings.Join(se.JSONPointer(), "/"), se.Reason))
			return
		}
		lines = append(lines, "  "+err.Error())
	}
	var re *openapi3filter.ResponseError
	var rq *openapi3filter.RequestError
	switch {
	case errors.As(err, &re) && re.Err != nil:
		walk(re.Err)
	case errors.As(err, &rq) && rq.Err != nil:
		where := rq.Reason
		if rq.Parameter != nil {
			where = "parameter " + rq.Parameter.Name + " (" + rq.Parameter.In + ")"
		} else if rq.RequestBody != nil {
			where = "request body"
		}
		lines = append(lines, "  "+where+":")
		walk(rq.Err)
	default:
		walk(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
