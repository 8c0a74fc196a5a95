package postgres

import "storefront/app"

// AddSettingsVersion assigns v.ID and stores v, then drops the store's
// oldest versions beyond keep.
func (t *Tx) AddSettingsVersion(v *app.SettingsVersion, keep int) error {
	id, err := t.NextID(v.StoreID, "settings_version")
	if err != nil {
		return err
	}
	v.ID = id
	if err := t.putSettingsVersion(v); err != nil {
		return err
	}
	return t.exec(v.StoreID, "prune settings versions", `DELETE FROM settings_versions WHERE store_id = $1 AND id <= $2`,
		i64(v.StoreID), i64(id)-int64(keep))
}

func (t *Tx) putSettingsVersion(v *app.SettingsVersion) error {
	raw, err := encode(v)
	if err != nil {
		return err
	}
	return t.exec(v.StoreID, "put settings version", `INSERT INTO settings_versions (store_id, id, doc) VALUES ($1, $2, $3)`,
		i64(v.StoreID), i64(v.ID), raw)
}

// SettingsVersions pages a store's settings versions, newest first.
func (t *Tx) SettingsVersions(storeID uint64, lp app.ListParams) (app.Page[*app.SettingsVersion], error) {
	return docList[app.SettingsVersion](t, storeID, "settings versions", `FROM settings_versions WHERE store_id = $1`,
		[]any{i64(storeID)}, byID(true), lp)
}

// SettingsVersion returns one version.
func (t *Tx) SettingsVersion(storeID, id uint64) (*app.SettingsVersion, error) {
	var v app.SettingsVersion
	if err := t.get(storeID, &v, "settings version", `SELECT doc FROM settings_versions WHERE store_id = $1 AND id = $2`,
		i64(storeID), i64(id)); err != nil {
		return nil, err
	}
	return &v, nil
}
