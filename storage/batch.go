package storage

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

// maxGroup is the most writes one commit takes (bbolt's MaxBatchSize).
const maxGroup = 1000

// batcher is the group commit behind DB.Batch. bbolt's own Batch closes a
// group a fixed delay after its first write and then queues it behind the
// commit in progress, so under load the groups stay as small as the delay
// (a millisecond of arrivals) while each commit costs two fsyncs. Here a group
// is everything that arrived while the previous commit was being written: one
// committer goroutine at a time takes the whole queue, so a lone write commits
// at once and a busy server writes few, large commits.
type batcher struct {
	mu      sync.Mutex
	pending []*batchCall
	running bool // a committer goroutine is draining pending

	commits atomic.Uint64 // write transactions committed (Update and groups)
	writes  atomic.Uint64 // Batch calls the groups carried
}

type batchCall struct {
	fn  func(*Tx) error
	err chan error
}

// errTrySolo tells a caller whose function failed inside a group to run it
// alone in its own transaction (the group was rolled back and retried without it).
var errTrySolo = errors.New("storage: batch function failed; run it alone")

func (db *DB) batchRun(fn func(*Tx) error) error {
	c := &batchCall{fn: fn, err: make(chan error, 1)}
	b := &db.batch
	b.mu.Lock()
	b.pending = append(b.pending, c)
	start := !b.running
	b.running = true
	b.mu.Unlock()
	if start {
		go db.commitLoop()
	}
	err := <-c.err
	if err == errTrySolo {
		err = db.update(fn)
	}
	return err
}

// commitLoop commits the queue group by group until it is empty.
func (db *DB) commitLoop() {
	b := &db.batch
	for {
		b.mu.Lock()
		group := b.pending
		if len(group) > maxGroup {
			group, b.pending = group[:maxGroup:maxGroup], group[maxGroup:]
		} else {
			b.pending = nil
		}
		if len(group) == 0 {
			b.running = false
			b.mu.Unlock()
			return
		}
		b.mu.Unlock()
		db.commitGroup(group)
	}
}

// commitGroup runs the group's functions in one transaction, on one Tx.
// When one fails (or panics), the transaction is rolled back, that caller is
// told to run alone, and the others are run again together: functions must
// be idempotent.
func (db *DB) commitGroup(group []*batchCall) {
	for len(group) > 0 {
		failed := -1
		err := db.update(func(t *Tx) error {
			for i, c := range group {
				if err := safeCall(c.fn, t); err != nil {
					failed = i
					return err
				}
			}
			return nil
		})
		if failed >= 0 {
			group[failed].err <- errTrySolo
			group = append(group[:failed:failed], group[failed+1:]...)
			continue
		}
		if err == nil {
			db.batch.commits.Add(1)
			db.batch.writes.Add(uint64(len(group)))
		}
		for _, c := range group {
			c.err <- err
		}
		return
	}
}

func safeCall(fn func(*Tx) error, tx *Tx) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("storage: batch function panicked: %v", p)
		}
	}()
	return fn(tx)
}

// BatchStats are the group commit's counters since Open.
type BatchStats struct {
	Commits uint64 // write transactions committed, by Update or as a group
	Writes  uint64 // Batch calls carried by the groups
}

// BatchStats reads the group commit's counters.
func (db *DB) BatchStats() BatchStats {
	return BatchStats{Commits: db.batch.commits.Load(), Writes: db.batch.writes.Load()}
}
