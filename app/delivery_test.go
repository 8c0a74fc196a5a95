package app

import (
	"encoding/json"
	"testing"
)

// TestDeliveryFee: the fee sent against the options offered (today's rule
// without delivery_option), the option named (its rule: free_over at, below
// and above the threshold; countries), and the errors.
func TestDeliveryFee(t *testing.T) {
	free := Money(5000)
	opts := []DeliveryOption{
		{ID: "std", Name: "Standard", Fee: 500, FreeOver: &free, NeedsAddress: true},
		{ID: "exp", Name: "Express", Fee: 1500, Countries: []string{"US"}, NeedsAddress: true},
		{ID: "pickup", Name: "Pickup", Fee: 0, NeedsAddress: false},
	}
	for _, c := range []struct {
		name            string
		options         []DeliveryOption
		choice          DeliveryChoice
		net             Money
		fee             Money
		offered, chosen string
		errField        string
	}{
		{"no options, none sent", nil, DeliveryChoice{}, 100, 0, "", "", ""},
		{"no options, 0 sent", nil, DeliveryChoice{Sent: money(0)}, 100, 0, "", "", ""},
		{"no options, a fee sent", nil, DeliveryChoice{Sent: money(300)}, 100, 300, "0.00", "", ""},
		{"omitted: the first option", opts, DeliveryChoice{}, 100, 500, "", "std", ""},
		{"omitted, over free_over: the first option free", opts, DeliveryChoice{}, 6000, 0, "", "std", ""},
		{"second option sent", opts, DeliveryChoice{Sent: money(1500)}, 100, 1500, "", "exp", ""},
		{"a fee not offered", opts, DeliveryChoice{Sent: money(100)}, 100, 100, "5.00, 15.00, 0.00", "", ""},
		{"0 sent: the pickup's", opts, DeliveryChoice{Sent: money(0)}, 100, 0, "", "pickup", ""},
		{"country: express not offered", opts, DeliveryChoice{Sent: money(1500), Country: "DE"}, 100, 1500, "5.00, 0.00", "", ""},
		{"named, below free_over", opts, DeliveryChoice{Option: "std"}, 4999, 500, "", "std", ""},
		{"named, at free_over", opts, DeliveryChoice{Option: "std"}, 5000, 0, "", "std", ""},
		{"named, above free_over", opts, DeliveryChoice{Option: "std", Sent: money(0)}, 5001, 0, "", "std", ""},
		{"named, the fee before the threshold sent", opts, DeliveryChoice{Option: "std", Sent: money(500)}, 5000, 500, "0.00", "std", ""},
		{"named, in its country", opts, DeliveryChoice{Option: "exp", Country: "US"}, 100, 1500, "", "exp", ""},
		{"ErrNamedOutsideItsCountries", opts, DeliveryChoice{Option: "exp", Country: "DE"}, 100, 0, "", "", "delivery_option"},
		{"ErrUnknownOption", opts, DeliveryChoice{Option: "drone"}, 100, 0, "", "", "delivery_option"},
		{"ErrNoOptionInCountry", opts[1:2], DeliveryChoice{Country: "DE"}, 100, 0, "", "", "delivery_option"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fee, offered, chosen, err := DeliveryFee(c.options, c.choice, c.net)
			if c.errField != "" {
				if e, ok := err.(*Error); !ok || e.Code != EValidation || e.Fields[c.errField] == "" {
					t.Fatalf("got %v, want validation_failed on %s", err, c.errField)
				}
				return
			}
			id := ""
			if chosen != nil {
				id = chosen.ID
			}
			if err != nil || fee != c.fee || offered != c.offered || id != c.chosen {
				t.Fatalf("got %s %q %q %v, want %s %q %q", fee, offered, id, err, c.fee, c.offered, c.chosen)
			}
		})
	}
}

// TestDeliveryOptionDecode: needs_address defaults to true; countries are
// checked and upper-cased.
func TestDeliveryOptionDecode(t *testing.T) {
	var opts []DeliveryOption
	if err := json.Unmarshal([]byte(`[{"id":"a","fee":"1.00"},{"id":"b","fee":"0","needs_address":false,"countries":["us"," de "],"free_over":"50.00"}]`), &opts); err != nil {
		t.Fatal(err)
	}
	if err := checkDeliveryOptions(opts); err != nil {
		t.Fatal(err)
	}
	if !opts[0].NeedsAddress || opts[1].NeedsAddress || opts[1].Countries[1] != "DE" || *opts[1].FreeOver != 5000 || opts[0].Countries == nil {
		t.Fatalf("%+v", opts)
	}
	for _, bad := range []DeliveryOption{{ID: "x", Countries: []string{"USA"}}, {ID: "x", FreeOver: money(-1)}, {ID: " "}} {
		if err := checkDeliveryOptions([]DeliveryOption{bad}); ErrorCode(err) != EValidation {
			t.Errorf("%+v: %v", bad, err)
		}
	}
}

// TestDeliveryFreeIn: how much more buys free delivery, below, at and above
// free_over, and for options that are free already or never will be.
func TestDeliveryFreeIn(t *testing.T) {
	free := Money(5000)
	std := DeliveryOption{ID: "std", Fee: 500, FreeOver: &free}
	flat := DeliveryOption{ID: "flat", Fee: 500}
	pickup := DeliveryOption{ID: "pickup", Fee: 0, FreeOver: &free}
	for _, tc := range []struct {
		name string
		o    DeliveryOption
		net  Money
		want Money
	}{
		{"Below", std, 4999, 1}, {"Far below", std, 0, 5000}, {"At", std, 5000, 0}, {"Above", std, 9000, 0},
		{"NoFreeOver", flat, 100, 0}, {"FreeAlready", pickup, 100, 0},
	} {
		if got := tc.o.FreeIn(tc.net); got != tc.want {
			t.Errorf("%s: FreeIn(%d) = %d, want %d", tc.name, tc.net, got, tc.want)
		}
		if fee := tc.o.FeeFor(tc.net + tc.o.FreeIn(tc.net)); tc.o.FreeOver != nil && fee != 0 {
			t.Errorf("%s: the fee after FreeIn more is %d, want 0", tc.name, fee)
		}
	}
}
