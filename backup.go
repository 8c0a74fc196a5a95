package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"storefront/app/config"
	"storefront/storage"
)

// backupCmd is `storefront backup [--config FILE] FILE`: a consistent copy of
// the database, from the running server over its unix socket when there is
// one (the server holds bbolt's exclusive lock), else from the file opened
// read-only. FILE is written atomically (temporary file, fsync, rename).
func backupCmd(args []string, e env) int {
	cfg, rest, code := loadConfig("backup", args, e)
	if code != 0 {
		return code
	}
	if len(rest) != 1 {
		fmt.Fprintf(e.stderr, "storefront backup: want exactly one FILE argument\n\n%s", usage)
		return 2
	}
	if cfg.Storage.Driver == config.DriverPostgres {
		fmt.Fprintln(e.stderr, "storefront backup:", errBackupsOnPostgres.Message)
		return 1
	}
	start := time.Now()
	n, from, err := backupTo(cfg, rest[0])
	if err != nil {
		fmt.Fprintln(e.stderr, "storefront backup:", err)
		return 1
	}
	fmt.Fprintf(e.stdout, "wrote %s: %d bytes from the %s in %s\n", rest[0], n, from, time.Since(start).Round(time.Millisecond))
	return 0
}

func backupTo(cfg *config.Config, dest string) (int64, string, error) {
	if same(dest, cfg.DBPath()) {
		return 0, "", fmt.Errorf("%s is the database itself; choose another file", dest)
	}
	n, err := backupFromSocket(cfg.SocketPath(), dest)
	if err == nil {
		return n, "running server", nil
	}
	if !errors.Is(err, errNoServer) {
		return 0, "", err
	}
	if _, err := os.Stat(cfg.DBPath()); err != nil {
		return 0, "", fmt.Errorf("no database at %s (data_dir %q): %w", cfg.DBPath(), cfg.DataDir, err)
	}
	db, err := storage.Open(cfg.DBPath(), storage.Options{ReadOnly: true})
	if err != nil {
		return 0, "", fmt.Errorf("%w (a running server answers on %s; is it reachable?)", err, cfg.SocketPath())
	}
	defer db.Close()
	n, err = db.BackupToFile(dest)
	return n, "database file", err
}

// backupFromSocket streams a backup from the running server into dest. It
// returns errNoServer when no server answers on the socket.
func backupFromSocket(sock, dest string) (int64, error) {
	if _, err := os.Stat(sock); err != nil {
		return 0, errNoServer
	}
	dialer := net.Dialer{Timeout: 2 * time.Second}
	client := &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) { return dialer.DialContext(ctx, "unix", sock) },
	}}
	resp, err := client.Get("http://storefront/backup")
	if err != nil {
		var op *net.OpError
		if errors.As(err, &op) && op.Op == "dial" {
			return 0, errNoServer // a stale socket of a stopped server
		}
		return 0, fmt.Errorf("ask the server for a backup: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("the server answered %s", resp.Status)
	}
	return writeAtomic(dest, func(w io.Writer) (int64, error) {
		n, err := io.Copy(w, resp.Body)
		if err != nil {
			return n, fmt.Errorf("receive the backup: %w", err)
		}
		if want := resp.Trailer.Get("X-Backup-Size"); want != strconv.FormatInt(n, 10) {
			return n, fmt.Errorf("the backup stream was cut: got %d bytes, the server sent %q", n, want)
		}
		return n, nil
	})
}

// writeAtomic writes dest through a temporary file in the same folder that
// is fsynced and renamed over dest only when write succeeded.
func writeAtomic(dest string, write func(io.Writer) (int64, error)) (int64, error) {
	f, err := os.CreateTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".*.tmp")
	if err != nil {
		return 0, err
	}
	tmp := f.Name()
	n, err := write(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o600)
	}
	if err == nil {
		err = os.Rename(tmp, dest)
	}
	if err != nil {
		os.Remove(tmp)
		return 0, err
	}
	if d, err := os.Open(filepath.Dir(dest)); err == nil { // make the rename durable
		d.Sync()
		d.Close()
	}
	return n, nil
}

// same reports whether two paths name the same file.
func same(a, b string) bool {
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	if err1 == nil && err2 == nil {
		return os.SameFile(ia, ib)
	}
	aa, _ := filepath.Abs(a)
	ab, _ := filepath.Abs(b)
	return aa == ab
}
