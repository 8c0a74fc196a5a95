package app

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Ticket categories, priorities, statuses and message senders (decisions.md §4).
const (
	TicketGeneral   = "GENERAL"
	TicketOrder     = "ORDER"
	TicketPayment   = "PAYMENT"
	TicketDelivery  = "DELIVERY"
	TicketReturn    = "RETURN"
	TicketTechnical = "TECHNICAL"
	TicketOther     = "OTHER"

	PriorityLow    = "LOW"
	PriorityMedium = "MEDIUM"
	PriorityHigh   = "HIGH"
	PriorityUrgent = "URGENT"

	TicketOpen       = "OPEN"
	TicketInProgress = "IN_PROGRESS"
	TicketResolved   = "RESOLVED"
	TicketClosed     = "CLOSED"

	SenderCustomer = "CUSTOMER"
	SenderStaff    = "STAFF"
)

// Allowed values; the first of categories and priorities is not the default
// (GENERAL and MEDIUM are, see TicketInput).
var (
	TicketCategories = []string{TicketGeneral, TicketOrder, TicketPayment, TicketDelivery, TicketReturn, TicketTechnical, TicketOther}
	TicketPriorities = []string{PriorityLow, PriorityMedium, PriorityHigh, PriorityUrgent}
	TicketStatuses   = []string{TicketOpen, TicketInProgress, TicketResolved, TicketClosed}
)

// Ticket limits.
const (
	MaxTicketSubject  = 200
	MaxTicketMessage  = 5000
	MaxTicketImages   = 10
	MaxTicketMessages = 1000
	// MaxTicketBytes bounds a ticket's text and image URLs together: the
	// ticket is one record, rewritten on every reply under the database's
	// single write lock, so its size must stay small.
	MaxTicketBytes = 256 << 10
)

// Ticket is a support conversation between a shopper and the store. The
// description is also its first CUSTOMER message.
type Ticket struct {
	ID             string          `json:"id"` // uuid v4
	StoreID        uint64          `json:"store_id"`
	CustomerID     uint64          `json:"customer_id"`
	Number         uint64          `json:"number"` // per-store sequence
	Subject        string          `json:"subject"`
	Description    string          `json:"description"`
	Category       string          `json:"category"`
	Priority       string          `json:"priority"`
	Status         string          `json:"status"`
	OrderID        uint64          `json:"order_id"` // 0: none
	Images         []string        `json:"images"`
	Messages       []TicketMessage `json:"messages"`
	CreatedAt      time.Time       `json:"created_at"`
	UpdatedAt      time.Time       `json:"updated_at"`
	LastActivityAt time.Time       `json:"last_activity_at"`
}

// TicketMessage is one message of a ticket; ids count from 1 within the ticket.
type TicketMessage struct {
	ID        uint64    `json:"id"`
	Sender    string    `json:"sender"`
	Message   string    `json:"message"`
	Images    []string  `json:"images"`
	CreatedAt time.Time `json:"created_at"`
}

// TicketNumber is the wire form of a ticket's number: TKT- and at least 6 digits.
func TicketNumber(n uint64) string { return fmt.Sprintf("TKT-%06d", n) }

// TicketView is a ticket on the wire. Messages is left out of lists.
type TicketView struct {
	ID             string               `json:"id"`
	TicketNumber   string               `json:"ticket_number"`
	Subject        string               `json:"subject"`
	Description    string               `json:"description"`
	Category       string               `json:"category"`
	Priority       string               `json:"priority"`
	Status         string               `json:"status"`
	OrderID        *uint64              `json:"order_id"`
	Images         []string             `json:"images"`
	MessageCount   int                  `json:"message_count"`
	CreatedAt      time.Time            `json:"created_at"`
	UpdatedAt      time.Time            `json:"updated_at"`
	LastActivityAt time.Time            `json:"last_activity_at"`
	Messages       *[]TicketMessageView `json:"messages,omitempty"`
}

