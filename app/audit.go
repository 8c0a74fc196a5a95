package app

import (
	"strings"
	"time"
)

// AuditKeep is how long audit entries are kept; a daily job prunes older ones.
const AuditKeep = 90 * 24 * time.Hour

// AuditEntry is one admin write: who did what to which object, when, from
// which address, through the API or the panel, and how it ended (the HTTP
// status; 403 is a refused attempt).
type AuditEntry struct {
	ID         uint64    `json:"id"`
	At         time.Time `json:"at"`
	AdminID    uint64    `json:"admin_id"`
	AdminEmail string    `json:"admin_email"`
	StoreID    uint64    `json:"store_id"` // 0: not about one store (users, a new store)
	Action     string    `json:"action"`   // resource.verb: "products.update", "orders.refund"
	Object     string    `json:"object"`   // "products/12", "" for a collection
	IP         string    `json:"ip"`
	Via        string    `json:"via"` // api or panel
	Status     int       `json:"status"`
}

// AuditView is an audit entry on the wire.
type AuditView struct {
	ID         uint64    `json:"id"`
	At         time.Time `json:"at"`
	AdminID    uint64    `json:"admin_id"`
	AdminEmail string    `json:"admin_email"`
	StoreID    *uint64   `json:"store_id"`
	Action     string    `json:"action"`
	Object     string    `json:"object"`
	IP         string    `json:"ip"`
	Via        string    `json:"via"`
	Status     int       `json:"status"`
}

// View returns the wire form of e.
func (e *AuditEntry) View() AuditView {
	v := AuditView{ID: e.ID, At: UTC(e.At), AdminID: e.AdminID, AdminEmail: e.AdminEmail, Action: e.Action,
		Object: e.Object, IP: e.IP, Via: e.Via, Status: e.Status}
	if e.StoreID != 0 {
		id := e.StoreID
		v.StoreID = &id
	}
	return v
}

// AuditFilter narrows the audit list. Zero fields do not filter; Action
// matches a prefix ("orders." or "orders.refund"); From and To are UTC days,
// both included.
type AuditFilter struct {
	StoreID  uint64
	AdminID  uint64
	Action   string
	Object   string
	From, To time.Time
}

// Match reports whether e passes f.
func (f AuditFilter) Match(e *AuditEntry) bool {
	switch {
	case f.StoreID != 0 && e.StoreID != f.StoreID,
		f.AdminID != 0 && e.AdminID != f.AdminID,
		f.Action != "" && !strings.HasPrefix(e.Action, f.Action),
		f.Object != "" && e.Object != f.Object,
		!f.From.IsZero() && e.At.Before(StatsDay(f.From)),
		!f.To.IsZero() && !e.At.Before(StatsDay(f.To).AddDate(0, 0, 1)):
		return false
	}
	return true
}

// AuditTx is the storage of the audit log (global, ids in time order).
type AuditTx interface {
	// CreateAuditEntry assigns e.ID and stores e.
	CreateAuditEntry(e *AuditEntry) error
	// AuditEntries pages the entries passing f, newest first.
	AuditEntries(f AuditFilter, p ListParams) (Page[*AuditEntry], error)
	// DeleteAuditEntriesBefore removes entries older than t and says how many.
	DeleteAuditEntriesBefore(t time.Time) (int, error)
}

// AuditService records and lists admin writes.
type AuditService struct{ db Scope[auditData] }

func newAuditService(db DB) *AuditService {
	return &AuditService{db: scopeOf(db, func(tx Tx) auditData { return tx })}
}

// Record stores one entry (At is the transaction's time). Writers are
// batched into shared commits.
func (as *AuditService) Record(e AuditEntry) error {
	return as.db.Batch(func(tx auditData) error {
		x := e
		x.At = UTC(tx.Now())
		return tx.CreateAuditEntry(&x)
	})
}

// List pages the audit log, newest first. Errors: validation_failed.
func (as *AuditService) List(f AuditFilter, lp ListParams) (Page[*AuditEntry], error) {
	if !f.From.IsZero() && !f.To.IsZero() && f.To.Before(f.From) {
		return Page[*AuditEntry]{}, Invalid("to", "must not be before from")
	}
	return view(as.db, func(tx auditData) (Page[*AuditEntry], error) { return tx.AuditEntries(f, lp) })
}

// Prune deletes entries older than AuditKeep; a daily job calls it.
func (as *AuditService) Prune() (int, error) {
	n := 0
	err := as.db.Update(func(tx auditData) error {
		var err error
		n, err = tx.DeleteAuditEntriesBefore(tx.Now().Add(-AuditKeep))
		return err
	})
	return n, err
}
