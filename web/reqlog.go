package web

import (
	"context"
	"log/slog"
	"math"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
)

// The request log line is the one log line every request writes, so it has
// a fast path: when main says which writer and format its logger has
// (Config.LogWriter, Config.LogJSON), the line is appended by hand, byte
// for byte what slog's TextHandler or JSONHandler would write for the same
// record (TestRequestLineMatchesSlog), and handed to the writer. Through
// slog, formatting took more CPU than the rest of a GET config (attribute
// by attribute, with quoting checks per rune). A value the fast path would
// have to quote or escape (an odd path) sends the line through the logger.

// reqLine is one request's log record.
type reqLine struct {
	t       time.Time
	rid     []byte
	method  string
	path    string
	status  int
	ms      float64
	storeID uint64
	ip      string
}

var lineBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// logRequest writes the request's log line.
func (s *Server) logRequest(c *fiber.Ctx, rid []byte, status int, d time.Duration, now time.Time) {
	ctx := context.Background() // as Logger.Info passes
	if !s.log.Enabled(ctx, slog.LevelInfo) {
		return
	}
	l := reqLine{t: now, rid: rid, method: c.Method(), path: c.Path(), status: status,
		ms: float64(d.Microseconds()) / 1000, storeID: storeIDOf(c), ip: s.clientIP(c)}
	if w := s.cfg.LogWriter; w != nil {
		bp := lineBufs.Get().(*[]byte)
		b, ok := l.append((*bp)[:0], s.cfg.LogJSON)
		if ok {
			_, _ = w.Write(b)
		}
		if cap(b) <= 4<<10 {
			*bp = b[:0]
			lineBufs.Put(bp)
		}
		if ok {
			return
		}
	}
	s.log.Handler().Handle(ctx, l.record()) //nolint:errcheck // as Logger.Info
}

// record is the line as an slog record: what Logger.Info("request", ...)
// hands its handler, minus the caller's program counter (no handler of ours
// adds the source).
func (l *reqLine) record() slog.Record {
	r := slog.NewRecord(l.t, slog.LevelInfo, "request", 0)
	r.AddAttrs(
		slog.String("request_id", string(l.rid)),
		slog.String("method", l.method),
		slog.String("path", l.path),
		slog.Int("status", l.status),
		slog.Float64("duration_ms", l.ms),
		slog.Uint64("store_id", l.storeID),
		slog.String("ip", l.ip),
	)
	return r
}

// append appends the line as slog's JSONHandler (json) or TextHandler
// writes it with default options. It reports false, and the line must go
// through slog, when a value is not plain: a string that is empty or holds a
// byte outside printable ASCII, a space, a quote, '=' or a backslash (slog
// would quote or escape it), a time outside the years 0-9999, or a duration
// that JSON would write with an exponent.
func (l *reqLine) append(b []byte, json bool) ([]byte, bool) {
	if !plain(l.rid) || !plain(l.method) || !plain(l.path) || !plain(l.ip) {
		return b, false
	}
	t := l.t.Round(0) // as slog: no monotonic reading
	if y := t.Year(); y < 0 || y >= 10000 {
		return b, false
	}
	if json && l.ms != 0 && (math.Abs(l.ms) < 1e-6 || math.Abs(l.ms) >= 1e21 || math.IsNaN(l.ms)) {
		return b, false
	}
	if json {
		b = append(b, `{"time":"`...)
		b = t.AppendFormat(b, time.RFC3339Nano)
		b = append(b, `","level":"INFO","msg":"request","request_id":"`...)
		b = append(b, l.rid...)
		b = append(b, `","method":"`...)
		b = append(b, l.method...)
		b = append(b, `","path":"`...)
		b = append(b, l.path...)
		b = append(b, `","status":`...)
		b = strconv.AppendInt(b, int64(l.status), 10)
		b = append(b, `,"duration_ms":`...)
		b = strconv.AppendFloat(b, l.ms, 'f', -1, 64)
		b = append(b, `,"store_id":`...)
		b = strconv.AppendUint(b, l.storeID, 10)
		b = append(b, `,"ip":"`...)
		b = append(b, l.ip...)
		return append(b, "\"}\n"...), true
	}
	b = append(b, "time="...)
	b = appendRFC3339Millis(b, t)
	b = append(b, " level=INFO msg=request request_id="...)
	b = append(b, l.rid...)
	b = append(b, " method="...)
	b = append(b, l.method...)
	b = append(b, " path="...)
	b = append(b, l.path...)
	b = append(b, " status="...)
	b = strconv.AppendInt(b, int64(l.status), 10)
	b = append(b, " duration_ms="...)
	b = strconv.AppendFloat(b, l.ms, 'g', -1, 64)
	b = append(b, " store_id="...)
	b = strconv.AppendUint(b, l.storeID, 10)
	b = append(b, " ip="...)
	b = append(b, l.ip...)
	return append(b, '\n'), true
}

// plain reports whether s is written as it is by both slog handlers: not
// empty, printable ASCII without space, '"', '=' or '\'.
func plain[T string | []byte](s T) bool {
	if len(s) == 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7f || c == '"' || c == '=' || c == '\\' {
			return false
		}
	}
	return true
}

// appendRFC3339Millis is slog's text time format (log/slog's function of
// the same name): RFC 3339 with exactly three digits of milliseconds. The
// date, time of day and zone of the current second are formatted once and
// shared by the lines of that second (lastStamp).
func appendRFC3339Millis(b []byte, t time.Time) []byte {
	sec, loc := t.Unix(), t.Location()
	st := lastStamp.Load()
	if st == nil || st.sec != sec || st.loc != loc {
		st = newStamp(t, sec, loc)
		lastStamp.Store(st)
	}
	b = append(b, st.clock...)
	ms := t.Nanosecond() / 1e6 // slog truncates to the millisecond
	b = append(b, '.', byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10))
	return append(b, st.zone...)
}

// stamp is one second in one location as slog's text time writes it, split
// around the milliseconds: "2006-01-02T15:04:05" and "Z" or "-07:00".
type stamp struct {
	sec   int64
	loc   *time.Location
	clock []byte
	zone  []byte
}

var lastStamp atomic.Pointer[stamp]

// newStamp formats t's second (years 0-9999: the clock is 19 bytes).
func newStamp(t time.Time, sec int64, loc *time.Location) *stamp {
	f := t.Truncate(time.Second).AppendFormat(nil, time.RFC3339)
	return &stamp{sec: sec, loc: loc, clock: f[:19:19], zone: f[19:]}
}
