package shop

import "testing"

// TestFieldLabel names an app error's field for a shopper: an order line
// by its number from 1, a known field by its label, any other as it is.
func TestFieldLabel(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ field, want string }{
		{"items[0].quantity", "Line 1:"},
		{"items[11]", "Line 12:"},
		{"items[x].quantity", "items[x].quantity"},
		{"items[2", "items[2"},
		{"quantity", english().T("field.quantity")},
		{"nonesuch", "nonesuch"},
	} {
		if got := fieldLabel(english(), tc.field); got != tc.want {
			t.Errorf("fieldLabel(%q) = %q, want %q", tc.field, got, tc.want)
		}
	}
}
