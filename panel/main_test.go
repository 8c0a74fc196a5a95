package panel_test

import (
	"os"
	"testing"

	"storefront/storage/postgres/pgtest"
)

// TestMain lends the PostgreSQL variants a pool of databases (pgtest.Main).
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
