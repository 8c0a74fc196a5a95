package web

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

type localKey int

const (
	keyStore localKey = iota
	keyShopper
)

var (
	ridPrefix  = newRIDPrefix()
	ridCounter atomic.Uint64
)

func newRIDPrefix() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// headerRequestID is the response header that carries the request id; it is
// also where requestID reads it back (no per-request Locals value to box).
const headerRequestID = "X-Request-Id" // canonical form: set with SetCanonical

// appendBase36 appends n as strconv.AppendUint(b, n, 36) does, dividing by
// a constant (strconv's base is a variable: a division instruction a digit).
func appendBase36(b []byte, n uint64) []byte {
	const digits = "0123456789abcdefghijklmnopqrstuvwxyz"
	var buf [13]byte // 36^13 > 2^64
	i := len(buf)
	for n >= 36 {
		q := n / 36
		i--
		buf[i] = digits[n-q*36]
		n = q
	}
	i--
	buf[i] = digits[n]
	return append(b, buf[i:]...)
}

// requestID returns the id of the current request.
func requestID(c *fiber.Ctx) string {
	return string(c.Response().Header.Peek(headerRequestID))
}

// safeNext runs the rest of the chain, turning a panic into an error (a 500
// with the stack in the log), never a crash.
func (s *Server) safeNext(c *fiber.Ctx) (err error) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("panic", "request_id", requestID(c), "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return c.Next()
}

// requestLog gives the request an id (X-Request-ID), and logs and measures it.
var (
	headerRequestIDBytes = []byte(headerRequestID)
	headerNosniffBytes   = []byte(headerNosniff)
	nosniffBytes         = []byte("nosniff")
)

func (s *Server) requestLog(c *fiber.Ctx) error {
	// The request's start: fasthttp reads the clock at the first call
	// (LazyRequestTime), zero when the handler is called without a server
	// (benchmarks).
	start := c.Context().Time()
	if start.IsZero() {
		start = time.Now()
	}
	// the id is made in the connection's buffer (its requests are served one
	// at a time), or in a new one without a counting connection
	cc, _ := c.Context().Conn().(*countingConn)
	var rid []byte
	if cc != nil {
		rid = cc.rid[:0]
	}
	rid = appendBase36(append(append(rid, ridPrefix...), '-'), ridCounter.Add(1))
	c.Response().Header.SetCanonical(headerRequestIDBytes, rid)
	c.Response().Header.SetCanonical(headerNosniffBytes, nosniffBytes)
	if s.draining.Load() {
		c.Context().SetConnectionClose()
	}
	err := s.safeNext(c)
	if err != nil {
		if herr := s.ErrorHandler(c, err); herr != nil {
			_ = c.SendStatus(fiber.StatusInternalServerError)
		}
	}
	status := c.Response().StatusCode()
	end := time.Now() // the request's end: its duration, its log line's time, the next deadlines
	d := end.Sub(start)
	if cc != nil {
		cc.answered(end, s.timeouts)
	}
	s.uploads.give(&c.Request().Header)
	if s.cfg.Observe != nil {
		s.cfg.Observe(c.Route().Path, c.Method(), status, d)
	}
	if s.cfg.LogRequests {
		s.logRequest(c, cc, rid, status, end, d)
	}
	return nil
}

// apiKey resolves X-Service-Key to a store (401 invalid_api_key, 403
// store_inactive) and applies ratelimit.api_per_second per API key and client
// IP (one middleware: every hop of the chain costs on the hottest routes).
// noStoreAll marks an answer that carries a secret or personal data
// (Cache-Control: no-store): every answer of the customer API.
func noStoreAll(c *fiber.Ctx) error {
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Next()
}

// personalPrefixes are the storefront routes whose answers are a shopper's
// own (their addresses, cart, orders, payments, requests, tickets, messages).
var personalPrefixes = []string{"/addresses", "/cart", "/payment", "/orders", "/requests", "/tickets", "/contact"}

// noStorePersonal is noStoreAll for the storefront routes of personalPrefixes
// and for any request that carries a shopper's token; the public catalog
// and content stay cacheable.
func noStorePersonal(c *fiber.Ctx) error {
	rest := strings.TrimPrefix(c.Path(), "/api/v1/business/website")
	personal := c.Get(fiber.HeaderAuthorization) != ""
	for _, p := range personalPrefixes {
		personal = personal || strings.HasPrefix(rest, p)
	}
	if personal {
		c.Set(fiber.HeaderCacheControl, "no-store")
	}
	return c.Next()
}

func (s *Server) apiKey(c *fiber.Ctx) error {
	key := c.Get("X-Service-Key")
	var st *app.Store
	var err error
	if cc, ok := c.Context().Conn().(*countingConn); ok {
		st, err = s.svc.Stores.AuthenticateMemo(key, &cc.keys) // the connection's last key
	} else {
		st, err = s.svc.Stores.Authenticate(key)
	}
	if err != nil {
		return err
	}
	c.Locals(keyStore, st)
	if s.apiRate != nil {
		if ok, wait := s.apiRate.Allow(strconv.FormatUint(st.ID, 10) + "|" + app.AddrKey(s.clientIP(c))); !ok {
			return rateLimited(wait)
		}
	}
	return c.Next()
}

func rateLimited(wait time.Duration) error {
	return app.RateLimited("too many requests; retry later", wait)
}

// store returns the store the API key named.
func store(c *fiber.Ctx) *app.Store {
	st, _ := c.Locals(keyStore).(*app.Store)
	return st
}

func storeIDOf(c *fiber.Ctx) uint64 {
	if st := store(c); st != nil {
		return st.ID
	}
	return 0
}

// shopper requires a valid bearer token of the key's store.
func (s *Server) shopper(c *fiber.Ctx) error {
	sh, err := s.bearer(c)
	if err != nil {
		return err
	}
	if sh == nil {
		return app.Errorf(app.EUnauthorized, "missing bearer token")
	}
	c.Locals(keyShopper, sh)
	return c.Next()
}

// optionalShopper accepts a request without a token (a guest); a token, when
// sent, must be valid.
func (s *Server) optionalShopper(c *fiber.Ctx) error {
	sh, err := s.bearer(c)
	if err != nil {
		return err
	}
	if sh != nil {
		c.Locals(keyShopper, sh)
	}
	return c.Next()
}

func (s *Server) bearer(c *fiber.Ctx) (*app.Shopper, error) {
	h := c.Get(fiber.HeaderAuthorization)
	if h == "" {
		return nil, nil
	}
	// the scheme is case-insensitive (RFC 7235)
	if len(h) < 7 || !strings.EqualFold(h[:7], "Bearer ") {
		return nil, app.Errorf(app.EUnauthorized, "malformed Authorization header: want Bearer <token>")
	}
	cl, err := s.svc.Tokens.Verify(strings.TrimSpace(h[7:]), app.TokenShopper)
	if err != nil {
		return nil, err
	}
	// revoked: logout, refresh token reuse or password reset (map lookups, no database read)
	if cl.StoreID != store(c).ID || s.svc.Customers.RevokedToken(cl) {
		return nil, app.Errorf(app.EUnauthorized, "invalid or expired token")
	}
	return &app.Shopper{StoreID: cl.StoreID, CustomerID: cl.Subject}, nil
}

// shopperOf returns the authenticated shopper, or nil for a guest.
func shopperOf(c *fiber.Ctx) *app.Shopper {
	sh, _ := c.Locals(keyShopper).(*app.Shopper)
	return sh
}
