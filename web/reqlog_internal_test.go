package web

import (
	"bytes"
	"context"
	"log/slog"
	"math"
	"testing"
	"time"
)

// TestRequestLineMatchesSlog checks the request log's fast path against
// slog's own handlers: whenever it writes a line, the line is byte for byte
// what TextHandler or JSONHandler writes for the same record; and it writes
// the ordinary lines itself (values it would have to quote go through slog).
func TestRequestLineMatchesSlog(t *testing.T) {
	plus2 := time.FixedZone("", 2*3600+30*60)
	times := []time.Time{
		time.Date(2026, 11, 23, 17, 4, 5, 0, time.UTC),
		time.Date(2026, 11, 23, 17, 4, 5, 123456789, time.UTC),
		time.Date(2026, 11, 23, 17, 4, 5, 987654321, time.UTC).In(plus2),
		time.Date(2026, 1, 2, 3, 4, 5, 999999999, plus2),
		time.Date(2026, 1, 2, 3, 4, 5, 1000000, time.Local),
		time.Now(), // with a monotonic reading
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
	}
	base := reqLine{rid: []byte("1a2b3c4d-2s"), method: "GET", path: "/api/v1/business/website/config",
		status: 200, us: 123, storeID: 1, ip: "127.0.0.1"}
	var lines []reqLine
	for _, tm := range times {
		l := base
		l.t = tm
		lines = append(lines, l)
	}
	edit := func(f func(*reqLine)) {
		l := base
		l.t = times[1]
		f(&l)
		lines = append(lines, l)
	}
	for _, p := range []string{"/", "/a b", `/a"b`, "/a=b", `/a\b`, "/caf\u00e9", "/a\tb", "/a\x7fb", "/a\xffb", "", "/<x>&y?", "/%20"} {
		edit(func(l *reqLine) { l.path = p })
	}
	for _, m := range []string{"POST", "OPTIONS", "", "GE T"} {
		edit(func(l *reqLine) { l.method = m })
	}
	for _, us := range []int64{0, 1, 10, 100, 105, 1000, 1500, 1234567, 999999999, 1e9, 123456789012, -5, math.MaxInt64, math.MinInt64} {
		edit(func(l *reqLine) { l.us = us })
	}
	for _, ip := range []string{"::1", "2001:db8::1", "0.0.0.0", ""} {
		edit(func(l *reqLine) { l.ip = ip })
	}
	edit(func(l *reqLine) { l.storeID, l.status = math.MaxUint64, 500 })
	edit(func(l *reqLine) { l.storeID, l.status = 0, 404 })
	edit(func(l *reqLine) { l.rid = nil })

	for _, json := range []bool{false, true} {
		fast := 0
		for i, l := range lines {
			var want bytes.Buffer
			var h slog.Handler = slog.NewTextHandler(&want, nil)
			if json {
				h = slog.NewJSONHandler(&want, nil)
			}
			if err := h.Handle(context.Background(), l.record()); err != nil {
				continue // slog cannot write it either (a year past 9999 in JSON)
			}
			if !l.plain() {
				continue
			}
			fast++
			got := l.append([]byte("prefix "), json)
			if !bytes.HasPrefix(got, []byte("prefix ")) {
				t.Fatalf("line %d: the buffer's start was overwritten: %q", i, got)
			}
			if got := got[len("prefix "):]; string(got) != want.String() {
				t.Errorf("json=%v line %d:\n got %q\nwant %q", json, i, got, want.String())
			}
		}
		if fast < len(lines)/2 {
			t.Errorf("json=%v: only %d of %d lines took the fast path", json, fast, len(lines))
		}
	}
}

// TestAppendTime: the request line's time is what AppendFormat writes with
// slog's two layouts, for instants across the years 0-9999, every kind of
// fraction and zones east and west (one with an offset in seconds).
func TestAppendTime(t *testing.T) {
	zones := []*time.Location{time.UTC, time.FixedZone("", 5*3600+30*60), time.FixedZone("", -3*3600),
		time.FixedZone("", -(9*3600 + 30*60)), time.FixedZone("LMT", 3600+45), time.Local}
	fracs := []int{0, 1, 10, 1000000, 120000000, 123456789, 999999999, 500}
	for i := range 2000 {
		sec := int64(i)*4_999_999_937 - 62_135_596_800 // from year 1 on, about 158 years apart
		tm := time.Unix(sec%253_402_300_799, int64(fracs[i%len(fracs)])).In(zones[i%len(zones)])
		if y := tm.Year(); y < 0 || y > 9999 {
			continue
		}
		for _, layout := range []struct {
			nano bool
			s    string
		}{{false, "2006-01-02T15:04:05.000Z07:00"}, {true, time.RFC3339Nano}} {
			got, want := appendTime(nil, tm, layout.nano), tm.AppendFormat(nil, layout.s)
			if !bytes.Equal(got, want) {
				t.Fatalf("%v (nano %v): got %s, want %s", tm, layout.nano, got, want)
			}
		}
	}
}
