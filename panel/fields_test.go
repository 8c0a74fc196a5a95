package panel

import "testing"

func TestFieldLabel(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"variants[1].attributes":     "Variant row 2, attributes",
		"items[0].quantity":          "Line 1, quantity",
		"allowed_origins[0]":         "Allowed origin 1",
		"notification_emails[2]":     "Notification email 3",
		"config.delivery_options[1]": "config, Delivery option 2",
		"widgets[4].unit_price":      "Widget 5, unit price",
		"name":                       "name",
		"methods.card.secret_key":    "methods.card.secret_key",
	} {
		if got := fieldLabel(in); got != want {
			t.Errorf("fieldLabel(%q) = %q, want %q", in, got, want)
		}
	}
}
