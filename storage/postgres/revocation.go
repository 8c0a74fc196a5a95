package postgres

import (
	"fmt"
	"time"

	"storefront/app"
)

// PutRevocation stores r, replacing the one of the same session or customer.
func (t *Tx) PutRevocation(r *app.Revocation) error {
	if r.Session == "" && r.CustomerID == 0 { // store 0: admin tokens
		return fmt.Errorf("postgres: put revocation: no session or customer")
	}
	kind, cid := "c", r.CustomerID
	if r.Session != "" {
		kind, cid = "s", 0
	}
	raw, err := encode(r)
	if err != nil {
		return err
	}
	return t.exec(r.StoreID, "put revocation", `INSERT INTO revocations (store_id, kind, session, customer_id, until, doc)
		VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (store_id, kind, session, customer_id) DO UPDATE SET until = excluded.until, doc = excluded.doc`+announce(7),
		i64(r.StoreID), kind, bs(r.Session), i64(cid), r.Until, raw, t.event(app.EventRevocation, r.StoreID, raw))
}

// Revocations lists the stored revocations of every store. Like the prune
// below it takes no store lock: it is called inside the transactions of one
// store, and the global lock after a store's would invite deadlocks.
func (t *Tx) Revocations() ([]*app.Revocation, error) {
	out, err := all[app.Revocation](t, noLock, "revocations", `SELECT doc FROM revocations ORDER BY store_id, kind, session, customer_id`)
	if len(out) == 0 {
		out = nil
	}
	return out, err
}

// PruneRevocations deletes the revocations whose Until is not after now.
func (t *Tx) PruneRevocations(now time.Time) error {
	return t.exec(noLock, "prune revocations", `DELETE FROM revocations WHERE until <= $1`, now)
}
