package app

import (
	"sort"
	"strings"
	"time"
)

// Address labels (decisions.md §4).
const (
	LabelHome  = "HOME"
	LabelWork  = "WORK"
	LabelOther = "OTHER"
)

// Address is a saved delivery address of one customer. ID is a uuid (v4, lower case).
type Address struct {
	ID           string `json:"id"`
	StoreID      uint64 `json:"store_id"`
	CustomerID   uint64 `json:"customer_id"`
	Label        string `json:"label"`
	ReceiverName string `json:"receiver_name"`
	Phone        string `json:"phone"`
	AddressLine1 string `json:"address_line1"`
	AddressLine2 string `json:"address_line2"`
	City         string `json:"city"`
	Area         string `json:"area"`
	PostalCode   string `json:"postal_code"`
	// Country (ISO 3166-1 alpha-2): the store's when none was sent.
	Country   string    `json:"country,omitempty"`
	IsDefault bool      `json:"is_default"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// AddressView is an address on the wire.
type AddressView struct {
	ID           string    `json:"id"`
	Label        string    `json:"label"`
	ReceiverName string    `json:"receiver_name"`
	Phone        string    `json:"phone"`
	AddressLine1 string    `json:"address_line1"`
	AddressLine2 string    `json:"address_line2"`
	City         string    `json:"city"`
	Area         string    `json:"area"`
	PostalCode   string    `json:"postal_code"`
	Country      string    `json:"country"`
	IsDefault    bool      `json:"is_default"`
	CreatedAt    time.Time `json:"created_at"`
	UpdatedAt    time.Time `json:"updated_at"`
}

// View returns the wire form of a.
func (a *Address) View() AddressView {
	return AddressView{ID: a.ID, Label: a.Label, ReceiverName: a.ReceiverName, Phone: a.Phone,
		AddressLine1: a.AddressLine1, AddressLine2: a.AddressLine2, City: a.City, Area: a.Area,
		PostalCode: a.PostalCode, Country: a.Country, IsDefault: a.IsDefault, CreatedAt: UTC(a.CreatedAt), UpdatedAt: UTC(a.UpdatedAt)}
}

// AddressInput is the body of create (every field) and update (only the
// fields sent, nil for the others).
type AddressInput struct {
	Label        *string `json:"label"`
	ReceiverName *string `json:"receiver_name"`
	Phone        *string `json:"phone"`
	AddressLine1 *string `json:"address_line1"`
	AddressLine2 *string `json:"address_line2"`
	City         *string `json:"city"`
	Area         *string `json:"area"`
	PostalCode   *string `json:"postal_code"`
	Country      *string `json:"country"`
	IsDefault    *bool   `json:"is_default"`
}

// apply copies the fields sent onto a, trimmed; the label is upper-cased.
func (in AddressInput) apply(a *Address) {
	set := func(dst *string, src *string) {
		if src != nil {
			*dst = strings.TrimSpace(*src)
		}
	}
	if in.Label != nil {
		a.Label = strings.ToUpper(strings.TrimSpace(*in.Label))
	}
	set(&a.ReceiverName, in.ReceiverName)
	set(&a.Phone, in.Phone)
	set(&a.AddressLine1, in.AddressLine1)
	set(&a.AddressLine2, in.AddressLine2)
	set(&a.City, in.City)
	set(&a.Area, in.Area)
	set(&a.PostalCode, in.PostalCode)
	set(&a.Country, in.Country)
	if in.IsDefault != nil {
		a.IsDefault = *in.IsDefault
	}
}

// Validate checks a whole address: receiver_name, phone, address_line1 and
// city are required; label is HOME, WORK or OTHER.
func (a *Address) Validate() error {
	var v Validation
	v.OneOf("label", a.Label, LabelHome, LabelWork, LabelOther)
	v.Text("receiver_name", a.ReceiverName, true, MaxNameLen)
	v.Phone("phone", a.Phone, true)
	v.Text("address_line1", a.AddressLine1, true, maxAddressField)
	v.Text("address_line2", a.AddressLine2, false, maxAddressField)
	v.Text("city", a.City, true, MaxNameLen)
	v.Text("area", a.Area, false, MaxNameLen)
	v.Text("postal_code", a.PostalCode, false, 20)
	v.Check(a.Country == "" || CountryRE.MatchString(a.Country), "country", "must be an ISO 3166-1 alpha-2 code in upper case, like GB or US")
	return v.Err()
}

// SortAddresses orders a customer's addresses newest first, as every list
// (decisions §3); is_default marks the default.
func SortAddresses(as []*Address) {
	sort.SliceStable(as, func(i, j int) bool {
		if !as[i].CreatedAt.Equal(as[j].CreatedAt) {
			return as[i].CreatedAt.After(as[j].CreatedAt)
		}
		return as[i].ID < as[j].ID
	})
}

// AddressTx is the storage of saved addresses. Every method is scoped to one
// customer of one store: another customer's address is not_found.
type AddressTx interface {
	// PutAddress creates or replaces a.
	PutAddress(a *Address) error
	// Address returns not_found for an id not of this customer.
	Address(storeID, customerID uint64, id string) (*Address, error)
	// Addresses lists a customer's addresses (unordered).
	Addresses(storeID, customerID uint64) ([]*Address, error)
	// DeleteAddress returns not_found for an id not of this customer.
	DeleteAddress(storeID, customerID uint64, id string) error
}
