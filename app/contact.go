package app

import (
	"sort"
	"strings"
	"time"
)

// Contact form limits.
const (
	MaxContactName        = 100
	MaxContactPhone       = 32
	MaxContactSubject     = 200
	MaxContactMessage     = 5000
	MaxContactMetadata    = 20
	MaxContactMetaKey     = 64
	MaxContactMetaValue   = 500
	contactMetaKeyMessage = "keys must be 1-64 characters"
)

// ContactMessage is a message sent through a store's public contact form.
type ContactMessage struct {
	ID       uint64            `json:"id"`
	StoreID  uint64            `json:"store_id"`
	Name     string            `json:"name"`
	Email    string            `json:"email"`
	Phone    string            `json:"phone"`
	Subject  string            `json:"subject"`
	Message  string            `json:"message"`
	Metadata map[string]string `json:"metadata"`
	IsRead   bool              `json:"is_read"`
	// Replies are the store's answers by email, oldest first.
	Replies   []ContactReply `json:"replies,omitempty"`
	CreatedAt time.Time      `json:"created_at"`
	UpdatedAt time.Time      `json:"updated_at"`
}

// ContactReply is one answer to a contact message, sent by email through
// the outbox (MailID).
type ContactReply struct {
	By      string    `json:"by"` // the admin's email
	Message string    `json:"message"`
	MailID  uint64    `json:"mail_id"`
	SentAt  time.Time `json:"sent_at"`
}

// ContactView is a contact message on the wire (storefront-api.md).
type ContactView struct {
	ID        uint64            `json:"id"`
	Name      string            `json:"name"`
	Email     string            `json:"email"`
	Phone     string            `json:"phone"`
	Subject   string            `json:"subject"`
	Message   string            `json:"message"`
	Metadata  map[string]string `json:"metadata"`
	IsRead    bool              `json:"is_read"`
	CreatedAt time.Time         `json:"created_at"`
}

// View returns the wire form of m.
func (m *ContactMessage) View() ContactView {
	md := m.Metadata
	if md == nil {
		md = map[string]string{}
	}
	return ContactView{ID: m.ID, Name: m.Name, Email: m.Email, Phone: m.Phone, Subject: m.Subject,
		Message: m.Message, Metadata: md, IsRead: m.IsRead, CreatedAt: UTC(m.CreatedAt)}
}

// ContactInput is the body of POST contact/.
type ContactInput struct {
	Name     string            `json:"name"`
	Email    string            `json:"email"`
	Phone    string            `json:"phone"`
	Subject  string            `json:"subject"`
	Message  string            `json:"message"`
	Metadata map[string]string `json:"metadata"`
}

func (in *ContactInput) validate() error {
	var v Validation
	in.Name = strings.TrimSpace(in.Name)
	in.Email = strings.TrimSpace(in.Email)
	in.Phone = strings.TrimSpace(in.Phone)
	in.Subject = strings.TrimSpace(in.Subject)
	in.Message = strings.TrimSpace(in.Message)
	v.Text("name", in.Name, true, MaxContactName)
	v.Email("email", in.Email)
	v.Text("phone", in.Phone, false, MaxContactPhone)
	v.Text("subject", in.Subject, false, MaxContactSubject)
	v.Text("message", in.Message, true, MaxContactMessage)
	if len(in.Metadata) > MaxContactMetadata {
		v.Add("metadata", "must have at most 20 entries")
	}
	keys := make([]string, 0, len(in.Metadata))
	for k := range in.Metadata {
		keys = append(keys, k)
	}
	sort.Strings(keys) // the same input always names the same key
	for _, k := range keys {
		var kv Validation
		kv.Text("k", k, true, MaxContactMetaKey)
		if kv.Err() != nil {
			v.Add("metadata", contactMetaKeyMessage)
			break
		}
		v.Text("metadata."+k, in.Metadata[k], false, MaxContactMetaValue)
	}
	return v.Err()
}

// ContactTx is the storage of contact messages. The read flag is indexed so
// that unread messages can be listed first or alone.
type ContactTx interface {
	// CreateContactMessage assigns m.ID and stores m.
	CreateContactMessage(m *ContactMessage) error
	// ContactMessage returns one message (not_found).
	ContactMessage(storeID, id uint64) (*ContactMessage, error)
	// PutContactMessage updates m and its read index (not_found).
	PutContactMessage(m *ContactMessage) error
	// ContactMessages pages a store's messages newest first. read nil lists
	// all (unread ones first when unreadFirst); otherwise only those whose
	// is_read equals *read.
	ContactMessages(storeID uint64, read *bool, unreadFirst bool, p ListParams) (Page[*ContactMessage], error)
}

