package app

import (
	"encoding/json"
	"strings"
)

// DeliveryOption is one way of delivering an order: its fee, the order
// subtotal (after discounts) from which it is free, the countries it is
// offered in, and whether it needs an address (a pickup does not).
type DeliveryOption struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Fee  Money  `json:"fee"`
	// FreeOver: the fee is 0 when the subtotal after discounts reaches it
	// (nil: never).
	FreeOver *Money `json:"free_over"`
	// Countries are the ISO 3166-1 alpha-2 codes (upper-case) it is offered
	// in; empty: everywhere.
	Countries []string `json:"countries"`
	// NeedsAddress is false for a pickup: checkout then takes no address.
	// An option saved without it needs one.
	NeedsAddress bool `json:"needs_address"`
}

// UnmarshalJSON decodes an option; needs_address defaults to true.
func (o *DeliveryOption) UnmarshalJSON(b []byte) error {
	type plain DeliveryOption
	p := plain{NeedsAddress: true}
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*o = DeliveryOption(p)
	return nil
}

// MarshalJSON encodes an option with its rules only when set: no
// free_over, no countries (everywhere) and needs_address true are left
// out, so that an option without rules keeps the form it always had.
func (o DeliveryOption) MarshalJSON() ([]byte, error) {
	type stored struct {
		ID           string   `json:"id"`
		Name         string   `json:"name"`
		Fee          Money    `json:"fee"`
		FreeOver     *Money   `json:"free_over,omitempty"`
		Countries    []string `json:"countries,omitempty"`
		NeedsAddress *bool    `json:"needs_address,omitempty"`
	}
	s := stored{ID: o.ID, Name: o.Name, Fee: o.Fee, FreeOver: o.FreeOver, Countries: o.Countries}
	if !o.NeedsAddress {
		s.NeedsAddress = &o.NeedsAddress
	}
	return json.Marshal(s)
}

// FeeFor is the option's fee for an order whose subtotal after discounts is net.
func (o *DeliveryOption) FeeFor(net Money) Money {
	if o.FreeOver != nil && net >= *o.FreeOver {
		return 0
	}
	return o.Fee
}

// FreeIn is how much more the subtotal after discounts net must reach for
// the option to be free (0: it is free already, or never will be).
func (o *DeliveryOption) FreeIn(net Money) Money {
	if o.FreeOver == nil || o.FeeFor(net) == 0 {
		return 0
	}
	return *o.FreeOver - net
}

// Serves reports whether the option is offered in country ("" : the
// order names none, and every option is offered).
func (o *DeliveryOption) Serves(country string) bool {
	if country == "" || len(o.Countries) == 0 {
		return true
	}
	for _, c := range o.Countries {
		if c == country {
			return true
		}
	}
	return false
}

// ValidCountry reports whether s is an ISO 3166-1 alpha-2 code as stored:
// two letters A-Z.
func ValidCountry(s string) bool { return CountryRE.MatchString(s) }

// NormalizeCountry is a country code as sent, trimmed and upper-cased.
func NormalizeCountry(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }

// checkDeliveryOptions checks the options of a config patch and
// normalizes their countries (never null).
func checkDeliveryOptions(opts []DeliveryOption) error {
	seen := map[string]bool{}
	for i := range opts {
		o := &opts[i]
		if strings.TrimSpace(o.ID) == "" || o.Fee < 0 || seen[o.ID] {
			return Invalid("delivery_options", "each option needs a unique id and a fee of at least 0")
		}
		seen[o.ID] = true
		if o.FreeOver != nil && *o.FreeOver < 0 {
			return Invalid("delivery_options", "free_over of "+o.ID+" must be at least 0")
		}
		countries := make([]string, 0, len(o.Countries))
		for _, c := range o.Countries {
			if c = NormalizeCountry(c); !ValidCountry(c) {
				return Invalid("delivery_options", "countries of "+o.ID+" must be ISO 3166-1 alpha-2 codes such as \"US\"")
			}
			countries = append(countries, c)
		}
		o.Countries = countries
	}
	return nil
}

// DeliveryChoice is what an order says of its delivery: the option chosen
// (its id; "" when none was named and no option is offered), the country,
// and the fee sent (nil: not sent).
type DeliveryChoice struct {
	Option  string
	Country string
	Sent    *Money
}

// DeliveryFee is the fee of an order whose subtotal after discounts is net.
// With an option named, its rule applies (unknown, or not offered in the
// country: validation_failed on delivery_option), and the fee sent must be
// that fee. Without, the fee sent must be one an option offered in the
// country charges for this order; omitted: the first one's. With no option
// offered at all, only 0. When the fee sent is not right, offered lists the
// right ones for a price_changed answer ("" when the fee is fine). chosen is
// the option named, or else the first offered charging the fee (nil: none).
func DeliveryFee(options []DeliveryOption, c DeliveryChoice, net Money) (fee Money, offered string, chosen *DeliveryOption, err error) {
	if c.Option != "" {
		return namedDeliveryFee(options, c, net)
	}
	fees := make([]string, 0, len(options))
	served := false
	for i := range options {
		o := &options[i]
		if !o.Serves(c.Country) {
			continue
		}
		f := o.FeeFor(net)
		fees = append(fees, f.String())
		if chosen == nil && (c.Sent == nil || *c.Sent == f) {
			chosen = o
		}
		served = true
	}
	if !served && len(options) > 0 {
		return 0, "", nil, Invalid("delivery_option", "no delivery option is offered in "+c.Country)
	}
	switch {
	case chosen != nil:
		return chosen.FeeFor(net), "", chosen, nil
	case c.Sent == nil || (len(options) == 0 && *c.Sent == 0):
		return 0, "", nil, nil
	case len(fees) == 0:
		fees = append(fees, Money(0).String())
	}
	return *c.Sent, strings.Join(fees, ", "), nil, nil
}

func namedDeliveryFee(options []DeliveryOption, c DeliveryChoice, net Money) (Money, string, *DeliveryOption, error) {
	for i := range options {
		o := &options[i]
		if o.ID != c.Option {
			continue
		}
		if !o.Serves(c.Country) {
			return 0, "", nil, Invalid("delivery_option", o.Name+" is not offered in "+c.Country)
		}
		fee := o.FeeFor(net)
		if c.Sent != nil && *c.Sent != fee {
			return *c.Sent, fee.String(), o, nil
		}
		return fee, "", o, nil
	}
	return 0, "", nil, Invalid("delivery_option", "unknown delivery option")
}
