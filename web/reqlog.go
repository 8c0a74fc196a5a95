package web

import (
	"context"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
)

// The request line is the one log line every request writes. Through slog's
// generic path (attribute by attribute, quoting checks per rune) it cost
// GET config a fifth of its CPU and its goal (0.74 of bare Fiber against
// 0.85; docs/benchmarks.md). So when main says which writer and format its
// logger has (Config.LogWriter, LogJSON), the line is appended here: the
// bytes slog's TextHandler or JSONHandler writes for the same record
// (TestRequestLineMatchesSlog). A line with a value slog would quote or
// escape (an odd path) goes through the logger.

// reqLine is one request's log record.
type reqLine struct {
	t       time.Time
	rid     []byte
	method  string
	path    string
	status  int
	us      int64 // the duration in microseconds, written in milliseconds
	storeID uint64
	ip      string
}

var lineBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// logRequest writes the log line of the request that ended at end.
func (s *Server) logRequest(c *fiber.Ctx, cc *countingConn, rid []byte, status int, end time.Time, d time.Duration) {
	ctx := context.Background()
	if !s.log.Enabled(ctx, slog.LevelInfo) {
		return
	}
	l := reqLine{t: end, rid: rid, method: c.Method(), path: c.Path(), status: status,
		us: d.Microseconds(), storeID: storeIDOf(c), ip: s.clientIPOn(c, cc)}
	if w := s.cfg.LogWriter; w != nil && l.plain() {
		bp := lineBufs.Get().(*[]byte)
		*bp = l.append((*bp)[:0], s.cfg.LogJSON)
		_, _ = w.Write(*bp)
		lineBufs.Put(bp)
		return
	}
	s.log.Handler().Handle(ctx, l.record()) //nolint:errcheck // as Logger.Info
}

// record is the line as the slog record Logger.Info("request", ...) makes,
// minus the caller's program counter (no handler of ours writes the source).
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

// plain reports whether slog writes every string of the line as it is (not
// empty, printable ASCII but space, '"', '=' and '\') and its time as
// append does (years 0-9999).
func (l *reqLine) plain() bool {
	for _, s := range []string{l.method, l.path, l.ip} {
		if s == "" {
			return false
		}
		for i := 0; i < len(s); i++ {
			if c := s[i]; c <= ' ' || c >= 0x7f || c == '"' || c == '=' || c == '\\' {
				return false
			}
		}
	}
	y := l.t.Year()
	return len(l.rid) > 0 && y >= 0 && y < 10000
}

// append appends the line as slog's JSONHandler (json) or TextHandler
// writes it with default options; the line must be plain.
func (l *reqLine) append(b []byte, json bool) []byte {
	ms := float64(l.us) / 1000
	if json {
		b = append(b, `{"time":"`...)
		b = appendTime(b, l.t, true)
		b = append(append(b, `","level":"INFO","msg":"request","request_id":"`...), l.rid...)
		b = append(append(b, `","method":"`...), l.method...)
		b = append(append(b, `","path":"`...), l.path...)
		b = strconv.AppendInt(append(b, `","status":`...), int64(l.status), 10)
		b = strconv.AppendFloat(append(b, `,"duration_ms":`...), ms, 'f', -1, 64)
		b = strconv.AppendUint(append(b, `,"store_id":`...), l.storeID, 10)
		b = append(append(b, `,"ip":"`...), l.ip...)
		return append(b, "\"}\n"...)
	}
	b = appendTime(append(b, "time="...), l.t, false)
	b = append(append(b, " level=INFO msg=request request_id="...), l.rid...)
	b = append(append(b, " method="...), l.method...)
	b = append(append(b, " path="...), l.path...)
	b = strconv.AppendInt(append(b, " status="...), int64(l.status), 10)
	b = strconv.AppendFloat(append(b, " duration_ms="...), ms, 'g', -1, 64)
	b = strconv.AppendUint(append(b, " store_id="...), l.storeID, 10)
	b = append(append(b, " ip="...), l.ip...)
	return append(b, '\n')
}

// appendTime appends t as AppendFormat writes it with time.RFC3339Nano
// (nano) or "2006-01-02T15:04:05.000Z07:00", the layouts of slog's JSON and
// text handlers; t's year is 0-9999. AppendFormat reads its layout on every
// call: it was a third of the line's cost (docs/benchmarks.md).
func appendTime(b []byte, t time.Time, nano bool) []byte {
	y, mo, d := t.Date()
	h, mi, s := t.Clock()
	b = appendDigits(b, y, 4)
	b = appendDigits(append(b, '-'), int(mo), 2)
	b = appendDigits(append(b, '-'), d, 2)
	b = appendDigits(append(b, 'T'), h, 2)
	b = appendDigits(append(b, ':'), mi, 2)
	b = appendDigits(append(b, ':'), s, 2)
	switch ns := t.Nanosecond(); {
	case !nano:
		b = appendDigits(append(b, '.'), ns/1e6, 3)
	case ns != 0:
		b = appendDigits(append(b, '.'), ns, 9)
		for b[len(b)-1] == '0' {
			b = b[:len(b)-1]
		}
	}
	_, off := t.Zone()
	if off == 0 {
		return append(b, 'Z')
	}
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	b = appendDigits(append(b, sign), off/3600, 2)
	return appendDigits(append(b, ':'), off/60%60, 2)
}

// appendDigits appends v's last n (at most 9) decimal digits, zero-padded.
func appendDigits(b []byte, v, n int) []byte {
	b = append(b, "000000000"[:n]...)
	for i := len(b) - 1; n > 0; i, n = i-1, n-1 {
		b[i] = byte('0' + v%10)
		v /= 10
	}
	return b
}
