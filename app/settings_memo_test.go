package app

import (
	"encoding/json"
	"testing"
)

// TestSettingsOfFollowsStore guards the memo of OrderService.settingsOf,
// keyed by the *Store pointer SharedStore returns: the same pointer is the
// same settings, a new pointer (a changed store) is decoded again.
func TestSettingsOfFollowsStore(t *testing.T) {
	var os OrderService
	st := &Store{ID: 1, Config: json.RawMessage(`{"email_otp_enabled":true}`)}
	if !os.settingsOf(st).EmailOTPEnabled {
		t.Fatal("first read")
	}
	st.Config = json.RawMessage(`{}`) // never done to a shared store: shows the memo is used
	if !os.settingsOf(st).EmailOTPEnabled {
		t.Fatal("the same pointer was decoded again")
	}
	changed := &Store{ID: 1, Config: json.RawMessage(`{}`)}
	if os.settingsOf(changed).EmailOTPEnabled {
		t.Fatal("a changed store (new pointer) kept the old settings")
	}
}
