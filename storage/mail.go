package storage

import "storefront/app"

// AddOutbox stores m with a new id.
func (t *Tx) AddOutbox(m *app.Mail) error {
	id, err := t.NextID(m.StoreID, "mail")
	if err != nil {
		return err
	}
	m.ID = id
	return putJSON(t.b(bOutbox), keyOf(m.StoreID).id(id), m)
}

// Outbox pages a store's mail, newest first.
func (t *Tx) Outbox(storeID uint64, lp app.ListParams) (app.Page[*app.Mail], error) {
	return page(t.b(bOutbox), tenant(storeID), lp, true, decodeJSONRecord[app.Mail]("mail"))
}
