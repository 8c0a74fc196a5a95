package storage

import (
	"time"

	bolt "go.etcd.io/bbolt"

	"storefront/app"
)

// The audit log is global: audit: id -> entry (ids from one sequence, so in
// time order); idx_audit_store: sid|id -> nil for a store's entries, and
// idx_audit_object: sid|object0|id -> nil for its entries on one object (an
// order's timeline reads those, not the store's whole log).
var (
	_ = registerVerifier(verifyAudit, bIdxAuditStore, bIdxAuditObject)
)

// auditObjectKey is e's key in idx_audit_object (nil: none, an entry of no
// store or no object).
func auditObjectKey(e *app.AuditEntry) []byte {
	if e.StoreID == 0 || e.Object == "" {
		return nil
	}
	return keyOf(e.StoreID).str0(e.Object).id(e.ID)
}

// auditSeq is the audit log's id sequence (store 0: not a tenant's).
const auditSeq = "audit"

// CreateAuditEntry assigns e.ID and stores e.
func (t *Tx) CreateAuditEntry(e *app.AuditEntry) error {
	id, err := t.NextID(0, auditSeq)
	if err != nil {
		return err
	}
	e.ID = id
	if e.StoreID != 0 {
		if err := t.b(bIdxAuditStore).Put(keyOf(e.StoreID).id(id), nil); err != nil {
			return err
		}
	}
	if k := auditObjectKey(e); k != nil {
		if err := t.b(bIdxAuditObject).Put(k, nil); err != nil {
			return err
		}
	}
	return putJSON(t.b(bAudit), u64(id), e)
}

// AuditEntries pages the entries passing f, newest first; a store filter
// walks that store's index only, with an object filter that object's.
func (t *Tx) AuditEntries(f app.AuditFilter, lp app.ListParams) (app.Page[*app.AuditEntry], error) {
	records := t.b(bAudit)
	keep := func(id uint64) (*app.AuditEntry, bool, error) {
		var e app.AuditEntry
		if err := getJSON(records, u64(id), &e, "audit entry"); err != nil {
			return nil, false, err
		}
		return &e, f.Match(&e), nil
	}
	if f.StoreID != 0 && f.Object != "" {
		return page(t.b(bIdxAuditObject), keyOf(f.StoreID).str0(f.Object), lp, true, func(k, _ []byte) (*app.AuditEntry, bool, error) {
			return keep(idFromKeyEnd(k))
		})
	}
	if f.StoreID != 0 {
		return page(t.b(bIdxAuditStore), tenant(f.StoreID), lp, true, func(k, _ []byte) (*app.AuditEntry, bool, error) {
			return keep(idFromKeyEnd(k))
		})
	}
	return page(records, nil, lp, true, func(k, _ []byte) (*app.AuditEntry, bool, error) {
		return keep(idFromKeyEnd(k))
	})
}

// DeleteAuditEntriesBefore removes the entries older than before (ids grow
// with time: it stops at the first newer one).
func (t *Tx) DeleteAuditEntriesBefore(before time.Time) (int, error) {
	var old []app.AuditEntry
	err := walk(t.b(bAudit), nil, nil, false, func(_, v []byte) (bool, error) {
		var e app.AuditEntry
		if err := getJSONBytes(v, &e, "audit entry"); err != nil {
			return false, err
		}
		if !e.At.Before(before) {
			return false, nil
		}
		old = append(old, e)
		return true, nil
	})
	if err != nil {
		return 0, err
	}
	for _, e := range old {
		if err := t.b(bAudit).Delete(u64(e.ID)); err != nil {
			return 0, err
		}
		if e.StoreID != 0 {
			if err := t.b(bIdxAuditStore).Delete(keyOf(e.StoreID).id(e.ID)); err != nil {
				return 0, err
			}
		}
		if k := auditObjectKey(&e); k != nil {
			if err := t.b(bIdxAuditObject).Delete(k); err != nil {
				return 0, err
			}
		}
	}
	return len(old), nil
}

func verifyAudit(t *Tx, want expectKeys) error {
	return t.b(bAudit).ForEach(func(_, v []byte) error {
		var e app.AuditEntry
		if err := getJSONBytes(v, &e, "audit entry"); err != nil {
			return err
		}
		if e.StoreID != 0 {
			want.put(bIdxAuditStore, keyOf(e.StoreID).id(e.ID), nil)
		}
		if k := auditObjectKey(&e); k != nil {
			want.put(bIdxAuditObject, k, nil)
		}
		return nil
	})
}

// indexAuditObjects (schema 3 -> 4) fills idx_audit_object from the entries
// kept (at most AuditKeep of them; open creates the bucket first).
func indexAuditObjects(tx *bolt.Tx) error {
	idx := tx.Bucket(bIdxAuditObject)
	return tx.Bucket(bAudit).ForEach(func(_, v []byte) error {
		var e app.AuditEntry
		if err := getJSONBytes(v, &e, "audit entry"); err != nil {
			return err
		}
		if k := auditObjectKey(&e); k != nil {
			return idx.Put(k, nil)
		}
		return nil
	})
}
