package web

import (
	"context"
	"log/slog"
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
	us      int64 // the duration in whole microseconds, written in milliseconds
	storeID uint64
	ip      string
}

var lineBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// logRequest writes the request's log line. cc, when not nil, is the
// request's connection, whose line buffer is used (its requests are served
// one at a time) instead of one from the pool.
func (s *Server) logRequest(c *fiber.Ctx, cc *countingConn, rid []byte, status int, d time.Duration, now time.Time) {
	ctx := context.Background() // as Logger.Info passes
	if !s.log.Enabled(ctx, slog.LevelInfo) {
		return
	}
	l := reqLine{t: now, rid: rid, method: c.Method(), path: c.Path(), status: status,
		us: d.Microseconds(), storeID: storeIDOf(c), ip: s.clientIPOn(c, cc)}
	if w := s.cfg.LogWriter; w != nil {
		var bp *[]byte
		if cc != nil {
			bp = &cc.line
		} else {
			bp = lineBufs.Get().(*[]byte)
		}
		b, ok := l.append((*bp)[:0], s.cfg.LogJSON)
		if ok {
			_, _ = w.Write(b)
		}
		if cap(b) > 4<<10 {
			b = nil // an odd long line's buffer is not kept
		}
		*bp = b[:0]
		if cc == nil && b != nil {
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
		slog.Float64("duration_ms", float64(l.us)/1000),
		slog.Uint64("store_id", l.storeID),
		slog.String("ip", l.ip),
	)
	return r
}

// append appends the line as slog's JSONHandler (json) or TextHandler
// writes it with default options. It reports false, and the line must go
// through slog, when a value is not plain: a string that is empty or holds a
// byte outside printable ASCII, a space, a quote, '=' or a backslash (slog
// would quote or escape it), or a time outside the years 0-9999. The
// request id is not checked: requestLog makes it of hex digits, '-' and
// base-36 digits.
func (l *reqLine) append(b []byte, json bool) ([]byte, bool) {
	if len(l.rid) == 0 || !plain(l.method) || !plain(l.path) || !plain(l.ip) {
		return b, false
	}
	t := l.t.Round(0) // as slog: no monotonic reading
	if y := t.Year(); y < 0 || y >= 10000 {
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
		b = appendStatus(b, l.status)
		b = append(b, `,"duration_ms":`...)
		b = appendMillis(b, l.us, 'f')
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
	b = appendStatus(b, l.status)
	b = append(b, " duration_ms="...)
	b = appendMillis(b, l.us, 'g')
	b = append(b, " store_id="...)
	b = strconv.AppendUint(b, l.storeID, 10)
	b = append(b, " ip="...)
	b = append(b, l.ip...)
	return append(b, '\n'), true
}

// plainByte holds the bytes both slog handlers write as they are in a
// value: printable ASCII but space, '"', '=' and '\'.
var plainByte = func() (t [256]bool) {
	for c := '!'; c < 0x7f; c++ {
		t[c] = c != '"' && c != '=' && c != '\\'
	}
	return t
}()

// plain reports whether s is written as it is by both slog handlers: not
// empty, and every byte a plainByte.
func plain[T string | []byte](s T) bool {
	if len(s) == 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !plainByte[s[i]] {
			return false
		}
	}
	return true
}

// appendStatus appends an HTTP status as strconv.AppendInt does, three
// digits by hand.
func appendStatus(b []byte, st int) []byte {
	if st < 100 || st > 999 {
		return strconv.AppendInt(b, int64(st), 10)
	}
	return append(b, byte('0'+st/100), byte('0'+st/10%10), byte('0'+st%10))
}

// appendMillis appends us microseconds in milliseconds as
// strconv.AppendFloat(b, float64(us)/1000, format, -1, 64) does. Below
// 1,000 seconds both formats write the decimal digits of us/1000 without
// trailing zeros (a decimal of at most 15 significant digits is the shortest
// that reads back as its nearest float64), which is done by hand here; 'g'
// turns to an exponent from 1e6 ms on, which is left to strconv.
func appendMillis(b []byte, us int64, format byte) []byte {
	if us < 0 || us >= 1e9 {
		return strconv.AppendFloat(b, float64(us)/1000, format, -1, 64)
	}
	b = strconv.AppendInt(b, us/1000, 10)
	frac := us % 1000
	if frac == 0 {
		return b
	}
	b = append(b, '.', byte('0'+frac/100))
	if frac %= 100; frac != 0 {
		b = append(b, byte('0'+frac/10))
		if frac %= 10; frac != 0 {
			b = append(b, byte('0'+frac))
		}
	}
	return b
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
