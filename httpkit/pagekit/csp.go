package pagekit

import (
	"strings"
	"sync"

	"github.com/gofiber/fiber/v2"
)

// CSP is a Content-Security-Policy under construction: directives in the
// order they were first named, each with its sources.
type CSP struct {
	names   []string
	sources map[string][]string
}

// BaseCSP is the policy every page starts from: everything from this
// origin only, no plugins, never framed, no <base> elsewhere.
func BaseCSP() *CSP {
	return (&CSP{}).Set("default-src", "'self'").Set("object-src", "'none'").
		Set("frame-ancestors", "'none'").Set("base-uri", "'none'")
}

// Set makes directive's sources exactly sources.
func (p *CSP) Set(directive string, sources ...string) *CSP {
	if p.sources == nil {
		p.sources = map[string][]string{}
	}
	if _, found := p.sources[directive]; !found {
		p.names = append(p.names, directive)
	}
	p.sources[directive] = sources
	return p
}

// String is the header's value.
func (p *CSP) String() string {
	parts := make([]string, len(p.names))
	for i, n := range p.names {
		parts[i] = strings.Join(append([]string{n}, p.sources[n]...), " ")
	}
	return strings.Join(parts, "; ")
}

// SecurityHeaders are the headers a set of pages sends on every answer.
type SecurityHeaders struct {
	CSP            string
	ReferrerPolicy string // "same-origin", "strict-origin-when-cross-origin"

	once sync.Once
	kv   [][2][]byte // the headers as set, made on first use
}

// Set writes the headers: the policy, no framing, no sniffing, the referrer
// policy. They are set as made once (fasthttp's SetCanonical: not checked
// and normalised again per answer).
func (s *SecurityHeaders) Set(c *fiber.Ctx) {
	s.once.Do(func() {
		add := func(k, v string) { s.kv = append(s.kv, [2][]byte{[]byte(k), []byte(v)}) }
		add(fiber.HeaderContentSecurityPolicy, s.CSP)
		add(fiber.HeaderXFrameOptions, "DENY")
		add(fiber.HeaderXContentTypeOptions, "nosniff")
		if s.ReferrerPolicy != "" {
			add(fiber.HeaderReferrerPolicy, s.ReferrerPolicy)
		}
	})
	h := &c.Response().Header
	for _, kv := range s.kv {
		h.SetCanonical(kv[0], kv[1])
	}
}
