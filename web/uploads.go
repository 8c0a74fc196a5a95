package web

import (
	"encoding/json"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"storefront/app"
)

// Uploads at once. fasthttp makes room for a body's declared length when it
// starts to read it, so every upload larger than BodyLimit holds a slot from
// its headers until its handler has run: at most UploadsAtOnce in the
// server (UploadLimit each: 256 MiB) and UploadsPerStore of one store's
// staff, so that one store cannot take the others' slots. An upload that
// finds none is 429 rate_limited, unread, with Retry-After.
const (
	UploadsAtOnce   = 8
	UploadsPerStore = 2
)

// uploadSlots are the slots held, by the header of the request holding it
// (fasthttp keeps one request per connection, so a header is a connection's
// request in flight).
type uploadSlots struct {
	mu   sync.Mutex
	held map[*fasthttp.RequestHeader]uploadSlot
	n    atomic.Int32 // len(held), read without the lock by give
}

type uploadSlot struct {
	store uint64
	until time.Time // a request whose body never came is let go then
}

// take gives h a slot for store until now+hold, when one is free: one held
// by h before (its previous request) or past its time is free.
func (u *uploadSlots) take(h *fasthttp.RequestHeader, store uint64, now time.Time, hold time.Duration) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.held == nil {
		u.held = map[*fasthttp.RequestHeader]uploadSlot{}
	}
	ofStore := 0
	for k, sl := range u.held {
		switch {
		case k == h || now.After(sl.until):
			delete(u.held, k)
		case sl.store == store:
			ofStore++
		}
	}
	ok := len(u.held) < UploadsAtOnce && ofStore < UploadsPerStore
	if ok {
		u.held[h] = uploadSlot{store: store, until: now.Add(hold)}
	}
	u.n.Store(int32(len(u.held)))
	return ok
}

// holds reports whether h holds a slot.
func (u *uploadSlots) holds(h *fasthttp.RequestHeader) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	_, ok := u.held[h]
	return ok
}

// give frees h's slot, if it holds one.
func (u *uploadSlots) give(h *fasthttp.RequestHeader) {
	if u.n.Load() == 0 {
		return
	}
	u.mu.Lock()
	delete(u.held, h)
	u.n.Store(int32(len(u.held)))
	u.mu.Unlock()
}

// uploadBody returns the body limit of a request from its headers: UploadLimit
// for an upload with a live admin credential (when UploadAuth is set) that
// is small or gets a slot, else BodyLimit (an upload refused a slot holds
// none: refusedUpload).
func (s *Server) uploadBody(h *fasthttp.RequestHeader) int {
	store, ok := s.uploader(h)
	if !ok {
		return BodyLimit
	}
	if n := h.ContentLength(); n >= 0 && n <= BodyLimit {
		return UploadLimit
	}
	if !s.uploads.take(h, store, time.Now(), s.timeouts.read+s.timeouts.write) {
		return BodyLimit
	}
	return UploadLimit
}

// uploader reports whether a request may send an upload's body: a POST to
// an upload route with a live admin credential (when UploadAuth is set),
// and of which store.
func (s *Server) uploader(h *fasthttp.RequestHeader) (store uint64, ok bool) {
	if string(h.Method()) != fiber.MethodPost || !LargeBody(string(h.RequestURI())) {
		return 0, false
	}
	if s.UploadAuth == nil {
		return 0, true
	}
	return s.UploadAuth(string(h.Peek(fiber.HeaderAuthorization)), func(name string) string { return string(h.Cookie(name)) })
}

// refusedUpload answers a body too large that is an upload refused before
// its body was read, and reports whether it was one: without a live admin
// credential 401; with one, larger than BodyLimit and holding no slot, 429
// with Retry-After. The connection closes (the body is unread).
func (s *Server) refusedUpload(ctx *fasthttp.RequestCtx) bool {
	h := &ctx.Request.Header
	if string(h.Method()) != fiber.MethodPost || !LargeBody(string(h.RequestURI())) {
		return false
	}
	if _, ok := s.uploader(h); !ok {
		refuseUnread(ctx, fiber.StatusUnauthorized, app.EUnauthorized,
			"sign in before uploading: an upload needs an admin bearer token or panel session")
		return true
	}
	if n := h.ContentLength(); (n == -1 || n <= UploadLimit) && !s.uploads.holds(h) {
		refuseUnread(ctx, fiber.StatusTooManyRequests, app.ERateLimited,
			"too many uploads at once (at most "+strconv.Itoa(UploadsPerStore)+" a store): retry when one has finished")
		ctx.Response.Header.Set(fiber.HeaderRetryAfter, "5")
		return true
	}
	return false
}

// refuseUnread answers a request whose body was not read, in the error
// envelope; the connection closes.
func refuseUnread(ctx *fasthttp.RequestCtx, status int, code, msg string) {
	ctx.Response.Reset()
	ctx.SetStatusCode(status)
	ctx.SetContentType(fiber.MIMEApplicationJSONCharsetUTF8)
	ctx.Response.Header.Set(headerNosniff, "nosniff")
	ctx.Response.Header.Set(fiber.HeaderCacheControl, "no-store")
	ctx.SetConnectionClose()
	body, _ := json.Marshal(errorBody{StatusCode: status, Message: msg, ErrorCode: code})
	ctx.SetBody(body)
}
