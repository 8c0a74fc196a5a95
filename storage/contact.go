package storage

import (
	"fmt"

	"storefront/app"
)

func unreadFlag(read bool) byte {
	if read {
		return 0
	}
	return 1
}

func contactReadKey(m *app.ContactMessage) []byte {
	return keyOf(m.StoreID).code(unreadFlag(m.IsRead)).id(m.ID)
}

// CreateContactMessage assigns m.ID and stores m with its read index.
func (t *Tx) CreateContactMessage(m *app.ContactMessage) error {
	id, err := t.NextID(m.StoreID, "contact")
	if err != nil {
		return err
	}
	m.ID = id
	return t.putContact(nil, m)
}

// ContactMessage returns one message.
func (t *Tx) ContactMessage(storeID, id uint64) (*app.ContactMessage, error) {
	var m app.ContactMessage
	if err := getJSON(t.b(bContact), keyOf(storeID).id(id), &m, "contact message"); err != nil {
		return nil, err
	}
	return &m, nil
}

// PutContactMessage updates m and its read index.
func (t *Tx) PutContactMessage(m *app.ContactMessage) error {
	old, err := t.ContactMessage(m.StoreID, m.ID)
	if err != nil {
		return err
	}
	return t.putContact(old, m)
}

func (t *Tx) putContact(old, m *app.ContactMessage) error {
	idx := t.b(bIdxContactRead)
	if old != nil {
		if err := idx.Delete(contactReadKey(old)); err != nil {
			return err
		}
	}
	if err := idx.Put(contactReadKey(m), nil); err != nil {
		return fmt.Errorf("storage: put contact index: %w", err)
	}
	return putJSON(t.b(bContact), keyOf(m.StoreID).id(m.ID), m)
}

// ContactMessages pages a store's messages newest first: all, unread ones
// first (the read index walked descending puts flag 1 before flag 0), or
// only read or unread ones.
func (t *Tx) ContactMessages(storeID uint64, read *bool, unreadFirst bool, lp app.ListParams) (app.Page[*app.ContactMessage], error) {
	byIndex := recordByIndex[app.ContactMessage](t.b(bContact), storeID, "contact message")
	switch {
	case read != nil:
		return page(t.b(bIdxContactRead), keyOf(storeID).code(unreadFlag(*read)), lp, true, byIndex)
	case unreadFirst:
		return page(t.b(bIdxContactRead), tenant(storeID), lp, true, byIndex)
	default:
		return page(t.b(bContact), tenant(storeID), lp, true, decodeJSONRecord[app.ContactMessage]("contact message"))
	}
}
