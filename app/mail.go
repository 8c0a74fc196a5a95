package app

import (
	"embed"
	htmltemplate "html/template"
	"regexp"
	"strconv"
	"strings"
	texttemplate "text/template"
	"time"
)

// Mail is one email of a store, kept in the outbox: written in the
// transaction of the change that caused it, then sent by the OutboxWorker.
// A mail of a kind is queued as its Data (QueueKind) and rendered when it is
// read or sent (Rendered): rendering costs more than the rest of a payment's
// write, and the write transaction is where a shop's checkouts queue.
type Mail struct {
	ID      uint64 `json:"id"`
	StoreID uint64 `json:"store_id"`
	Kind    string `json:"kind,omitempty"` // template name (order_confirmation, ...)
	To      string `json:"to"`
	Subject string `json:"subject"`
	Text    string `json:"text"`
	HTML    string `json:"html"`
	// Data is what a mail of Kind is rendered from while it is not rendered
	// yet (Subject, Text and HTML empty); nil once rendered.
	Data      *MailData `json:"data,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	// Delivery state. A record written before these fields existed reads as
	// queued.
	Status    string    `json:"status,omitempty"` // MailQueued, MailSent, MailFailed
	Attempts  int       `json:"attempts,omitempty"`
	NextAt    time.Time `json:"next_attempt_at,omitzero"`
	LastError string    `json:"last_error,omitempty"`
	SentAt    time.Time `json:"sent_at,omitzero"`
	QueuedAt  time.Time `json:"queued_at,omitzero"` // retries stop MaxAge after it
}

// MessageID is the mail's Message-ID header at domain (the sender's): made
// from the store and outbox ids, the same at every attempt, so that a
// receiver drops the copy that a crash between a send and its record
// repeats. Empty for a mail not stored in an outbox.
func (m *Mail) MessageID(domain string) string {
	if m.ID == 0 {
		return ""
	}
	return "<storefront." + strconv.FormatUint(m.StoreID, 10) + "." + strconv.FormatUint(m.ID, 10) + "@" + domain + ">"
}

// Mail statuses.
const (
	MailQueued = "queued"
	MailSent   = "sent"
	MailFailed = "failed"
)

// State returns the mail's status, queued for records that predate it.
func (m *Mail) State() string {
	if m.Status == "" {
		return MailQueued
	}
	return m.Status
}

// Mailer is a mail transport (SMTP). Only the OutboxWorker calls it.
type Mailer interface {
	Send(m Mail) error
}

// MailTx is the storage of the outbox.
type MailTx interface {
	// AddOutbox stores m with a new id; a queued mail is due at m.NextAt.
	AddOutbox(m *Mail) error
	// Outbox pages a store's mail, newest first.
	Outbox(storeID uint64, p ListParams) (Page[*Mail], error)
	// Mail returns one mail of a store (not_found).
	Mail(storeID, id uint64) (*Mail, error)
	// PutMail updates a mail and its place in the due index.
	PutMail(m *Mail) error
	// DueMail returns up to limit queued mails of every store due at or
	// before now, soonest first.
	DueMail(now time.Time, limit int) ([]*Mail, error)
	// ClaimDueMail leases to l up to limit queued mails of every store due
	// at or before now whose lease is free at now (none, or lapsed), soonest
	// first, and returns them. Concurrent claims never return the same mail.
	ClaimDueMail(now time.Time, l Lease, limit int) ([]*Mail, error)
	// EndMailLease ends claimant's lease on a mail, in the transaction that
	// records its attempt (or gives it back unsent): conflict when the lease
	// is not claimant's (another worker claimed it after it lapsed),
	// not_found when the mail is gone.
	EndMailLease(storeID, id uint64, claimant string) error
}

// QueueKind queues a mail of kind to to inside tx, kept as d until it is
// sent or read (d's Store is ignored: the brand is the store's when it is
// rendered): the way a service sends mail, so that a mail exists exactly when
// its cause commits. d is encoded in tx, so it may be changed after QueueKind
// returns. Free-text mail (NewMail) goes through queueMail as it is.
func QueueKind(tx mailTx, storeID uint64, kind, to string, d MailData) error {
	return queueMail(tx, &Mail{StoreID: storeID, Kind: kind, To: oneLine(to), Data: &d})
}

// Rendered returns m with its subject and bodies: a mail queued as data is
// rendered with st as it is now (its brand and its override of the kind).
// A mail that cannot be rendered (an unknown kind) comes back with the error,
// its subject saying why.
func (m *Mail) Rendered(st *Store, publicURL string) (*Mail, error) {
	if m.Data == nil {
		return m, nil
	}
	d := *m.Data
	d.Store = BrandOf(st, publicURL)
	out := *m
	out.Data = nil
	r, err := RenderMail(st, m.Kind, m.To, d)
	if err != nil {
		out.Subject = "(not rendered: " + err.Error() + ")"
		return &out, err
	}
	out.Subject, out.Text, out.HTML = r.Subject, r.Text, r.HTML
	return &out, nil
}

// renderMails renders the mails of ms that are still data, in place, with
// their stores as tx has them. The mails that could not be rendered are
// returned by index (their subjects say why); err is a store that could not
// be read.
func renderMails(tx SharedStoreTx, publicURL string, ms []*Mail) (unrendered map[int]error, err error) {
	var st *Store // the store of the mail before, most often the same
	for i, m := range ms {
		if m.Data == nil {
			continue
		}
		if st == nil || st.ID != m.StoreID {
			if st, err = tx.SharedStore(m.StoreID); err != nil {
				return nil, err
			}
		}
		if ms[i], err = m.Rendered(st, publicURL); err != nil {
			if unrendered == nil {
				unrendered = map[int]error{}
			}
			unrendered[i] = err
		}
	}
	return unrendered, nil
}

func queueMail(tx mailTx, m *Mail) error {
	if m.To == "" {
		return nil
	}
	now := UTC(tx.Now())
	m.CreatedAt, m.QueuedAt, m.NextAt, m.Status = now, now, now, MailQueued
	return tx.AddOutbox(m)
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

// Outbox pages a store's outbox, newest first, as it is sent: the codes of
// queued account mails in clear (tests; admins read AdminOutbox).
func (s *Services) Outbox(storeID uint64, lp ListParams) (Page[*Mail], error) {
	return view(s.DB, func(tx Tx) (Page[*Mail], error) {
		pg, err := tx.Outbox(storeID, lp)
		if err != nil {
			return pg, err
		}
		_, err = renderMails(tx, s.Opt.PublicURL, pg.Items)
		return pg, err
	})
}

// AdminOutbox pages a store's outbox, newest first, as every admin sees it:
// the codes of account mails masked (MaskCodes), whoever reads it and
// whether or not mail goes out, so that no staff member can take over a
// shopper's account; the shopper's mail carries them.
func (s *Services) AdminOutbox(storeID uint64, lp ListParams) (Page[*Mail], error) {
	return view(s.DB, func(tx Tx) (Page[*Mail], error) {
		pg, err := tx.Outbox(storeID, lp)
		if err != nil {
			return pg, err
		}
		err = renderMasked(tx, s.Opt.PublicURL, pg.Items)
		return pg, err
	})
}

// renderMasked renders ms for display with their codes masked, in place.
func renderMasked(tx SharedStoreTx, publicURL string, ms []*Mail) error {
	for i, m := range ms {
		ms[i] = m.MaskCodes()
	}
	_, err := renderMails(tx, publicURL, ms)
	for i, m := range ms {
		ms[i] = m.MaskCodes()
	}
	return err
}

// MailView is a mail as the admin API shows it.
type MailView struct {
	ID            uint64     `json:"id"`
	Kind          string     `json:"kind"`
	To            string     `json:"to"`
	Subject       string     `json:"subject"`
	Text          string     `json:"text"`
	HTML          string     `json:"html"`
	CreatedAt     time.Time  `json:"created_at"`
	Status        string     `json:"status"`
	Attempts      int        `json:"attempts"`
	NextAttemptAt *time.Time `json:"next_attempt_at"`
	LastError     string     `json:"last_error"`
	SentAt        *time.Time `json:"sent_at"`
}

// View returns the wire form of m.
func (m *Mail) View() MailView {
	v := MailView{ID: m.ID, Kind: m.Kind, To: m.To, Subject: m.Subject, Text: m.Text, HTML: m.HTML, CreatedAt: UTC(m.CreatedAt),
		Status: m.State(), Attempts: m.Attempts, LastError: m.LastError}
	if v.Status == MailQueued && !m.NextAt.IsZero() {
		t := UTC(m.NextAt)
		v.NextAttemptAt = &t
	}
	if !m.SentAt.IsZero() {
		t := UTC(m.SentAt)
		v.SentAt = &t
	}
	return v
}

// SendMail queues m in a transaction of its own, logging (never returning) a
// failure. Prefer queueing inside the transaction of the change.
func (s *Services) SendMail(m Mail) {
	if err := s.DB.Update(func(tx Tx) error { return queueMail(tx, &m) }); err != nil {
		s.Log.Error("queue mail", "store_id", m.StoreID, "subject", m.Subject, "err", err)
		return
	}
	s.Kick()
}

// Kick tells the background workers (outbox, webhooks) that new work was
// committed, so they need not wait for their next tick.
func (s *Services) Kick() {
	if s.OnQueued != nil {
		s.OnQueued()
	}
}

// accountCodeRE finds the six-digit codes of account mails.
var accountCodeRE = regexp.MustCompile(`\b[0-9]{6}\b`)

// MaskedCode is what an account mail's code reads as in a masked outbox view.
const MaskedCode = "••••••"

// MaskCodes returns m with the code of an account mail (email
// verification, password reset) masked: in its data when it is still to be
// rendered (so a template that writes the code in any form shows the mask),
// else wherever the code, or any six digits, stand in its text. Whoever
// reads the outbox must not be able to take over a shopper's account. Other
// mails are returned as they are.
func (m *Mail) MaskCodes() *Mail {
	if m.Kind != MailVerifyCode && m.Kind != MailPasswordReset {
		return m
	}
	x := *m
	mask := func(s string) string {
		if m.Data != nil && m.Data.Code != "" {
			s = strings.ReplaceAll(s, m.Data.Code, MaskedCode)
		}
		return accountCodeRE.ReplaceAllString(s, MaskedCode)
	}
	x.Subject, x.Text, x.HTML = mask(x.Subject), mask(x.Text), mask(x.HTML)
	if m.Data != nil && m.Data.Code != "" {
		d := *m.Data
		d.Code = MaskedCode
		x.Data = &d
	}
	return &x
}
