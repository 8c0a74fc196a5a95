package app

import "time"

// Mail is one email to a shopper.
type Mail struct {
	ID        uint64    `json:"id"`
	StoreID   uint64    `json:"store_id"`
	To        string    `json:"to"`
	Subject   string    `json:"subject"`
	Text      string    `json:"text"`
	HTML      string    `json:"html"`
	CreatedAt time.Time `json:"created_at"`
}

// Mailer sends mail. Errors are logged by callers; a failed mail never fails
// the request that caused it.
type Mailer interface {
	Send(m Mail) error
}

// MailTx is the storage of the outbox.
type MailTx interface {
	// AddOutbox stores m with a new id.
	AddOutbox(m *Mail) error
	// Outbox pages a store's mail, newest first.
	Outbox(storeID uint64, p ListParams) (Page[*Mail], error)
}

// OutboxMailer keeps mail in the database, readable in the admin panel.
type OutboxMailer struct{ DB DB }

// Send stores m in the outbox.
func (o OutboxMailer) Send(m Mail) error {
	return o.DB.Update(func(tx Tx) error {
		m.CreatedAt = UTC(tx.Now())
		return tx.AddOutbox(&m)
	})
}
