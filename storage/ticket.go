package storage

import (
	"fmt"

	bolt "go.etcd.io/bbolt"

	"storefront/app"
)

func ticketKey(storeID uint64, id string) []byte { return keyOf(storeID).last(id) }
func ticketStatusKey(t *app.Ticket) []byte {
	return keyOf(t.StoreID).str0(t.Status).id(t.Number)
}

// CreateTicket assigns t.Number and stores t with its indexes.
func (t *Tx) CreateTicket(tk *app.Ticket) error {
	if !app.IsCanonicalUUID(tk.ID) {
		return fmt.Errorf("storage: create ticket: bad id %q", tk.ID)
	}
	if t.b(bTickets).Get(ticketKey(tk.StoreID, tk.ID)) != nil {
		return fmt.Errorf("storage: create ticket: id %s exists", tk.ID)
	}
	n, err := t.NextID(tk.StoreID, "ticket")
	if err != nil {
		return err
	}
	tk.Number = n
	id := []byte(tk.ID)
	if err := t.b(bIdxTickets).Put(keyOf(tk.StoreID).id(n), id); err != nil {
		return fmt.Errorf("storage: put ticket index: %w", err)
	}
	if err := t.b(bIdxTicketsCust).Put(keyOf(tk.StoreID).id(tk.CustomerID).id(n), id); err != nil {
		return fmt.Errorf("storage: put ticket index: %w", err)
	}
	return t.putTicket(nil, tk)
}

// Ticket returns one ticket.
func (t *Tx) Ticket(storeID uint64, id string) (*app.Ticket, error) {
	var tk app.Ticket
	if err := getJSON(t.b(bTickets), ticketKey(storeID, id), &tk, "ticket"); err != nil {
		return nil, err
	}
	return &tk, nil
}

// PutTicket updates a ticket and its status index.
func (t *Tx) PutTicket(tk *app.Ticket) error {
	old, err := t.Ticket(tk.StoreID, tk.ID)
	if err != nil {
		return err
	}
	if old.Number != tk.Number || old.CustomerID != tk.CustomerID {
		return fmt.Errorf("storage: put ticket %s: number and customer never change", tk.ID)
	}
	return t.putTicket(old, tk)
}

func (t *Tx) putTicket(old, tk *app.Ticket) error {
	status := t.b(bIdxTicketsStatus)
	if old != nil {
		if err := status.Delete(ticketStatusKey(old)); err != nil {
			return err
		}
	}
	if err := status.Put(ticketStatusKey(tk), []byte(tk.ID)); err != nil {
		return fmt.Errorf("storage: put ticket index: %w", err)
	}
	return putJSON(t.b(bTickets), ticketKey(tk.StoreID, tk.ID), tk)
}

// ticketByIndex is a page decoder for ticket indexes (value: the ticket id).
func ticketByIndex(records *bolt.Bucket, sid uint64) func(k, v []byte) (*app.Ticket, bool, error) {
	return func(_, v []byte) (*app.Ticket, bool, error) {
		var tk app.Ticket
		if err := getJSON(records, keyOf(sid).raw(v), &tk, "ticket"); err != nil {
			return nil, false, err
		}
		return &tk, true, nil
	}
}

// CustomerTickets pages one customer's tickets, newest first.
func (t *Tx) CustomerTickets(storeID, customerID uint64, lp app.ListParams) (app.Page[*app.Ticket], error) {
	return page(t.b(bIdxTicketsCust), keyOf(storeID).id(customerID), lp, true, ticketByIndex(t.b(bTickets), storeID))
}

// Tickets pages a store's tickets newest first, all or of one status.
func (t *Tx) Tickets(storeID uint64, status string, lp app.ListParams) (app.Page[*app.Ticket], error) {
	if status == "" {
		return page(t.b(bIdxTickets), tenant(storeID), lp, true, ticketByIndex(t.b(bTickets), storeID))
	}
	return page(t.b(bIdxTicketsStatus), keyOf(storeID).str0(status), lp, true, ticketByIndex(t.b(bTickets), storeID))
}
