package app

import (
	"encoding/json"
	"strings"
)

// Change is something that happened to a store's data, told by the service
// that wrote it, inside the write's transaction. Happened turns it into all
// of its side effects at once: the webhook event with its deliveries, the
// shopper's mail and the owner's notification. No service writes an event
// or a notification mail any other way, so a change has its effects exactly
// when it commits.
type Change struct {
	Type    string // an event type (EvOrderPaid, ...)
	StoreID uint64
	Order   *Order
	Request *Request
	Review  *Review
	Ticket  *Ticket
	Message string // the ticket message of EvTicketCreated/EvTicketReplied
	Sender  string // SenderCustomer or SenderStaff
	Contact *ContactMessage
	Product *Product
	// Cancelled says who cancelled an order (EvOrderCancelled): "request",
	// "store" or "expired".
	Cancelled string
}

// notifier is what a service needs to report its changes: Happened (the
// event and the mails, in the change's transaction) and Kick (after the
// commit, to wake the workers).
type notifier struct {
	kick func()
	// orderURL is the absolute address of an order's own page in its
	// store's shop ("" for none): OrderService.OrderURL.
	orderURL func(st *Store, orderID uint64) string
}

// notifier returns the notifier of s.
func (s *Services) notifier() notifier {
	return notifier{kick: s.Kick, orderURL: func(st *Store, id uint64) string { return s.Orders.OrderURL(st, id) }}
}

// Kick wakes the outbox and webhook workers after a commit that queued work.
func (n notifier) Kick() {
	if n.kick != nil {
		n.kick()
	}
}

// Happened records c's event and queues its mails in tx.
func (n notifier) Happened(tx notifyTx, c Change) error {
	if err := recordEvent(tx, c.StoreID, c.Type, c.payload); err != nil {
		return err
	}
	switch c.Type {
	case EvOrderCreated, EvReviewCreated, EvReviewModerated:
		return nil // no mail: spare the store read on the checkout path
	}
	st, err := tx.SharedStore(c.StoreID)
	if err != nil {
		return err
	}
	m := &mailing{tx: tx, st: st, d: MailData{Cancelled: c.Cancelled}}
	if c.Order != nil {
		ov := c.Order.View()
		m.d.Order = &ov
		m.d.Name = c.Order.ReceiverName
		if n.orderURL != nil {
			m.orderURL = n.orderURL(st, c.Order.ID)
		}
	}
	return m.send(c)
}

// mailing queues the mails of one change in its transaction, as data
// (QueueKind): they are rendered when sent or read.
type mailing struct {
	tx notifyTx
	st *Store // shared: read only
	d  MailData
	// orderURL is the order's own page, for the shopper's mails only.
	orderURL string
}

// shopper queues mail kind to the shopper at to ("" sends nothing), with
// the link to the order's own page when it is about an order.
func (m *mailing) shopper(kind, to string) error {
	if to == "" {
		return nil
	}
	d := m.d
	d.OrderURL = m.orderURL
	return QueueKind(m.tx, m.st.ID, kind, to, d)
}

// owner queues mail kind to each of the store's notification addresses
// when the store asked for notify.
func (m *mailing) owner(notify, kind string) error {
	if !m.st.Notifies(notify) {
		return nil
	}
	for _, to := range m.st.NotificationEmails {
		if err := QueueKind(m.tx, m.st.ID, kind, to, m.d); err != nil {
			return err
		}
	}
	return nil
}

// send queues the mails of c: which change mails whom is decided here.
func (m *mailing) send(c Change) error {
	switch c.Type {
	case EvOrderPaid:
		if err := m.shopper(MailOrderConfirmation, orderEmail(m.tx, c.Order)); err != nil {
			return err
		}
		return m.owner(NotifyOrderPaid, MailOwnerOrderPaid)
	case EvOrderStatusChanged:
		if c.Order.Status == OrderDelivered {
			return m.deliveredMail(c.Order)
		}
	case EvOrderShipped:
		return m.shopper(MailOrderShipped, orderEmail(m.tx, c.Order))
	case EvOrderCancelled:
		if c.Cancelled == "request" {
			return nil // the shopper gets the decision on the request instead
		}
		return m.shopper(MailOrderCancelled, orderEmail(m.tx, c.Order))
	case EvCancellationRequested, EvRefundRequested:
		m.d.Request = requestMail(c.Request)
		kind := NotifyCancellationRequested
		if c.Type == EvRefundRequested {
			kind = NotifyRefundRequested
		}
		return m.owner(kind, MailOwnerRequest)
	case EvCancellationDecided, EvRefundDecided:
		m.d.Request = requestMail(c.Request)
		return m.shopper(MailRequestDecided, orderEmail(m.tx, c.Order))
	case EvTicketCreated, EvTicketReplied:
		return m.ticket(c)
	case EvContactReceived:
		cv := c.Contact.View()
		m.d.Contact = &cv
		return m.owner(NotifyContactReceived, MailOwnerContact)
	case EvProductLowStock:
		m.d.Product = &ProductMail{ID: c.Product.ID, Name: c.Product.Name, Stock: c.Product.AvailableStock(), Threshold: c.Product.LowStockThreshold}
		return m.owner(NotifyLowStock, MailOwnerLowStock)
	}
	return nil
}

