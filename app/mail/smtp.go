// Package mail sends app.Mail over SMTP (net/smtp) with implicit TLS,
// STARTTLS or neither, and optional PLAIN auth. Standard library only; it
// imports app and nothing of web, admin or storage.
package mail

import (
	"bytes"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"strconv"
	"strings"
	"time"

	"storefront/app"
)

// TLS modes of Config.TLS.
const (
	TLSStartTLS = "starttls" // plain connection upgraded with STARTTLS (required)
	TLSImplicit = "tls"      // TLS from the first byte (port 465)
	TLSNone     = "none"     // no encryption: local relays only
)

// Config is the mail.smtp.* configuration.
type Config struct {
	Host     string
	Port     int    // 0: 587 for starttls, 465 for tls, 25 for none
	Username string // empty: no auth
	Password string
	From     string // "Shop <noreply@shop.example>" or a bare address
	TLS      string // starttls (default), tls or none
	// Timeout bounds one delivery, connection to QUIT (0: 30s).
	Timeout time.Duration

	tlsConfig *tls.Config // tests: trust a test certificate
}

// SMTP delivers mail through one SMTP server, one connection per message.
type SMTP struct {
	cfg  Config
	from string // bare envelope address
}

// NewSMTP returns an app.Mailer for cfg. Check cfg first with Validate to
// report configuration mistakes at start-up.
func NewSMTP(cfg Config) app.Mailer {
	s, err := newSMTP(cfg)
	if err != nil {
		return failing{err}
	}
	return s
}

// Validate reports a configuration that cannot send.
func (cfg Config) Validate() error {
	_, err := newSMTP(cfg)
	return err
}

func newSMTP(cfg Config) (*SMTP, error) {
	if cfg.TLS == "" {
		cfg.TLS = TLSStartTLS
	}
	switch cfg.TLS {
	case TLSStartTLS, TLSImplicit, TLSNone:
	default:
		return nil, fmt.Errorf("mail: mail.smtp.tls must be starttls, tls or none, not %q", cfg.TLS)
	}
	if cfg.Host == "" {
		return nil, errors.New("mail: mail.smtp.host is empty")
	}
	if cfg.Port == 0 {
		cfg.Port = map[string]int{TLSStartTLS: 587, TLSImplicit: 465, TLSNone: 25}[cfg.TLS]
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 30 * time.Second
	}
	a, err := mail.ParseAddress(cfg.From)
	if err != nil {
		return nil, fmt.Errorf("mail: mail.smtp.from %q is not an address: %w", cfg.From, err)
	}
	return &SMTP{cfg: cfg, from: a.Address}, nil
}

type failing struct{ err error }

func (f failing) Send(app.Mail) error { return f.err }

// Send delivers m. Errors never contain the message body.
func (s *SMTP) Send(m app.Mail) error {
	to, err := mail.ParseAddress(m.To)
	if err != nil {
		return app.PermanentError(fmt.Errorf("mail: bad recipient: %w", err))
	}
	msg, err := s.compose(m, to.Address)
	if err != nil {
		return err
	}
	c, addr, err := s.connect()
	if err != nil {
		return err
	}
	defer c.Close()
	if s.cfg.Username != "" {
		if ok, _ := c.Extension("AUTH"); !ok {
			return fmt.Errorf("mail: %s offers no AUTH", addr)
		}
		// PlainAuth refuses to send the password over an unencrypted
		// connection except to localhost.
		if err := c.Auth(smtp.PlainAuth("", s.cfg.Username, s.cfg.Password, s.cfg.Host)); err != nil {
			return fmt.Errorf("mail: AUTH: %w", err)
		}
	}
	return s.deliver(c, to.Address, msg)
}

