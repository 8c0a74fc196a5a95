package web

import (
	"bytes"
	"context"
	"log/slog"
	"math"
	"strconv"
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
		time.Date(2026, 11, 23, 17, 4, 5, 987654321, time.UTC).In(plus2), // the same second elsewhere
		time.Date(2026, 11, 23, 17, 4, 6, 5000000, time.UTC).In(plus2),   // the next second
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
			got, ok := l.append([]byte("prefix "), json)
			if !bytes.HasPrefix(got, []byte("prefix ")) {
				t.Fatalf("line %d: the buffer's start was overwritten: %q", i, got)
			}
			if !ok {
				expectFast := plain(l.path) && plain(l.method) && plain(l.ip) && len(l.rid) > 0 && l.t.Year() < 10000
				if expectFast {
					t.Errorf("json=%v line %d (%+v): a plain line went through slog", json, i, l)
				}
				continue
			}
			fast++
			if got := got[len("prefix "):]; string(got) != want.String() {
				t.Errorf("json=%v line %d:\n got %q\nwant %q", json, i, got, want.String())
			}
		}
		if fast < len(lines)/2 {
			t.Errorf("json=%v: only %d of %d lines took the fast path", json, fast, len(lines))
		}
	}
}

// TestAppendMillis: the duration written by hand is strconv's, in both
// formats, for every microsecond up to a second and a spread of longer ones.
func TestAppendMillis(t *testing.T) {
	check := func(us int64) {
		for _, f := range []byte{'g', 'f'} {
			want := strconv.AppendFloat(nil, float64(us)/1000, f, -1, 64)
			if got := appendMillis([]byte("x"), us, f); string(got) != "x"+string(want) {
				t.Fatalf("appendMillis(%d, %c) = %q, want %q", us, f, got[1:], want)
			}
		}
	}
	for us := int64(-1000); us <= 1e6; us++ {
		check(us)
	}
	for us := int64(1e6); us < 1e12; us = us*3 + 7 {
		check(us)
		check(us - 1)
	}
	for _, us := range []int64{999999999, 1e9, 1e9 + 1, math.MaxInt64, math.MinInt64} {
		check(us)
	}
}

// TestAppendStatus: the status written by hand is strconv's.
func TestAppendStatus(t *testing.T) {
	for _, st := range []int{0, 7, 99, 100, 200, 404, 999, 1000, -1} {
		if got, want := appendStatus(nil, st), strconv.AppendInt(nil, int64(st), 10); string(got) != string(want) {
			t.Fatalf("appendStatus(%d) = %q, want %q", st, got, want)
		}
	}
}

// TestAppendBase36: the request id's counter is written as strconv writes it.
func TestAppendBase36(t *testing.T) {
	check := func(n uint64) {
		if got, want := appendBase36([]byte("x"), n), strconv.AppendUint([]byte("x"), n, 36); string(got) != string(want) {
			t.Fatalf("appendBase36(%d) = %q, want %q", n, got, want)
		}
	}
	for n := uint64(0); n < 100000; n++ {
		check(n)
	}
	for n := uint64(100000); n < math.MaxUint64/37; n = n*37 + 11 {
		check(n)
		check(n - 1)
	}
	check(math.MaxUint64)
}
