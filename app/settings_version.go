package app

import (
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"
)

// SettingsVersionsKept bounds a store's settings history: writing a version
// drops the oldest beyond this many.
const SettingsVersionsKept = 200

// SettingsVersion is a store's settings as they were after one change, with
// what that change did. The payment credentials (Store.Gateways) are never
// part of it, nor any config key that names a secret (secretKey).
type SettingsVersion struct {
	ID         uint64           `json:"id"`
	StoreID    uint64           `json:"store_id"`
	CreatedAt  time.Time        `json:"created_at"`
	AdminEmail string           `json:"admin_email"` // "" for a change made by the server
	Settings   StoreSettingsDoc `json:"settings"`
	Changes    []SettingsChange `json:"changes"`
}

// StoreSettingsDoc is the versioned part of a store: its public
// configuration and the settings beyond it.
type StoreSettingsDoc struct {
	Config             json.RawMessage `json:"config"`
	AllowedOrigins     []string        `json:"allowed_origins"`
	Domains            []string        `json:"domains"`
	NotificationEmails []string        `json:"notification_emails"`
	NotificationsOff   []string        `json:"notifications_off"`
}

// SettingsChange is one changed value: its dotted path ("config.delivery_options")
// and the values before and after (null: absent).
type SettingsChange struct {
	Path   string `json:"path"`
	Before any    `json:"before"`
	After  any    `json:"after"`
}

// settingsOf returns the versioned part of st, secrets left out.
func settingsOf(st *Store) StoreSettingsDoc {
	cfg := map[string]any{}
	_ = json.Unmarshal(st.Config, &cfg)
	dropSecrets(cfg)
	raw, _ := json.Marshal(cfg)
	return StoreSettingsDoc{Config: raw, AllowedOrigins: nonNilList(st.AllowedOrigins), Domains: nonNilList(st.Domains),
		NotificationEmails: nonNilList(st.NotificationEmails), NotificationsOff: nonNilList(st.NotificationsOff)}
}

func nonNilList(s []string) []string {
	if s == nil {
		return []string{}
	}
	return slices.Clone(s)
}

// secretKey reports whether a config key names a credential.
func secretKey(k string) bool {
	k = strings.ToLower(k)
	return strings.Contains(k, "secret") || strings.Contains(k, "password") || strings.HasSuffix(k, "api_key") ||
		strings.HasSuffix(k, "private_key")
}

// dropSecrets removes every secret key from m, at any depth.
func dropSecrets(m map[string]any) {
	for k, v := range m {
		if secretKey(k) {
			delete(m, k)
			continue
		}
		if sub, ok := v.(map[string]any); ok {
			dropSecrets(sub)
		}
	}
}

// keepSecrets copies the secret keys of cur into m (a restore keeps the
// credentials the version never held).
func keepSecrets(m, cur map[string]any) {
	for k, v := range cur {
		if secretKey(k) {
			m[k] = v
			continue
		}
		sub, ok := v.(map[string]any)
		if msub, ok2 := m[k].(map[string]any); ok && ok2 {
			keepSecrets(msub, sub)
		}
	}
}

// generic returns the JSON value of d as maps, lists and scalars.
func (d StoreSettingsDoc) generic() map[string]any {
	var out map[string]any
	raw, _ := json.Marshal(d)
	_ = json.Unmarshal(raw, &out)
	return out
}

// DiffSettings lists what changed from a to b, objects compared key by key
// and anything else whole, sorted by path.
func DiffSettings(a, b StoreSettingsDoc) []SettingsChange {
	out := []SettingsChange{}
	diffValue("", a.generic(), b.generic(), &out)
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

func diffValue(path string, a, b any, out *[]SettingsChange) {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if !aok || !bok {
		if !reflect.DeepEqual(a, b) {
			*out = append(*out, SettingsChange{Path: path, Before: a, After: b})
		}
		return
	}
	for k, av := range am {
		diffValue(joinPath(path, k), av, bm[k], out)
	}
	for k, bv := range bm {
		if _, ok := am[k]; !ok {
			diffValue(joinPath(path, k), nil, bv, out)
		}
	}
}

func joinPath(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// recordVersion writes a version of st's settings when they differ from
// before, dropping the oldest beyond SettingsVersionsKept.
func recordVersion(tx storeData, before StoreSettingsDoc, st *Store, by string) error {
	_, err := writeVersion(tx, before, st, by, false)
	return err
}

// writeVersion writes a version of st's settings (when they changed, or
// always with force) and returns it (nil: none written).
func writeVersion(tx storeData, before StoreSettingsDoc, st *Store, by string, force bool) (*SettingsVersion, error) {
	after := settingsOf(st)
	changes := DiffSettings(before, after)
	if len(changes) == 0 && !force {
		return nil, nil
	}
	v := &SettingsVersion{StoreID: st.ID, CreatedAt: UTC(tx.Now()), AdminEmail: by, Settings: after, Changes: changes}
	return v, tx.AddSettingsVersion(v, SettingsVersionsKept)
}

// SettingsVersions pages a store's settings history, newest first.
func (ss *StoreService) SettingsVersions(storeID uint64, lp ListParams) (Page[*SettingsVersion], error) {
	return view(ss.db, func(tx storeData) (Page[*SettingsVersion], error) { return tx.SettingsVersions(storeID, lp) })
}

// RestoreSettings makes a version's settings current again and returns the
// new version it writes (by by; even when nothing changed). Secrets stay as
// they are. A restore that would change a setting by may not change is
// refused whole (forbidden). Errors: not_found, forbidden, conflict (a
// domain another store uses now), validation_failed.
func (ss *StoreService) RestoreSettings(storeID, versionID uint64, by *AdminUser) (*SettingsVersion, error) {
	var out *SettingsVersion
	err := ss.db.Update(func(tx storeData) error {
		v, err := tx.SettingsVersion(storeID, versionID)
		if err != nil {
			return err
		}
		st, err := tx.Store(storeID)
		if err != nil {
			return err
		}
		orig, before := cloneStore(st), settingsOf(st)
		if err := v.Settings.applyTo(st); err != nil {
			return err
		}
		if err := PermitChanges(by, ChangedSettings(orig, st)); err != nil {
			return err
		}
		if err := ss.domainsAllowed(tx, st); err != nil {
			return err
		}
		st.UpdatedAt = UTC(tx.Now())
		if err := tx.PutStore(st); err != nil {
			return err
		}
		out, err = writeVersion(tx, before, st, emailOf(by), true)
		return err
	})
	ss.forget(storeID)
	return out, err
}

// applyTo sets st's settings to d, keeping st's secrets.
func (d StoreSettingsDoc) applyTo(st *Store) error {
	cfg, cur := map[string]any{}, map[string]any{}
	if err := json.Unmarshal(d.Config, &cfg); err != nil {
		return Invalid("settings", "the stored version is unreadable")
	}
	_ = json.Unmarshal(st.Config, &cur)
	keepSecrets(cfg, cur)
	raw, err := json.Marshal(cfg)
	if err != nil {
		return err
	}
	st.Config = raw
	st.AllowedOrigins, st.Domains = slices.Clone(d.AllowedOrigins), slices.Clone(d.Domains)
	st.NotificationEmails, st.NotificationsOff = slices.Clone(d.NotificationEmails), slices.Clone(d.NotificationsOff)
	return nil
}
