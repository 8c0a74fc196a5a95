package main

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gofiber/fiber/v2"
	bolt "go.etcd.io/bbolt"

	"storefront/bench"
)

// bareSpec is what the bare server repeats: our answers, as fetched from the binary.
type bareSpec struct {
	Config     []byte   `json:"config"`
	Items      [][]byte `json:"items"`
	Detail     []byte   `json:"detail"`
	RecordSize int      `json:"record_size"`
}

// PathBareBatch is the bare write handler.
const pathBareBatch = "/bare/batch"

// serveBare is the -bare-serve mode: the bare Fiber/bbolt baselines in their
// own process, on a free loopback port printed on stdout, until SIGTERM.
func serveBare(dir string) int {
	raw, err := os.ReadFile(filepath.Join(dir, "bare.json"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "bare:", err)
		return 1
	}
	var spec bareSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		fmt.Fprintln(os.Stderr, "bare:", err)
		return 1
	}
	docs, err := bench.OpenBare(filepath.Join(dir, "bare-read.db"), spec.Items)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bare:", err)
		return 1
	}
	defer docs.Close()
	// The write baseline: a bbolt file with the storage layer's options
	// (map freelist, 1ms batch delay, fsync on) and one Batch write per request.
	wdb, err := bolt.Open(filepath.Join(dir, "bare-write.db"), 0o600, &bolt.Options{Timeout: time.Second, FreelistType: bolt.FreelistMapType})
	if err != nil {
		fmt.Fprintln(os.Stderr, "bare:", err)
		return 1
	}
	defer wdb.Close()
	wdb.MaxBatchDelay = time.Millisecond
	var seq atomic.Uint64
	a := fiber.New(fiber.Config{DisableStartupMessage: true})
	a.Get("/readyz", func(c *fiber.Ctx) error { return c.SendString("ok") })
	a.Get(bench.PathConfig, func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
		return c.Send(spec.Config)
	})
	a.Post(pathBareBatch, func(c *fiber.Ctx) error {
		k := binary.BigEndian.AppendUint64(nil, seq.Add(1))
		v := make([]byte, spec.RecordSize)
		copy(v, c.Body())
		err := wdb.Batch(func(tx *bolt.Tx) error {
			b, err := tx.CreateBucketIfNotExists([]byte("orders"))
			if err != nil {
				return err
			}
			return b.Put(k, v)
		})
		if err != nil {
			return err
		}
		return c.JSON(fiber.Map{"status": true})
	})
	a.Get(bench.PathProducts, docs.Page)
	// The detail baseline: a point read of the exact bytes by slug.
	if err := wdb.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists([]byte("detail"))
		if err != nil {
			return err
		}
		return b.Put([]byte(bench.DetailSlug), spec.Detail)
	}); err != nil {
		fmt.Fprintln(os.Stderr, "bare:", err)
		return 1
	}
	a.Get(bench.PathProducts+"/:slug", func(c *fiber.Ctx) error {
		var out []byte
		err := wdb.View(func(tx *bolt.Tx) error {
			out = append(out, tx.Bucket([]byte("detail")).Get([]byte(c.Params("slug")))...)
			return nil
		})
		if err != nil {
			return err
		}
		if out == nil {
			return fiber.ErrNotFound
		}
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
		return c.Send(out)
	})
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "bare:", err)
		return 1
	}
	fmt.Println("http://" + ln.Addr().String())
	go func() {
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
		<-sig
		_ = a.ShutdownWithTimeout(5 * time.Second)
	}()
	if err := a.Listener(ln); err != nil {
		fmt.Fprintln(os.Stderr, "bare:", err)
		return 1
	}
	return 0
}
