package postgres

import (
	"fmt"

	"storefront/app"
)

// CreateTicket assigns t.Number from the store's sequence and stores t.
func (t *Tx) CreateTicket(tk *app.Ticket) error {
	if !app.IsCanonicalUUID(tk.ID) {
		return fmt.Errorf("postgres: create ticket: bad id %q", tk.ID)
	}
	taken, err := t.exists(tk.StoreID, "ticket", `SELECT 1 FROM tickets WHERE store_id = $1 AND id = $2`, i64(tk.StoreID), bs(tk.ID))
	if err != nil {
		return err
	}
	if taken {
		return fmt.Errorf("postgres: create ticket: id %s exists", tk.ID)
	}
	n, err := t.NextID(tk.StoreID, "ticket")
	if err != nil {
		return err
	}
	tk.Number = n
	return t.putTicket(tk)
}

// Ticket returns one ticket.
func (t *Tx) Ticket(storeID uint64, id string) (*app.Ticket, error) {
	var tk app.Ticket
	if err := t.get(storeID, &tk, "ticket", `SELECT doc FROM tickets WHERE store_id = $1 AND id = $2`, i64(storeID), bs(id)); err != nil {
		return nil, err
	}
	return &tk, nil
}

// PutTicket updates a ticket; its number and customer never change.
func (t *Tx) PutTicket(tk *app.Ticket) error {
	old, err := t.Ticket(tk.StoreID, tk.ID)
	if err != nil {
		return err
	}
	if old.Number != tk.Number || old.CustomerID != tk.CustomerID {
		return fmt.Errorf("postgres: put ticket %s: number and customer never change", tk.ID)
	}
	return t.putTicket(tk)
}

func (t *Tx) putTicket(tk *app.Ticket) error {
	raw, err := encode(tk)
	if err != nil {
		return err
	}
	return t.exec(tk.StoreID, "put ticket", `INSERT INTO tickets (store_id, id, number, customer_id, status, doc) VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (store_id, id) DO UPDATE SET status = excluded.status, doc = excluded.doc`,
		i64(tk.StoreID), bs(tk.ID), i64(tk.Number), i64(tk.CustomerID), tk.Status, raw)
}

var ticketKeys = keyset{cols: []col{{"number", kU64}}, desc: true}

// CustomerTickets pages one customer's tickets, newest first.
func (t *Tx) CustomerTickets(storeID, customerID uint64, lp app.ListParams) (app.Page[*app.Ticket], error) {
	return docList[app.Ticket](t, storeID, "tickets", `FROM tickets WHERE store_id = $1 AND customer_id = $2`,
		[]any{i64(storeID), i64(customerID)}, ticketKeys, lp)
}

// Tickets pages a store's tickets newest first, all or of one status.
func (t *Tx) Tickets(storeID uint64, status string, lp app.ListParams) (app.Page[*app.Ticket], error) {
	if status == "" {
		return docList[app.Ticket](t, storeID, "tickets", `FROM tickets WHERE store_id = $1`, []any{i64(storeID)}, ticketKeys, lp)
	}
	if !text(status) {
		return app.Page[*app.Ticket]{Items: []*app.Ticket{}}, nil
	}
	return docList[app.Ticket](t, storeID, "tickets", `FROM tickets WHERE store_id = $1 AND status = $2`,
		[]any{i64(storeID), status}, ticketKeys, lp)
}