// ContactService stores the contact form and lets staff read it.
type ContactService struct {
	db Scope[contactData]
	s  mailDeps
}

func newContactService(d mailDeps) *ContactService {
	return &ContactService{db: scopeOf(d.DB, func(tx Tx) contactData { return tx }), s: d}
}

// Submit stores a contact message. Errors: validation_failed.
func (cs *ContactService) Submit(storeID uint64, in ContactInput) (*ContactMessage, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	md := in.Metadata
	if md == nil {
		md = map[string]string{}
	}
	var m *ContactMessage
	err := cs.db.Update(func(tx contactData) error {
		now := UTC(tx.Now())
		m = &ContactMessage{StoreID: storeID, Name: in.Name, Email: in.Email, Phone: in.Phone, Subject: in.Subject,
			Message: in.Message, Metadata: md, CreatedAt: now, UpdatedAt: now}
		if err := tx.CreateContactMessage(m); err != nil {
			return err
		}
		return cs.s.Happened(tx, Change{Type: EvContactReceived, StoreID: storeID, Contact: m})
	})
	if err != nil {
		return nil, err
	}
	cs.s.Kick()
	return m, nil
}

// List pages a store's contact messages (see ContactTx.ContactMessages).
func (cs *ContactService) List(storeID uint64, read *bool, unreadFirst bool, lp ListParams) (Page[*ContactMessage], error) {
	return view(cs.db, func(tx contactData) (Page[*ContactMessage], error) {
		return tx.ContactMessages(storeID, read, unreadFirst, lp)
	})
}

// SetRead marks a message read or unread. Errors: not_found.
func (cs *ContactService) SetRead(storeID, id uint64, read bool) (*ContactMessage, error) {
	var m *ContactMessage
	err := cs.db.Update(func(tx contactData) error {
		var err error
		if m, err = tx.ContactMessage(storeID, id); err != nil {
			return err
		}
		if m.IsRead == read {
			return nil
		}
		m.IsRead = read
		m.UpdatedAt = UTC(tx.Now())
		return tx.PutContactMessage(m)
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// MaxContactReply bounds an answer's length.
const MaxContactReply = 10000

// Reply answers a contact message by email: the mail (subject "Re: " and
// the message's subject, the original quoted below the answer) is written
// to the outbox, the answer recorded on the message and the message marked
// read, all in one transaction. Errors: validation_failed, not_found.
func (cs *ContactService) Reply(storeID, id uint64, by, message string) (*ContactMessage, error) {
	message = strings.TrimSpace(message)
	var v Validation
	v.Text("message", message, true, MaxContactReply)
	if err := v.Err(); err != nil {
		return nil, err
	}
	var m *ContactMessage
	err := cs.db.Update(func(tx contactData) error {
		st, err := tx.Store(storeID)
		if err != nil {
			return err
		}
		if m, err = tx.ContactMessage(storeID, id); err != nil {
			return err
		}
		mail := NewMail(st, m.Email, ReplySubject(m), ReplyBody(m, message))
		mail.Kind = "contact_reply"
		if err := queueMail(tx, &mail); err != nil {
			return err
		}
		now := UTC(tx.Now())
		m.Replies = append(m.Replies, ContactReply{By: by, Message: message, MailID: mail.ID, SentAt: now})
		m.IsRead, m.UpdatedAt = true, now
		return tx.PutContactMessage(m)
	})
	if err != nil {
		return nil, err
	}
	cs.s.Kick()
	return m, nil
}

// ReplySubject is the subject of an answer: "Re: " and the message's
// subject, so that mail programs thread every answer with the message.
func ReplySubject(m *ContactMessage) string {
	subj := strings.TrimSpace(m.Subject)
	if subj == "" {
		subj = "your message of " + UTC(m.CreatedAt).Format("2 January 2006")
	}
	if len(subj) >= 3 && strings.EqualFold(subj[:3], "re:") {
		return subj
	}
	return "Re: " + subj
}

// ReplyBody is the answer with the original message quoted below it.
func ReplyBody(m *ContactMessage, answer string) string {
	var b strings.Builder
	b.WriteString(answer)
	b.WriteString("\n\nOn " + UTC(m.CreatedAt).Format("2 January 2006 15:04 UTC") + ", " + m.Name + " wrote:\n")
	for _, line := range strings.Split(strings.ReplaceAll(m.Message, "\r\n", "\n"), "\n") {
		b.WriteString("> " + line + "\n")
	}
	return b.String()
}
