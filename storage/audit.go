package storage

import (
	"time"

	"storefront/app"
)

// The audit log is global: audit: id -> entry (ids from one sequence, so in
// time order); idx_audit_store: sid|id -> nil for a store's entries.
var (
	_ = registerVerifier(verifyAudit, bIdxAuditStore)
)

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
	return putJSON(t.b(bAudit), u64(id), e)
}

// AuditEntries pages the entries passing f, newest first; a store filter
// walks that store's index only.
func (t *Tx) AuditEntries(f app.AuditFilter, lp app.ListParams) (app.Page[*app.AuditEntry], error) {
	records := t.b(bAudit)
	keep := func(id uint64) (*app.AuditEntry, bool, error) {
		var e app.AuditEntry
		if err := getJSON(records, u64(id), &e, "audit entry"); err != nil {
			return nil, false, err
		}
		return &e, f.Match(&e), nil
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
		return nil
	})
}
