package storagetest

import (
	"fmt"
	"time"

	"storefront/app"
)

// testAudit: the log is newest first and paged, filtered by store, object
// (an order's timeline) and action prefix, a store sees only its own, and
// pruning removes the old entries from every filter.
func testAudit(e *env) {
	a, b := e.store("a"), e.store("b")
	add := func(sid uint64, action, object string) {
		en := &app.AuditEntry{At: e.now(), AdminID: 1, AdminEmail: "o@example.com", StoreID: sid, Action: action,
			Object: object, IP: "192.0.2.1", Via: "panel", Status: 200}
		e.update(func(tx app.Tx) error { return tx.CreateAuditEntry(en) })
	}
	add(a, "orders.ship", "orders/7")                 // 1
	add(a, "orders.ship", "orders/8")                 // 2
	add(b, "orders.ship", "orders/7")                 // 3: another store's order 7
	add(a, "products.import", "")                     // 4
	add(0, "stores.create", fmt.Sprint("stores/", a)) // 5: of no store
	e.tick(48 * time.Hour)
	add(a, "orders.note", "orders/7")   // 6
	add(a, "orders.refund", "orders/7") // 7
	eid := func(x *app.AuditEntry) string { return fmt.Sprint(x.ID) }
	list := func(f app.AuditFilter) []string {
		return sorted(e, eid, func(tx app.Tx, lp app.ListParams) (app.Page[*app.AuditEntry], error) {
			return tx.AuditEntries(f, lp)
		})
	}
	e.same("a store's log", list(app.AuditFilter{StoreID: a}), ids(7, 6, 4, 2, 1))
	e.same("an order's entries", list(app.AuditFilter{StoreID: a, Object: "orders/7"}), ids(7, 6, 1))
	e.same("the other store's order 7", list(app.AuditFilter{StoreID: b, Object: "orders/7"}), ids(3))
	e.same("an order's entries by action", list(app.AuditFilter{StoreID: a, Object: "orders/7", Action: "orders.ship"}), ids(1))
	e.same("no such object", list(app.AuditFilter{StoreID: a, Object: "orders/70"}), ids())
	e.same("every store's", list(app.AuditFilter{}), ids(7, 6, 5, 4, 3, 2, 1))
	e.update(func(tx app.Tx) error {
		n, err := tx.DeleteAuditEntriesBefore(t0.Add(24 * time.Hour))
		e.same("pruned", n, 5)
		return err
	})
	e.same("an order's entries after pruning", list(app.AuditFilter{StoreID: a, Object: "orders/7"}), ids(7, 6))
	e.same("the other store's after pruning", list(app.AuditFilter{StoreID: b, Object: "orders/7"}), ids())
}
