package app

import (
	"embed"
	htmltemplate "html/template"
	"strings"
	texttemplate "text/template"
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

// The mail templates are embedded and parsed once: a broken template fails
// at start-up, never when a shopper is waiting for a code.
//
//go:embed mailtmpl/mail.txt.tmpl mailtmpl/mail.html.tmpl
var mailFS embed.FS

var (
	mailText = texttemplate.Must(texttemplate.ParseFS(mailFS, "mailtmpl/mail.txt.tmpl"))
	mailHTML = htmltemplate.Must(htmltemplate.ParseFS(mailFS, "mailtmpl/mail.html.tmpl"))
)

type mailData struct {
	Store, Subject, Body string
	Paragraphs           [][]string // blank-line separated paragraphs, split in lines
}

// NewMail composes a mail from the store to a shopper: a subject and a
// plain-text body, rendered through the embedded plain-text and HTML
// templates with the store's name. Every service that writes to shoppers uses
// it, so all mail carries the store's name alike.
func NewMail(st *Store, to, subject, body string) Mail {
	subject = oneLine(subject)
	d := mailData{Store: oneLine(st.Name), Subject: subject, Body: strings.TrimRight(body, "\n")}
	for _, p := range strings.Split(strings.ReplaceAll(d.Body, "\r\n", "\n"), "\n\n") {
		if p = strings.Trim(p, "\n"); p != "" {
			d.Paragraphs = append(d.Paragraphs, strings.Split(p, "\n"))
		}
	}
	var text, html strings.Builder
	if err := mailText.Execute(&text, d); err != nil {
		text.Reset()
		text.WriteString(d.Body + "\n\n-- \n" + d.Store + "\n")
	}
	if err := mailHTML.Execute(&html, d); err != nil {
		html.Reset()
	}
	return Mail{StoreID: st.ID, To: oneLine(to), Subject: "[" + d.Store + "] " + subject, Text: text.String(), HTML: html.String()}
}

// oneLine drops CR and LF so that no value can add a mail header.
func oneLine(s string) string {
	return strings.TrimSpace(strings.NewReplacer("\r", " ", "\n", " ").Replace(s))
}

// Outbox pages a store's outbox, newest first (admin).
func (s *Services) Outbox(storeID uint64, lp ListParams) (Page[*Mail], error) {
	return view(s.DB, func(tx Tx) (Page[*Mail], error) { return tx.Outbox(storeID, lp) })
}

// MailView is a mail as the admin API shows it.
type MailView struct {
	ID        uint64    `json:"id"`
	To        string    `json:"to"`
	Subject   string    `json:"subject"`
	Text      string    `json:"text"`
	HTML      string    `json:"html"`
	CreatedAt time.Time `json:"created_at"`
}

// View returns the wire form of m.
func (m *Mail) View() MailView {
	return MailView{ID: m.ID, To: m.To, Subject: m.Subject, Text: m.Text, HTML: m.HTML, CreatedAt: UTC(m.CreatedAt)}
}

// SendMail sends m, logging (never returning) a failure: a mail that cannot be
// sent must not fail the request that caused it.
func (s *Services) SendMail(m Mail) {
	if err := s.Mailer.Send(m); err != nil {
		s.Log.Error("send mail", "store_id", m.StoreID, "subject", m.Subject, "err", err)
	}
}
