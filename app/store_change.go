package app

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// StoreChange is everything one request may change of a store's settings;
// nil fields stay as they are. Config is a JSON merge patch of the
// configuration (MergeConfig).
type StoreChange struct {
	Name             *string `json:"name"`
	IsActive         *bool   `json:"is_active"`
	RequireStaffTOTP *bool   `json:"require_staff_totp"`
	StoreSettingsInput
	Config json.RawMessage `json:"-"`
}

// Change applies ch to a store as one change: every part is validated
// first (the problems of all parts in one validation_failed), then by's
// permission for each setting it changes (forbidden), then the domain
// rules across stores (conflict), and only then is the store written, in
// one transaction with its settings version. A refused change writes
// nothing. Errors: validation_failed, forbidden, conflict, not_found.
func (ss *StoreService) Change(id uint64, ch StoreChange, by *AdminUser) (*Store, error) {
	if len(ch.Config) > 0 {
		// refused before any picture it names is fetched
		if err := ss.permitted(id, ch, by); err != nil {
			return nil, err
		}
		cfg, err := ss.s.pictures.config(id, ch.Config)
		if err != nil {
			return nil, err
		}
		ch.Config = cfg
	}
	return ss.updateTx(id, by, func(tx storeData, st *Store) error {
		if err := ch.apply(st, ss.hostRules()); err != nil {
			return err
		}
		if ch.Domains != nil {
			return domainsFree(tx, st)
		}
		return nil
	})
}

// permitted runs the change's own validation and permission checks on a
// copy of the store as it is now, so that a change the admin may not make
// (or an invalid one) fetches nothing; the change's transaction checks
// again against the store it writes.
func (ss *StoreService) permitted(id uint64, ch StoreChange, by *AdminUser) error {
	st, err := ss.Get(id)
	if err != nil {
		return err
	}
	next := cloneStore(st)
	if err := ch.apply(next, ss.hostRules()); err != nil || by == nil {
		return err
	}
	return PermitChanges(by, ChangedSettings(st, next))
}

// apply validates every part of ch and applies it to st.
func (ch StoreChange) apply(st *Store, hr hostRules) error {
	var v Validation
	if ch.Name != nil {
		v.Text("name", *ch.Name, true, 100)
		st.Name = strings.TrimSpace(*ch.Name)
	}
	if ch.IsActive != nil {
		st.IsActive = *ch.IsActive
	}
	if ch.RequireStaffTOTP != nil {
		st.RequireStaffTOTP = *ch.RequireStaffTOTP
	}
	merge(&v, ch.StoreSettingsInput.apply(st, hr))
	if len(ch.Config) > 0 {
		cfg, err := MergeConfig(st.Config, ch.Config)
		if err != nil && !merge(&v, err) {
			return err
		}
		if err == nil {
			st.Config = cfg
		}
	}
	return v.Err()
}

// merge adds the field problems of a validation_failed err to v and
// reports whether it did (false for any other error, or none).
func merge(v *Validation, err error) bool {
	ae, ok := err.(*Error)
	if !ok || ae.Code != EValidation {
		return false
	}
	if len(ae.Fields) == 0 {
		v.Add("body", ae.Message)
		return true
	}
	for _, k := range slices.Sorted(maps.Keys(ae.Fields)) {
		v.Add(k, ae.Fields[k])
	}
	return true
}
