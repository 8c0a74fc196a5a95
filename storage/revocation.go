package storage

import (
	"bytes"
	"fmt"
	"time"

	"storefront/app"
)

func revocationKey(r *app.Revocation) []byte {
	if r.Session != "" {
		return keyOf(r.StoreID).code(byte('s')).str0(r.Session)
	}
	return keyOf(r.StoreID).code(byte('c')).id(r.CustomerID)
}

// PutRevocation stores r, replacing the one of the same session or customer.
func (t *Tx) PutRevocation(r *app.Revocation) error {
	if r.Session == "" && r.CustomerID == 0 { // store 0: admin tokens
		return fmt.Errorf("storage: put revocation: no session or customer")
	}
	return putJSON(t.b(bRevocations), revocationKey(r), r)
}

// Revocations lists the stored revocations of every store.
func (t *Tx) Revocations() ([]*app.Revocation, error) {
	var out []*app.Revocation
	err := t.b(bRevocations).ForEach(func(_, v []byte) error {
		var r app.Revocation
		if err := getJSONBytes(v, &r, "revocation"); err != nil {
			return err
		}
		out = append(out, &r)
		return nil
	})
	return out, err
}

// PruneRevocations deletes the revocations whose Until is not after now.
func (t *Tx) PruneRevocations(now time.Time) error {
	b := t.b(bRevocations)
	var dead [][]byte
	err := b.ForEach(func(k, v []byte) error {
		var r app.Revocation
		if err := getJSONBytes(v, &r, "revocation"); err != nil {
			return err
		}
		if !now.Before(r.Until) {
			dead = append(dead, bytes.Clone(k))
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, k := range dead {
		if err := b.Delete(k); err != nil {
			return fmt.Errorf("storage: prune revocations: %w", err)
		}
	}
	return nil
}