// connect dials the relay (TLS from the start when so configured), greets it
// and upgrades with STARTTLS when so configured. It returns the client and
// the relay's address for error messages.
func (s *SMTP) connect() (*smtp.Client, string, error) {
	addr := net.JoinHostPort(s.cfg.Host, strconv.Itoa(s.cfg.Port))
	deadline := time.Now().Add(s.cfg.Timeout)
	dialer := &net.Dialer{Deadline: deadline}
	tc := s.cfg.tlsConfig
	if tc == nil {
		tc = &tls.Config{ServerName: s.cfg.Host, MinVersion: tls.VersionTLS12}
	}
	var conn net.Conn
	var err error
	if s.cfg.TLS == TLSImplicit {
		conn, err = tls.DialWithDialer(dialer, "tcp", addr, tc)
	} else {
		conn, err = dialer.Dial("tcp", addr)
	}
	if err != nil {
		return nil, addr, fmt.Errorf("mail: connect %s: %w", addr, err)
	}
	_ = conn.SetDeadline(deadline)
	c, err := smtp.NewClient(conn, s.cfg.Host)
	if err != nil {
		conn.Close()
		return nil, addr, fmt.Errorf("mail: greeting from %s: %w", addr, err)
	}
	if err := s.hello(c, addr, tc); err != nil {
		c.Close()
		return nil, addr, err
	}
	return c, addr, nil
}

// hello sends EHLO and, when so configured, STARTTLS.
func (s *SMTP) hello(c *smtp.Client, addr string, tc *tls.Config) error {
	if err := c.Hello("localhost"); err != nil {
		return fmt.Errorf("mail: EHLO: %w", err)
	}
	if s.cfg.TLS == TLSStartTLS {
		if ok, _ := c.Extension("STARTTLS"); !ok {
			return fmt.Errorf("mail: %s does not offer STARTTLS (set mail.smtp.tls)", addr)
		}
		if err := c.StartTLS(tc); err != nil {
			return fmt.Errorf("mail: STARTTLS: %w", err)
		}
	}
	return nil
}

// deliver sends one message to one recipient and quits.
func (s *SMTP) deliver(c *smtp.Client, to string, msg []byte) error {
	if err := c.Mail(s.from); err != nil {
		return fmt.Errorf("mail: MAIL FROM: %w", err)
	}
	if err := c.Rcpt(to); err != nil {
		return fmt.Errorf("mail: RCPT TO: %w", err)
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("mail: DATA: %w", err)
	}
	if _, err := w.Write(msg); err != nil {
		return fmt.Errorf("mail: write message: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("mail: end of message: %w", err)
	}
	return c.Quit()
}

// compose builds a multipart/alternative message (text, then HTML), every
// part quoted-printable, headers encoded and free of line breaks.
func (s *SMTP) compose(m app.Mail, to string) ([]byte, error) {
	var b bytes.Buffer
	boundary := "sf-" + randomHex(12)
	hdr := func(k, v string) { b.WriteString(k + ": " + v + "\r\n") }
	hdr("From", headerValue(s.cfg.From))
	hdr("To", to)
	hdr("Subject", mime.QEncoding.Encode("utf-8", headerValue(m.Subject)))
	hdr("Date", time.Now().UTC().Format(time.RFC1123Z))
	id := m.MessageID(domainOf(s.from)) // stable: receivers dedupe a repeated send
	if id == "" {
		id = "<" + randomHex(16) + "@" + domainOf(s.from) + ">"
	}
	hdr("Message-ID", id)
	hdr("MIME-Version", "1.0")
	hdr("Auto-Submitted", "auto-generated")
	if m.HTML == "" {
		hdr("Content-Type", "text/plain; charset=utf-8")
		hdr("Content-Transfer-Encoding", "quoted-printable")
		b.WriteString("\r\n")
		return b.Bytes(), writeQP(&b, m.Text)
	}
	hdr("Content-Type", `multipart/alternative; boundary="`+boundary+`"`)
	b.WriteString("\r\n")
	for _, part := range []struct{ typ, body string }{{"text/plain", m.Text}, {"text/html", m.HTML}} {
		b.WriteString("--" + boundary + "\r\n")
		b.WriteString("Content-Type: " + part.typ + "; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n")
		if err := writeQP(&b, part.body); err != nil {
			return nil, err
		}
		b.WriteString("\r\n")
	}
	b.WriteString("--" + boundary + "--\r\n")
	return b.Bytes(), nil
}

func writeQP(b *bytes.Buffer, s string) error {
	w := quotedprintable.NewWriter(b)
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
	if _, err := w.Write([]byte(s)); err != nil {
		return err
	}
	return w.Close()
}

func headerValue(s string) string {
	return strings.TrimSpace(strings.NewReplacer("\r", " ", "\n", " ").Replace(s))
}

func domainOf(addr string) string {
	if i := strings.LastIndexByte(addr, '@'); i >= 0 {
		return addr[i+1:]
	}
	return "localhost"
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
