package app

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// takeLog is a Limiter that records its takes and answers the counts it is given.
type takeLog struct {
	counts map[string]int
	reset  time.Duration
	taken  []string
	refund []string
}

func (l *takeLog) Take(key string, _ time.Duration) (int, time.Duration, error) {
	l.taken = append(l.taken, key)
	return l.counts[key], l.reset, nil
}
func (l *takeLog) Refund(key string, _ time.Duration) error {
	l.refund = append(l.refund, key)
	return nil
}
func (l *takeLog) Count(key string, _ time.Duration) (int, error) { return l.counts[key], nil }

// TestTakeAllStopsAtFirstOver: the limits after the first one over its Max
// are not taken (a refused burst must not fill them), what was taken is
// given back, and the wait is that limit's, even a zero one.
func TestTakeAllStopsAtFirstOver(t *testing.T) {
	lims := []Limit{{Key: "a", Max: 5, Window: time.Minute}, {Key: "b", Max: 5, Window: time.Minute}, {Key: "c", Max: 5, Window: time.Minute}}
	l := &takeLog{counts: map[string]int{"a": 3, "b": 6, "c": 1}, reset: 7 * time.Second}
	err := TakeAll(l, "slow down", lims...)
	var e *Error
	if !errors.As(err, &e) || e.Code != ERateLimited {
		t.Fatalf("got %v, want rate_limited", err)
	}
	if !slices.Equal(l.taken, []string{"a", "b"}) || !slices.Equal(l.refund, []string{"a", "b"}) {
		t.Fatalf("took %v and gave back %v, want a and b both (c untouched)", l.taken, l.refund)
	}
	l = &takeLog{counts: map[string]int{"a": 6}}
	if err := TakeAll(l, "slow down", lims...); ErrorCode(err) != ERateLimited {
		t.Fatalf("over with a zero reset: got %v, want rate_limited", err)
	}
	l = &takeLog{counts: map[string]int{"a": 5, "b": 5, "c": 5}}
	if err := TakeAll(l, "slow down", lims...); err != nil || len(l.taken) != 3 || len(l.refund) != 0 {
		t.Fatalf("at the limits: got %v, took %v, gave back %v; want all taken, none given back", err, l.taken, l.refund)
	}
}
