package httpkit_test

import (
	"testing"

	"storefront/app"
	"storefront/httpkit"
)

// Every error code has its status: a code missing from the table would answer
// 500 (the panel's old table lacked four).
func TestStatusOfEveryCode(t *testing.T) {
	for _, code := range app.Codes {
		st := httpkit.StatusOf(code)
		if code != app.EInternal && st == 500 {
			t.Errorf("code %q: got status 500, want its own status", code)
		}
	}
	if got := httpkit.StatusOf("no_such_code"); got != 500 {
		t.Errorf("unknown code: got %d, want 500", got)
	}
}
