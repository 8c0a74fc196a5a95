package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The storefront binary, built once per test process for the tests that
// run it as a user does (main's, e2e's and the browser tests).
var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// EnvBinary names a storefront binary built beforehand (make test builds
// one for all its parts): Binary then returns it instead of building.
const EnvBinary = "STOREFRONT_TEST_BINARY"

// Binary builds the storefront binary once per test process (from the
// module root, wherever the test runs) and returns its path, or returns
// $STOREFRONT_TEST_BINARY when set. Call RemoveBinary from the package's
// TestMain after m.Run.
func Binary(t testing.TB) string {
	t.Helper()
	built.once.Do(func() {
		if bin := os.Getenv(EnvBinary); bin != "" {
			if _, err := os.Stat(bin); err != nil {
				built.err = fmt.Errorf("testenv: %s: %v", EnvBinary, err)
			}
			built.bin = bin
			return
		}
		out, err := exec.Command("go", "env", "GOMOD").Output()
		mod := strings.TrimSpace(string(out))
		if err != nil || mod == "" || mod == os.DevNull {
			built.err = fmt.Errorf("testenv: not inside the storefront module (go env GOMOD: %v)", err)
			return
		}
		if built.dir, err = os.MkdirTemp("", "storefront-bin-"); err != nil {
			built.err = err
			return
		}
		bin := filepath.Join(built.dir, "storefront")
		// As make build and the release archives build it (CGO off,
		// -trimpath): one build configuration for every binary of make
		// test, whichever part asks.
		cmd := exec.Command("go", "build", "-trimpath", "-o", bin, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		cmd.Dir = filepath.Dir(mod)
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		built.bin = bin
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// RemoveBinary deletes the binary Binary built, if any.
func RemoveBinary() {
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
}
