package asynclog

import (
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// Options tune a Writer. Zero values take the defaults.
type Options struct {
	// Interval is how long a line may wait before it is written (default 100 ms).
	Interval time.Duration
	// FlushBytes writes the queue out early once this many bytes wait (default 32 KiB).
	FlushBytes int
	// MaxBytes bounds the queue; a line that does not fit is dropped (default 4 MiB).
	MaxBytes int
	// OnDrop, when set, is called from the writer's goroutine with the lines
	// dropped since its last call, at most once per DropEvery (default 1 minute).
	OnDrop    func(dropped uint64)
	DropEvery time.Duration
}

// Writer is an asynchronous io.Writer. Safe for concurrent use. Each Write
// is kept whole: slog's handlers write one record per call, so lines never
// interleave.
type Writer struct {
	out io.Writer
	opt Options

	mu      sync.Mutex // guards buf and closed; held only for appends and swaps
	buf     []byte     // lines waiting to be written
	closed  bool
	wmu     sync.Mutex // serialises writes to out, so lines keep their order
	spare   []byte     // the buffer last written out, reused (under wmu)
	kick    chan struct{}
	stop    chan struct{}
	done    chan struct{}
	dropped atomic.Uint64

	reported uint64 // dropped count last passed to OnDrop (goroutine only)
	lastDrop time.Time
}

// New starts a Writer in front of out. Close it to write out what is left.
func New(out io.Writer, opt Options) *Writer {
	if opt.Interval <= 0 {
		opt.Interval = 100 * time.Millisecond
	}
	if opt.FlushBytes <= 0 {
		opt.FlushBytes = 32 << 10
	}
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = 4 << 20
	}
	if opt.FlushBytes > opt.MaxBytes {
		opt.FlushBytes = opt.MaxBytes
	}
	if opt.DropEvery <= 0 {
		opt.DropEvery = time.Minute
	}
	w := &Writer{out: out, opt: opt, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go w.loop()
	return w
}

// Write queues a copy of p. It never blocks on the output: when the queue is
// full (or the Writer is closed) p is dropped and counted. It always reports
// len(p) written, as a log handler has nothing better to do with an error.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	if w.closed || len(w.buf)+len(p) > w.opt.MaxBytes {
		w.mu.Unlock()
		w.dropped.Add(1)
		return len(p), nil
	}
	w.buf = append(w.buf, p...)
	full := len(w.buf) >= w.opt.FlushBytes
	w.mu.Unlock()
	if full {
		select {
		case w.kick <- struct{}{}:
		default:
		}
	}
	return len(p), nil
}

// Dropped is the number of lines dropped since New.
func (w *Writer) Dropped() uint64 { return w.dropped.Load() }

// Flush writes out everything queued so far before it returns.
func (w *Writer) Flush() { w.write() }

// Close writes out what is queued and stops the goroutine. Writes after
// Close are dropped. Close is safe to call more than once.
func (w *Writer) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		<-w.done
		return nil
	}
	w.closed = true
	w.mu.Unlock()
	close(w.stop)
	<-w.done
	return nil
}

func (w *Writer) loop() {
	defer close(w.done)
	t := time.NewTicker(w.opt.Interval)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			w.write()
			w.reportDrops(true)
			return
		case <-w.kick:
		case <-t.C:
		}
		w.write()
		w.reportDrops(false)
	}
}

// write swaps the queue for the spare buffer under mu and writes it out
// holding only wmu, so Write waits for a slice swap, never for I/O.
func (w *Writer) write() {
	w.wmu.Lock()
	defer w.wmu.Unlock()
	w.mu.Lock()
	out := w.buf
	w.buf = w.spare[:0]
	w.mu.Unlock()
	if len(out) > 0 {
		_, _ = w.out.Write(out)
	}
	w.spare = out[:0]
}

func (w *Writer) reportDrops(final bool) {
	if w.opt.OnDrop == nil {
		return
	}
	n := w.dropped.Load()
	if n == w.reported {
		return
	}
	now := time.Now()
	if !final && !w.lastDrop.IsZero() && now.Sub(w.lastDrop) < w.opt.DropEvery {
		return
	}
	w.opt.OnDrop(n - w.reported)
	w.reported, w.lastDrop = n, now
}
