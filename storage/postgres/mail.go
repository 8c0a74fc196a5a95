package postgres

import "storefront/app"

// AddOutbox stores m with a new id.
func (t *Tx) AddOutbox(m *app.Mail) error {
	id, err := t.NextID(m.StoreID, "mail")
	if err != nil {
		return err
	}
	m.ID = id
	raw, err := encode(m)
	if err != nil {
		return err
	}
	return t.exec(m.StoreID, "add outbox", `INSERT INTO outbox (store_id, id, doc) VALUES ($1, $2, $3)`, i64(m.StoreID), i64(id), raw)
}

// Outbox pages a store's mail, newest first.
func (t *Tx) Outbox(storeID uint64, lp app.ListParams) (app.Page[*app.Mail], error) {
	return docList[app.Mail](t, storeID, "mail", `FROM outbox WHERE store_id = $1`, []any{i64(storeID)}, byID(true), lp)
}
