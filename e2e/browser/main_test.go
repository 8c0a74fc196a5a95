package browser_test

import (
	"testing"

	"storefront/e2e/browser"
)

// TestMain shares one browser and one built binary between every test of
// the package (the catalog tests, the operations tests, ...).
func TestMain(m *testing.M) { browser.Main(m) }
