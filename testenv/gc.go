package testenv

import (
	"os"
	"runtime/debug"
)

// The test processes collect garbage at GOGC 400 (unless GOGC is set): under
// the race detector the collector was a tenth of the HTTP suites' CPU, and
// memory is plenty in a test run. The binaries tests start keep their own
// setting (serve's 200).
func init() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
}
