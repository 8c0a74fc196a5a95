package storage

import (
	"encoding/binary"
	"time"

	"storefront/app"
)

var _ = registerVerifier(verifyOutbox, bOutboxDue)

func mailDueKey(m *app.Mail) []byte {
	return tkey(make([]byte, 0, 24)).at(m.NextAt).id(m.StoreID).id(m.ID)
}

// AddOutbox stores m with a new id.
func (t *Tx) AddOutbox(m *app.Mail) error {
	id, err := t.NextID(m.StoreID, "mail")
	if err != nil {
		return err
	}
	m.ID = id
	return t.PutMail(m)
}

// Mail returns one mail of a store.
func (t *Tx) Mail(storeID, id uint64) (*app.Mail, error) {
	var m app.Mail
	if err := getJSON(t.b(bOutbox), keyOf(storeID).id(id), &m, "mail"); err != nil {
		return nil, err
	}
	return &m, nil
}

// PutMail writes m and keeps its due-index key (only queued mail is due).
func (t *Tx) PutMail(m *app.Mail) error {
	if old, err := t.Mail(m.StoreID, m.ID); err == nil && old.State() == app.MailQueued {
		if err := t.b(bOutboxDue).Delete(mailDueKey(old)); err != nil {
			return err
		}
	} else if err != nil && !app.IsNotFound(err) {
		return err
	}
	if m.State() == app.MailQueued {
		if err := t.b(bOutboxDue).Put(mailDueKey(m), nil); err != nil {
			return err
		}
	}
	return putJSON(t.b(bOutbox), keyOf(m.StoreID).id(m.ID), m)
}

// DueMail returns up to limit queued mails due at or before now, soonest first.
func (t *Tx) DueMail(now time.Time, limit int) ([]*app.Mail, error) {
	end := timeKey(now)
	var out []*app.Mail
	c := t.b(bOutboxDue).Cursor()
	for k, _ := c.First(); k != nil && len(out) < limit; k, _ = c.Next() {
		if len(k) != 24 || string(k[:8]) > string(end) {
			break
		}
		m, err := t.Mail(u64From(k[8:16]), u64From(k[16:24]))
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// Outbox pages a store's mail, newest first.
func (t *Tx) Outbox(storeID uint64, lp app.ListParams) (app.Page[*app.Mail], error) {
	return page(t.b(bOutbox), tenant(storeID), lp, true, decodeJSONRecord[app.Mail]("mail"))
}

func verifyOutbox(t *Tx, want expectKeys) error {
	return t.b(bOutbox).ForEach(func(_, v []byte) error {
		var m app.Mail
		if err := getJSONBytes(v, &m, "mail"); err != nil {
			return err
		}
		if m.State() == app.MailQueued {
			want.put(bOutboxDue, mailDueKey(&m), nil)
		}
		return nil
	})
}

func u64From(b []byte) uint64 { return binary.BigEndian.Uint64(b) }