// ticket queues a ticket message's mail: the staff's reply to the shopper,
// the shopper's message to the store.
func (m *mailing) ticket(c Change) error {
	m.d.Ticket = &TicketMail{Number: TicketNumber(c.Ticket.Number), Subject: c.Ticket.Subject, Message: c.Message}
	cust, err := m.tx.Customer(c.StoreID, c.Ticket.CustomerID)
	if err != nil && !IsNotFound(err) {
		return err
	}
	if c.Sender == SenderStaff {
		if cust == nil {
			return nil // the account is gone: nobody to write to
		}
		m.d.Name, m.d.Ticket.From = cust.FirstName, "The store"
		return m.shopper(MailTicketReply, cust.Email)
	}
	m.d.Ticket.From = "A shopper"
	if cust != nil {
		m.d.Ticket.From = oneLine(cust.FirstName + " " + cust.LastName + " <" + cust.Email + ">")
	}
	if c.Type == EvTicketCreated {
		return m.owner(NotifyTicketCreated, MailOwnerTicket)
	}
	return m.owner(NotifyTicketReplied, MailOwnerTicket)
}

// payload is the event's data: the object as the admin API shows it.
func (c Change) payload() any {
	switch {
	case c.Type == EvProductLowStock && c.Product != nil:
		return map[string]any{"product": map[string]any{"id": c.Product.ID, "name": c.Product.Name, "slug": c.Product.Slug,
			"stock": c.Product.AvailableStock(), "low_stock_threshold": c.Product.LowStockThreshold}}
	case c.Request != nil:
		out := map[string]any{"request": c.Request.View(), "kind": c.Request.Kind}
		if c.Order != nil {
			out["order"] = c.Order.AdminView()
		}
		return out
	case c.Order != nil:
		out := map[string]any{"order": c.Order.AdminView()}
		if c.Cancelled != "" {
			out["cancelled_by"] = c.Cancelled
		}
		return out
	case c.Review != nil:
		return map[string]any{"review": c.Review.View(), "status": c.Review.Status}
	case c.Ticket != nil:
		return map[string]any{"ticket": c.Ticket.View(false), "message": map[string]string{"sender": c.Sender, "message": c.Message}}
	case c.Contact != nil:
		return map[string]any{"contact_message": c.Contact.View()}
	}
	return map[string]any{}
}

// orderEmail is where mail about an order goes: the order's email, else its
// shopper's account email.
func orderEmail(tx CustomerTx, o *Order) string {
	if o == nil {
		return ""
	}
	if o.Email != "" {
		return o.Email
	}
	if o.CustomerID != 0 {
		if c, err := tx.Customer(o.StoreID, o.CustomerID); err == nil {
			return c.Email
		}
	}
	return ""
}

func requestMail(r *Request) *RequestMail {
	if r == nil {
		return nil
	}
	return &RequestMail{Kind: r.Kind, Status: r.Status, Reason: r.Reason, Note: r.AdminNote, Amount: r.Amount, OrderID: r.OrderID,
		Method: lowerWords(r.RefundMethod), ByStore: r.ByStore}
}

func lowerWords(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c == '_':
			b[i] = ' '
		case c >= 'A' && c <= 'Z':
			b[i] = c + 32
		}
	}
	return string(b)
}

// stockWatch remembers which products were low before a write, so that
// the write reports product.low_stock for those it made low.
type stockWatch map[uint64]bool

// before notes p's state before the write changes it.
func (w stockWatch) before(p *Product) {
	if _, seen := w[p.ID]; !seen {
		w[p.ID] = p.LowStock()
	}
}

// after reports EvProductLowStock for p if the write made it low.
func (n notifier) lowStockAfter(tx notifyTx, w stockWatch, p *Product) error {
	was, seen := w[p.ID]
	if !seen || was || !p.LowStock() {
		return nil
	}
	w[p.ID] = true
	return n.Happened(tx, Change{Type: EvProductLowStock, StoreID: p.StoreID, Product: p})
}

// OrderCancelled reports a cancellation (by "request", "store" or
// "expired") in the transaction that cancelled o (after CancelOrder):
// order.status_changed and order.cancelled, and the shopper's mail.
func (n notifier) OrderCancelled(tx notifyTx, o *Order, by string) error {
	if err := n.Happened(tx, Change{Type: EvOrderStatusChanged, StoreID: o.StoreID, Order: o}); err != nil {
		return err
	}
	return n.Happened(tx, Change{Type: EvOrderCancelled, StoreID: o.StoreID, Order: o, Cancelled: by})
}

// lowStockAfterTake reports EvProductLowStock when the units o took from p
// (already taken) brought it down to its threshold or below.
func (n notifier) lowStockAfterTake(tx notifyTx, p *Product, o *Order) error {
	if !p.LowStock() {
		return nil
	}
	var taken int64
	for _, it := range o.Items {
		if it.ProductID == p.ID {
			taken += it.Quantity
		}
	}
	if p.AvailableStock()+taken <= p.LowStockThreshold {
		return nil // it was low already: told before
	}
	return n.Happened(tx, Change{Type: EvProductLowStock, StoreID: p.StoreID, Product: p})
}

// endpointDisabledMail tells the owner that an endpoint was disabled.
func endpointDisabledMail(tx mailTx, st *Store, w *WebhookEndpoint) error {
	d := MailData{Endpoint: &EndpointMail{URL: w.URL, Reason: w.DisabledReason}}
	for _, to := range ownerAddresses(st) {
		if err := QueueKind(tx, st.ID, MailOwnerWebhookOff, to, d); err != nil {
			return err
		}
	}
	return nil
}

// ownerAddresses is where mail for the owner goes regardless of the kinds
// turned off: notification_emails, else the config's store.email.
func ownerAddresses(st *Store) []string {
	if len(st.NotificationEmails) > 0 {
		return st.NotificationEmails
	}
	var cfg struct {
		Store map[string]string `json:"store"`
	}
	_ = json.Unmarshal(st.Config, &cfg)
	var v Validation
	if e := strings.TrimSpace(cfg.Store["email"]); e != "" {
		if v.Email("email", e); v.Err() == nil {
			return []string{e}
		}
	}
	return nil
}
