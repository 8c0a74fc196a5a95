package storage

import "storefront/app"

// AddSettingsVersion assigns v.ID and stores v, then drops the store's
// oldest versions beyond keep.
func (t *Tx) AddSettingsVersion(v *app.SettingsVersion, keep int) error {
	id, err := t.NextID(v.StoreID, "settings_version")
	if err != nil {
		return err
	}
	v.ID = id
	if err := putJSON(t.b(bSettingsVersions), keyOf(v.StoreID).id(id), v); err != nil {
		return err
	}
	var keys [][]byte
	if err := walk(t.b(bSettingsVersions), tenant(v.StoreID), nil, true, func(k, _ []byte) (bool, error) {
		if len(keys) == keep+1 {
			return false, nil
		}
		keys = append(keys, append([]byte(nil), k...))
		return true, nil
	}); err != nil {
		return err
	}
	if len(keys) <= keep {
		return nil
	}
	// keys[keep] is the newest to drop: delete it and every older one.
	var old [][]byte
	if err := walk(t.b(bSettingsVersions), tenant(v.StoreID), nil, false, func(k, _ []byte) (bool, error) {
		old = append(old, append([]byte(nil), k...))
		return idFromKeyEnd(k) != idFromKeyEnd(keys[keep]), nil
	}); err != nil {
		return err
	}
	for _, k := range old {
		if err := t.b(bSettingsVersions).Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// SettingsVersions pages a store's settings versions, newest first.
func (t *Tx) SettingsVersions(storeID uint64, lp app.ListParams) (app.Page[*app.SettingsVersion], error) {
	return page(t.b(bSettingsVersions), tenant(storeID), lp, true, func(_, v []byte) (*app.SettingsVersion, bool, error) {
		var sv app.SettingsVersion
		if err := getJSONBytes(v, &sv, "settings version"); err != nil {
			return nil, false, err
		}
		return &sv, true, nil
	})
}

// SettingsVersion returns one version.
func (t *Tx) SettingsVersion(storeID, id uint64) (*app.SettingsVersion, error) {
	var sv app.SettingsVersion
	if err := getJSON(t.b(bSettingsVersions), keyOf(storeID).id(id), &sv, "settings version"); err != nil {
		return nil, err
	}
	return &sv, nil
}