// TicketMessageView is a ticket message on the wire.
type TicketMessageView struct {
	ID        uint64    `json:"id"`
	Sender    string    `json:"sender"`
	Message   string    `json:"message"`
	Images    []string  `json:"images"`
	CreatedAt time.Time `json:"created_at"`
}

// View returns the wire form of t, with its messages when withMessages.
func (t *Ticket) View(withMessages bool) TicketView {
	v := TicketView{ID: t.ID, TicketNumber: TicketNumber(t.Number), Subject: t.Subject, Description: t.Description,
		Category: t.Category, Priority: t.Priority, Status: t.Status, Images: nonNilStrings(t.Images),
		MessageCount: len(t.Messages), CreatedAt: UTC(t.CreatedAt), UpdatedAt: UTC(t.UpdatedAt), LastActivityAt: UTC(t.LastActivityAt)}
	if t.OrderID != 0 {
		oid := t.OrderID
		v.OrderID = &oid
	}
	if withMessages {
		ms := make([]TicketMessageView, len(t.Messages))
		for i, m := range t.Messages {
			ms[i] = TicketMessageView{ID: m.ID, Sender: m.Sender, Message: m.Message, Images: nonNilStrings(m.Images), CreatedAt: UTC(m.CreatedAt)}
		}
		v.Messages = &ms
	}
	return v
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// TicketInput is the body of POST tickets/.
type TicketInput struct {
	Subject     string   `json:"subject"`
	Description string   `json:"description"`
	Category    string   `json:"category"`
	Priority    string   `json:"priority"`
	OrderID     *uint64  `json:"order_id"`
	Images      []string `json:"images"`
}

// TicketReply is the body of a reply, from either side.
type TicketReply struct {
	Message string   `json:"message"`
	Images  []string `json:"images"`
}

func (in *TicketReply) validate() error {
	var v Validation
	in.Message = strings.TrimSpace(in.Message)
	v.Text("message", in.Message, true, MaxTicketMessage)
	v.URLs("images", in.Images, MaxTicketImages)
	return v.Err()
}

// TicketPatch is the admin's change of a ticket; nil fields stay.
type TicketPatch struct {
	Status   *string `json:"status"`
	Priority *string `json:"priority"`
}

// TicketTx is the storage of tickets. CreateTicket and PutTicket keep the
// per-customer, per-status and per-store indexes (ordered by ticket number).
type TicketTx interface {
	// CreateTicket assigns t.Number from the store's sequence and stores t.
	CreateTicket(t *Ticket) error
	// Ticket returns one ticket (not_found).
	Ticket(storeID uint64, id string) (*Ticket, error)
	// PutTicket updates t and its status index (not_found).
	PutTicket(t *Ticket) error
	// CustomerTickets pages one customer's tickets, newest first.
	CustomerTickets(storeID, customerID uint64, p ListParams) (Page[*Ticket], error)
	// Tickets pages a store's tickets, newest first; status "" is all.
	Tickets(storeID uint64, status string, p ListParams) (Page[*Ticket], error)
}

// TicketsWindow is the period ratelimit.tickets_per_hour counts over.
const TicketsWindow = time.Hour

// TicketService runs support tickets for shoppers and staff.
type TicketService struct {
	db Scope[ticketData]
	s  ticketDeps
}

func newTicketService(d ticketDeps) *TicketService {
	return &TicketService{db: scopeOf(d.DB, func(tx Tx) ticketData { return tx }), s: d}
}

// Create opens a ticket for the shopper and returns it.
// Errors: validation_failed, email_not_verified, not_found (order_id not the
// shopper's order).
func (ts *TicketService) Create(sh Shopper, in TicketInput) (*Ticket, error) {
	var v Validation
	in.Subject = strings.TrimSpace(in.Subject)
	in.Description = strings.TrimSpace(in.Description)
	if in.Category == "" {
		in.Category = TicketGeneral
	}
	if in.Priority == "" {
		in.Priority = PriorityMedium
	}
	v.Text("subject", in.Subject, true, MaxTicketSubject)
	v.Text("description", in.Description, true, MaxTicketMessage)
	v.OneOf("category", in.Category, TicketCategories...)
	v.OneOf("priority", in.Priority, TicketPriorities...)
	v.Check(in.OrderID == nil || *in.OrderID > 0, "order_id", "must be a positive integer")
	v.URLs("images", in.Images, MaxTicketImages)
	if err := v.Err(); err != nil {
		return nil, err
	}
	// ratelimit.tickets_per_hour: the slot is taken first and given back when
	// the ticket is not created
	lim := Limit{Key: "tickets|" + strconv.FormatUint(sh.StoreID, 10) + "|" + strconv.FormatUint(sh.CustomerID, 10),
		Max: ts.s.Opt.TicketsPerHour, Window: TicketsWindow}
	if err := TakeAll(ts.s.Limits, "too many tickets opened; retry later or reply to an open one", lim); err != nil {
		return nil, err
	}
	var t *Ticket
	err := ts.db.Update(func(tx ticketData) error {
		if err := RequireVerified(tx, sh.StoreID, sh.CustomerID); err != nil {
			return err
		}
		var oid uint64
		if in.OrderID != nil {
			o, err := tx.Order(sh.StoreID, *in.OrderID)
			if err != nil {
				return err
			}
			if o.CustomerID != sh.CustomerID {
				return NotFound("order")
			}
			oid = o.ID
		}
		now := UTC(tx.Now())
		images := nonNilStrings(in.Images)
		t = &Ticket{ID: NewUUID(), StoreID: sh.StoreID, CustomerID: sh.CustomerID, Subject: in.Subject,
			Description: in.Description, Category: in.Category, Priority: in.Priority, Status: TicketOpen,
			OrderID: oid, Images: images, CreatedAt: now, UpdatedAt: now, LastActivityAt: now,
			Messages: []TicketMessage{{ID: 1, Sender: SenderCustomer, Message: in.Description, Images: images, CreatedAt: now}}}
		if err := tx.CreateTicket(t); err != nil {
			return err
		}
		return ts.s.Happened(tx, Change{Type: EvTicketCreated, StoreID: sh.StoreID, Ticket: t, Sender: SenderCustomer, Message: in.Description})
	})
	if err != nil {
		RefundAll(ts.s.Limits, lim)
		return nil, err
	}
	ts.s.Kick()
	return t, nil
}

// Mine returns one of the shopper's tickets; another shopper's is not_found.
func (ts *TicketService) Mine(sh Shopper, id string) (*Ticket, error) {
	return view(ts.db, func(tx ticketData) (*Ticket, error) { return ownTicket(tx, sh, id) })
}

func ownTicket(tx TicketTx, sh Shopper, id string) (*Ticket, error) {
	t, err := tx.Ticket(sh.StoreID, id)
	if err != nil {
		return nil, err
	}
	if t.CustomerID != sh.CustomerID {
		return nil, NotFound("ticket")
	}
	return t, nil
}

// ListMine pages the shopper's tickets, newest first.
func (ts *TicketService) ListMine(sh Shopper, lp ListParams) (Page[*Ticket], error) {
	return view(ts.db, func(tx ticketData) (Page[*Ticket], error) { return tx.CustomerTickets(sh.StoreID, sh.CustomerID, lp) })
}

// addMessage appends a message to t, keeping updated_at and last_activity_at.
func addMessage(t *Ticket, sender string, in TicketReply, now time.Time) error {
	if t.Status == TicketClosed {
		return Errorf(EConflict, "the ticket is closed")
	}
	if len(t.Messages) >= MaxTicketMessages || ticketBytes(t)+messageBytes(in.Message, in.Images) > MaxTicketBytes {
		return Errorf(EConflict, "the ticket has too many messages; open a new one")
	}
	t.Messages = append(t.Messages, TicketMessage{ID: uint64(len(t.Messages)) + 1, Sender: sender,
		Message: in.Message, Images: nonNilStrings(in.Images), CreatedAt: now})
	t.UpdatedAt, t.LastActivityAt = now, now
	return nil
}

func ticketBytes(t *Ticket) int {
	n := len(t.Subject) + len(t.Description)
	for _, m := range t.Messages {
		n += messageBytes(m.Message, m.Images)
	}
	return n
}

func messageBytes(msg string, images []string) int {
	n := len(msg)
	for _, u := range images {
		n += len(u)
	}
	return n
}

// Reply adds the shopper's message to one of their tickets. A reply to a
// RESOLVED ticket reopens it. Errors: validation_failed, not_found, conflict
// (closed ticket).
func (ts *TicketService) Reply(sh Shopper, id string, in TicketReply) (*Ticket, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	var t *Ticket
	err := ts.db.Update(func(tx ticketData) error {
		var err error
		if t, err = ownTicket(tx, sh, id); err != nil {
			return err
		}
		if err := addMessage(t, SenderCustomer, in, UTC(tx.Now())); err != nil {
			return err
		}
		if t.Status == TicketResolved {
			t.Status = TicketOpen
		}
		if err := tx.PutTicket(t); err != nil {
			return err
		}
		return ts.s.Happened(tx, Change{Type: EvTicketReplied, StoreID: sh.StoreID, Ticket: t, Sender: SenderCustomer, Message: in.Message})
	})
	if err != nil {
		return nil, err
	}
	ts.s.Kick()
	return t, nil
}

// Get returns a ticket of the store (admin).
func (ts *TicketService) Get(storeID uint64, id string) (*Ticket, error) {
	return view(ts.db, func(tx ticketData) (*Ticket, error) { return tx.Ticket(storeID, id) })
}

// List pages a store's tickets (admin); status "" is all.
// Errors: validation_failed (unknown status).
func (ts *TicketService) List(storeID uint64, status string, lp ListParams) (Page[*Ticket], error) {
	if status != "" {
		var v Validation
		v.OneOf("status", status, TicketStatuses...)
		if err := v.Err(); err != nil {
			return Page[*Ticket]{}, err
		}
	}
	return view(ts.db, func(tx ticketData) (Page[*Ticket], error) { return tx.Tickets(storeID, status, lp) })
}

// StaffReply adds a STAFF message and emails the shopper. An OPEN ticket
// moves to IN_PROGRESS. Errors: validation_failed, not_found, conflict (closed).
func (ts *TicketService) StaffReply(storeID uint64, id string, in TicketReply) (*Ticket, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	var t *Ticket
	err := ts.db.Update(func(tx ticketData) error {
		var err error
		if t, err = tx.Ticket(storeID, id); err != nil {
			return err
		}
		if err := addMessage(t, SenderStaff, in, UTC(tx.Now())); err != nil {
			return err
		}
		if t.Status == TicketOpen {
			t.Status = TicketInProgress
		}
		if err := tx.PutTicket(t); err != nil {
			return err
		}
		return ts.s.Happened(tx, Change{Type: EvTicketReplied, StoreID: storeID, Ticket: t, Sender: SenderStaff, Message: in.Message})
	})
	if err != nil {
		return nil, err
	}
	ts.s.Kick()
	return t, nil
}

// Patch changes a ticket's status and priority (admin). Any status may follow
// any other. Errors: validation_failed, not_found.
func (ts *TicketService) Patch(storeID uint64, id string, in TicketPatch) (*Ticket, error) {
	var v Validation
	v.Check(in.Status != nil || in.Priority != nil, "body", "send status and/or priority")
	if in.Status != nil {
		v.OneOf("status", *in.Status, TicketStatuses...)
	}
	if in.Priority != nil {
		v.OneOf("priority", *in.Priority, TicketPriorities...)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	var t *Ticket
	err := ts.db.Update(func(tx ticketData) error {
		var err error
		if t, err = tx.Ticket(storeID, id); err != nil {
			return err
		}
		if in.Status != nil {
			t.Status = *in.Status
		}
		if in.Priority != nil {
			t.Priority = *in.Priority
		}
		t.UpdatedAt = UTC(tx.Now())
		return tx.PutTicket(t)
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}
