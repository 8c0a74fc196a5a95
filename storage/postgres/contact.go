package postgres

import "storefront/app"

func unreadFlag(read bool) int16 {
	if read {
		return 0
	}
	return 1
}

// CreateContactMessage assigns m.ID and stores m.
func (t *Tx) CreateContactMessage(m *app.ContactMessage) error {
	id, err := t.NextID(m.StoreID, "contact")
	if err != nil {
		return err
	}
	m.ID = id
	return t.putContact(m)
}

// ContactMessage returns one message.
func (t *Tx) ContactMessage(storeID, id uint64) (*app.ContactMessage, error) {
	var m app.ContactMessage
	if err := t.get(storeID, &m, "contact message", `SELECT doc FROM contact_messages WHERE store_id = $1 AND id = $2`, i64(storeID), i64(id)); err != nil {
		return nil, err
	}
	return &m, nil
}

// PutContactMessage updates m.
func (t *Tx) PutContactMessage(m *app.ContactMessage) error {
	if _, err := t.ContactMessage(m.StoreID, m.ID); err != nil {
		return err
	}
	return t.putContact(m)
}

func (t *Tx) putContact(m *app.ContactMessage) error {
	raw, err := encode(m)
	if err != nil {
		return err
	}
	return t.exec(m.StoreID, "put contact message", `INSERT INTO contact_messages (store_id, id, unread, doc) VALUES ($1, $2, $3, $4)
		ON CONFLICT (store_id, id) DO UPDATE SET unread = excluded.unread, doc = excluded.doc`,
		i64(m.StoreID), i64(m.ID), unreadFlag(m.IsRead), raw)
}

// ContactMessages pages a store's messages newest first: all, unread ones
// first, or only read or unread ones.
func (t *Tx) ContactMessages(storeID uint64, read *bool, unreadFirst bool, lp app.ListParams) (app.Page[*app.ContactMessage], error) {
	switch {
	case read != nil:
		return docList[app.ContactMessage](t, storeID, "contact messages", `FROM contact_messages WHERE store_id = $1 AND unread = $2`,
			[]any{i64(storeID), unreadFlag(*read)}, byID(true), lp)
	case unreadFirst:
		ks := keyset{cols: []col{{"unread", kByte}, {"id", kU64}}, desc: true}
		return docList[app.ContactMessage](t, storeID, "contact messages", `FROM contact_messages WHERE store_id = $1`, []any{i64(storeID)}, ks, lp)
	default:
		return docList[app.ContactMessage](t, storeID, "contact messages", `FROM contact_messages WHERE store_id = $1`, []any{i64(storeID)}, byID(true), lp)
	}
}
