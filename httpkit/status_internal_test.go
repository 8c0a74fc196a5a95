package httpkit

import (
	"slices"
	"testing"

	"storefront/app"
)

// The status table names only codes of app.Codes (TestStatusOfEveryCode
// checks the other way): a code dropped from app leaves no stale row.
func TestStatusTableOnlyKnownCodes(t *testing.T) {
	for code := range statusOf {
		if !slices.Contains(app.Codes, code) {
			t.Errorf("statusOf names %q, which app.Codes does not list", code)
		}
	}
	if len(statusOf) != len(app.Codes) {
		t.Errorf("statusOf has %d codes, app.Codes %d", len(statusOf), len(app.Codes))
	}
}
