package web

import (
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"storefront/app"
	"storefront/httpkit"
)

// Config is what the HTTP layer needs besides the services.
type Config struct {
	// TrustedProxies are the proxies whose X-Forwarded-For is believed.
	TrustedProxies []string
	// APIPerSecond limits requests per API key and client IP (0: off).
	APIPerSecond int
	// AuthPerMinute limits register, login, forgot, resend-code and verify-email per IP.
	AuthPerMinute int
	// LoginFailures is how many failed logins per email per 15 minutes before 429.
	LoginFailures int
	// CodesPerDay limits the email codes (forgot, resend-code) mailed per
	// store and email within a day (0: off).
	CodesPerDay int
	// ContactPerMinute limits the contact form per IP.
	ContactPerMinute int
	// CursorSecret signs list cursors.
	CursorSecret []byte
	// LogRequests writes one log line per request.
	LogRequests bool
	// LogWriter, when set, is the writer of the logger given to the services
	// and LogJSON its format (false: text), as main builds it: slog's own
	// handler with default options. The request lines are then appended
	// directly there, the bytes the logger would write (reqlog.go).
	LogWriter io.Writer
	LogJSON   bool
	// Observe, when set, is called after every request (metrics).
	Observe func(route, method string, status int, d time.Duration)
	// ReadTimeout bounds the reading of a connection's first request, and of
	// a request body from its headers (0: 30s); a request not complete by then
	// is 408 request_timeout. WriteTimeout bounds writing the response (0:
	// 30s). IdleTimeout bounds the wait for a keep-alive connection's next
	// request, its request line and headers (0: 120s): 408 after, or closed
	// without a word when nothing came.
	ReadTimeout, WriteTimeout, IdleTimeout time.Duration
}

// Server holds the services the handlers call.
type Server struct {
	cfg      Config
	svc      app.Storefront // the services the handlers call, and nothing else
	log      *slog.Logger
	cursors  app.CursorCodec
	apiRate  *Limiter
	proxies  httpkit.Proxies // http.trusted_proxies
	timeouts timeouts
	uploads  uploadSlots
	// draining is set by Drain: every response closes its connection.
	draining atomic.Bool
	// App is the Fiber app; main mounts the admin side and operations on it too.
	App *fiber.App
	// UploadAuth, when set, tells from an upload's headers whether it
	// carries a live admin credential, and of which store
	// (admin.Handler.UploadAllowed): only then may its body exceed BodyLimit,
	// holding one of the store's upload slots (uploads.go). nil: every upload
	// may, as store 0.
	UploadAuth func(authorization string, cookie func(name string) string) (store uint64, ok bool)
}

// BodyLimit is the largest request body accepted (decisions.md §1), except
// on the upload routes (LargeBody), which take up to UploadLimit.
const BodyLimit = 1 << 20

// UploadLimit is the largest body of an upload route: image uploads (several
// files of at most 10 MB each) and CSV imports.
const UploadLimit = 32 << 20

// LargeBody reports whether a POST to path is an upload route: image uploads
// (.../images/) and CSV imports (.../import/), in the admin API and panel.
func LargeBody(path string) bool {
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	path = strings.TrimSuffix(path, "/")
	return strings.HasSuffix(path, "/images") || strings.HasSuffix(path, "/import")
}

// HeaderLimit is the largest request line plus headers accepted: a larger one
// is 431 request_headers_too_large.
const HeaderLimit = 8 << 10

const headerNosniff = "X-Content-Type-Options"

// New builds the Fiber app with the storefront routes.
func New(cfg Config, svc *app.Services) *Server {
	s := &Server{cfg: cfg, log: svc.Log, svc: svc.Storefront(), cursors: app.CursorCodec{Secret: cfg.CursorSecret},
		proxies: httpkit.NewProxies(cfg.TrustedProxies), timeouts: timeouts{read: orDefault(cfg.ReadTimeout, 30*time.Second),
			write: orDefault(cfg.WriteTimeout, 30*time.Second), idle: orDefault(cfg.IdleTimeout, 120*time.Second)}}
	if cfg.APIPerSecond > 0 {
		s.apiRate = NewLimiter(cfg.APIPerSecond, time.Second)
	}
	s.App = fiber.New(fiber.Config{
		ErrorHandler:          s.ErrorHandler,
		CaseSensitive:         true, // paths are case-sensitive (RFC 3986); spares a lower-casing per request
		BodyLimit:             UploadLimit,
		DisableStartupMessage: true,
		// X-Forwarded-Proto is believed from trusted proxies only; the client
		// address is resolved by httpkit.Proxies, not by Fiber's ProxyHeader (which
		// would hand out the left, client-written part of X-Forwarded-For).
		EnableTrustedProxyCheck: true,
		TrustedProxies:          cfg.TrustedProxies,
		ReadBufferSize:          HeaderLimit,
		WriteBufferSize:         WriteBuffer,
	})
	s.tuneServer(s.App.Server())
	s.App.Use(s.requestLog)
	s.routes()
	return s
}

