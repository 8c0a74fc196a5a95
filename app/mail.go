package app

import (
	htmlpkg "html"
	"strings"
	"time"
)

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

// NewMail composes a mail from the store to a shopper: a subject and a
// plain-text body, with an HTML part made from the text. Every service that
// writes to shoppers uses it, so all mail carries the store's name alike.
func NewMail(st *Store, to, subject, body string) Mail {
	text := body + "\n\n-- \n" + st.Name + "\n"
	html := "<!doctype html><html><body><p>" + strings.ReplaceAll(htmlpkg.EscapeString(body), "\n", "<br>") +
		"</p><p>&mdash; " + htmlpkg.EscapeString(st.Name) + "</p></body></html>"
	return Mail{StoreID: st.ID, To: to, Subject: "[" + st.Name + "] " + subject, Text: text, HTML: html}
}

// SendMail sends m, logging (never returning) a failure: a mail that cannot be
// sent must not fail the request that caused it.
func (s *Services) SendMail(m Mail) {
	if err := s.Mailer.Send(m); err != nil {
		s.Log.Error("send mail", "store_id", m.StoreID, "subject", m.Subject, "err", err)
	}
}