// tuneServer sets what Fiber's configuration does not reach on the
// fasthttp server: the body limit and the timeouts of a request, and the
// answer to a read error.
func (s *Server) tuneServer(fs *fasthttp.Server) {
	// The connection arms its deadlines itself (Listener, requestLog):
	// fasthttp would read the clock for each of them, and for the time of
	// every request.
	fs.LazyRequestTime = true
	// Fiber's limit is the upload one; every other request, and an upload
	// without a live admin credential, is held to BodyLimit from its
	// headers, before its body is read. A body has ReadTimeout from its
	// headers.
	fs.HeaderReceived = func(h *fasthttp.RequestHeader) fasthttp.RequestConfig {
		rc := fasthttp.RequestConfig{MaxRequestBodySize: BodyLimit}
		if n := h.ContentLength(); n > 0 || n == -1 { // -1: chunked
			rc.ReadTimeout = s.timeouts.read
			rc.MaxRequestBodySize = s.uploadBody(h)
		}
		return rc
	}
	// A connection that timed out before sending a single byte gets no answer
	// (there is no request to answer; an unsolicited 408 confuses clients
	// that reuse connections): it is just closed. Every other read error goes
	// to Fiber's handler (408, 431, 400 through ErrorHandler), written
	// within WriteTimeout.
	inner := fs.ErrorHandler
	fs.ErrorHandler = func(ctx *fasthttp.RequestCtx, err error) {
		cc, _ := ctx.Conn().(*countingConn)
		if cc != nil && cc.read.Load() == 0 {
			_ = cc.Close()
			return
		}
		if cc != nil {
			_ = cc.SetWriteDeadline(time.Now().Add(s.timeouts.write))
		}
		defer s.uploads.give(&ctx.Request.Header)
		if errors.Is(err, fasthttp.ErrBodyTooLarge) && s.refusedUpload(ctx) {
			return
		}
		inner(ctx, err)
	}
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// Drain starts the shutdown: from now on every response closes its
// connection (Connection: close), so clients open new connections while the
// listener still accepts, instead of reusing one that shutdown will close.
func (s *Server) Drain() { s.draining.Store(true) }

// Draining reports whether Drain was called (readiness answers 503).
func (s *Server) Draining() bool { return s.draining.Load() }

// routes lists every storefront route group; each resource file registers its own.
func (s *Server) routes() {
	web := s.App.Group("/api/v1/business/website", s.cors, s.apiKey, noStorePersonal)
	cust := s.App.Group("/api/v1/customer", s.cors, s.apiKey, noStoreAll)

	s.registerStoreRoutes(web)
	s.registerCatalogRoutes(web)
	s.registerAccountRoutes(cust)
	s.registerAddressRoutes(web)
	s.registerCartRoutes(web)
	s.registerCheckoutRoutes(web)
	s.registerRequestRoutes(web)
	s.registerReviewRoutes(web)
	s.registerTicketRoutes(web)
	s.registerContactRoutes(web)
	s.registerContentRoutes(web)
	s.registerMediaRoutes()
}

// Mount adds the catch-all for unknown routes; call it after every other
// package has registered its routes.
func (s *Server) Mount() {
	s.App.Use(func(c *fiber.Ctx) error {
		return app.Errorf(app.ENotFound, "no such endpoint: %s %s", c.Method(), c.Path())
	})
}

// Listener wraps ln for the app: each connection keeps the request
// timeouts and counts the bytes it read (a connection that times out having
// sent nothing is closed without an answer). Serve the app with
// s.App.Listener(s.Listener(ln)).
func (s *Server) Listener(ln net.Listener) net.Listener {
	return countingListener{ln, s.timeouts.read}
}

type countingListener struct {
	net.Listener
	read time.Duration // the first request's time (ReadTimeout)
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	cc := &countingConn{Conn: c}
	return cc, cc.SetReadDeadline(time.Now().Add(l.read))
}

// timeouts are the connections' (Config.ReadTimeout and the others, with
// their defaults).
type timeouts struct{ read, write, idle time.Duration }

// answered arms the deadlines that follow a request handled at end: its
// answer is written within WriteTimeout, and the next request arrives whole
// within IdleTimeout (its body, when it has one, within ReadTimeout of its
// headers: HeaderReceived). fasthttp would arm them from the clock read
// per deadline; the first request has ReadTimeout from Accept.
func (c *countingConn) answered(end time.Time, t timeouts) {
	_ = c.SetWriteDeadline(end.Add(t.write))
	_ = c.SetReadDeadline(end.Add(t.idle))
}

// WriteBuffer is the size of a connection's response buffer. fasthttp sends
// a response larger than its buffer with one writev, but only on a bare
// *net.TCPConn: on the countingConn every server connection is, it took a
// copy and two writes. At 32 KiB a catalog page (24 products, about 15 KB)
// and a product detail go out in one write (docs/benchmarks.md).
const WriteBuffer = 32 << 10

type countingConn struct {
	net.Conn
	read atomic.Int64
	// keys is the last API key authenticated on the connection (its
	// requests are served one at a time): a keep-alive client sends the
	// same key each time (apiKey).
	keys app.KeyMemo
	// remote is the peer's address as a string, formatted once (clientIP).
	remote string
	// rd and wd are the read and write deadlines (see SetReadDeadline).
	rd, wd deadline
	// rid is the buffer of the request id (requestLog), reused by the
	// connection's requests.
	rid [32]byte
	// config is the data of the last GET config answered on the connection
	// and configBody its reply (configReply).
	config, configBody []byte
}

// configReply returns GET config's reply around data (the success envelope,
// as httpkit.SendRaw writes it), made again only when data is not the slice
// of the last call: StoreService.ConfigJSON hands out one slice per store
// until the store changes. The reply is never written to after it is made,
// so a response may send it without a copy.
func (c *countingConn) configReply(data []byte) []byte {
	if len(data) == 0 || len(data) != len(c.config) || &data[0] != &c.config[0] {
		body := make([]byte, 0, len(httpkit.OKPrefix)+len(data)+1)
		c.configBody = append(append(append(body, httpkit.OKPrefix...), data...), '}')
		c.config = data
	}
	return c.configBody
}

// clientIP is s.proxies.ClientIP, with the peer's address formatted once
// per connection when it is a counting one (main's): the request log wants
// it on every request.
func (s *Server) clientIP(c *fiber.Ctx) string {
	cc, _ := c.Context().Conn().(*countingConn)
	return s.clientIPOn(c, cc)
}

// clientIPOn is clientIP when the request's counting connection is known
// (nil: it has none).
func (s *Server) clientIPOn(c *fiber.Ctx, cc *countingConn) string {
	if cc == nil {
		return s.proxies.ClientIP(c)
	}
	if cc.remote == "" {
		cc.remote = c.Context().RemoteIP().String()
	}
	return s.proxies.ClientIPFrom(c, cc.remote)
}

func (c *countingConn) Read(b []byte) (int, error) {
	for {
		n, err := c.Conn.Read(b)
		c.read.Add(int64(n))
		if n > 0 || err == nil || !c.rd.early(err, c.Conn.SetReadDeadline) {
			return n, err
		}
	}
}

func (c *countingConn) Write(b []byte) (int, error) {
	done := 0
	for {
		n, err := c.Conn.Write(b[done:])
		done += n
		if err == nil || !c.wd.early(err, c.Conn.SetWriteDeadline) {
			return done, err
		}
	}
}

// Deadlines. Two are asked for per request (answered: the write of its
// answer, the wait for the next request), and each one handed to the
// runtime resets a timer of the poller: together more CPU than the
// middleware of a GET config. A connection keeps the deadline it was asked
// for apart from the one the runtime holds ("armed"), and hands a new one on
// only when it is earlier than the armed one. A later one is kept: when the
// armed deadline passes first, Read or Write sees the timeout, arms the
// deadline asked for (if it has not passed) and carries on. So a timeout
// fires when it was asked to, never earlier and never later, and a
// keep-alive connection arms about once per timeout instead of twice per
// request. Read, Write and the setters are called from the
// connection's goroutine (fasthttp serves a connection in one), like keys.

func (c *countingConn) SetReadDeadline(t time.Time) error {
	return c.rd.set(t, c.Conn.SetReadDeadline)
}

func (c *countingConn) SetWriteDeadline(t time.Time) error {
	return c.wd.set(t, c.Conn.SetWriteDeadline)
}

func (c *countingConn) SetDeadline(t time.Time) error {
	c.rd = deadline{want: t, armed: t}
	c.wd = deadline{want: t, armed: t}
	return c.Conn.SetDeadline(t)
}

// deadline is one direction's deadline: the one asked for and the one the
// runtime holds (zero: none).
type deadline struct {
	want, armed time.Time
}

// set asks for t, arming it only when the armed deadline is none or later.
func (d *deadline) set(t time.Time, arm func(time.Time) error) error {
	d.want = t
	if !t.IsZero() && !d.armed.IsZero() && !d.armed.After(t) {
		return nil // the armed one comes first; early re-arms when it passes
	}
	d.armed = t
	return arm(t)
}

// early reports whether err is the armed deadline passing before the one
// asked for, after arming that one: the operation is then tried again.
func (d *deadline) early(err error, arm func(time.Time) error) bool {
	if d.want.Equal(d.armed) || !errors.Is(err, os.ErrDeadlineExceeded) || !time.Now().Before(d.want) {
		return false
	}
	d.armed = d.want
	return arm(d.want) == nil
}
