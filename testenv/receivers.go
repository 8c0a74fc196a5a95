package testenv

import (
	"bufio"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/http"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"
)

// SMTPServer is a minimal SMTP receiver on 127.0.0.1 for tests: it accepts
// every message and keeps it. Stop and Start take it down and bring it back
// on the same port (an outage); Fail4xx makes it answer 451 to DATA.
type SMTPServer struct {
	Addr string // host:port

	mu       sync.Mutex
	ln       net.Listener
	msgs     []SMTPMessage
	fail4xx  bool
	hang     bool
	delay    time.Duration
	received chan struct{}
}

// SMTPMessage is one message received.
type SMTPMessage struct {
	From string
	To   []string
	Data string
}

// NewSMTPServer listens on a free port and serves until the test ends.
func NewSMTPServer(t testing.TB) *SMTPServer {
	t.Helper()
	s := &SMTPServer{received: make(chan struct{}, 1000)}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.Addr = ln.Addr().String()
	s.serve(ln)
	t.Cleanup(s.Stop)
	return s
}

// Port is the port the server listens on.
func (s *SMTPServer) Port() int { return s.ln.Addr().(*net.TCPAddr).Port }

func (s *SMTPServer) serve(ln net.Listener) {
	s.mu.Lock()
	s.ln = ln
	s.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go s.session(c)
		}
	}()
}

// Stop closes the listener: connections are refused until Start.
func (s *SMTPServer) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ln != nil {
		s.ln.Close()
		s.ln = nil
	}
}

// Start listens again on the same address.
func (s *SMTPServer) Start(t testing.TB) {
	t.Helper()
	var ln net.Listener
	deadline := time.Now().Add(5 * time.Second)
	for {
		var err error
		if ln, err = net.Listen("tcp", s.Addr); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("smtp restart: %v", err)
		}
		time.Sleep(20 * time.Millisecond) // the port is released asynchronously
	}
	s.serve(ln)
}

// SetFail4xx makes DATA answer 451 (a temporary failure) while on.
func (s *SMTPServer) SetFail4xx(on bool) {
	s.mu.Lock()
	s.fail4xx = on
	s.mu.Unlock()
}

// SetHang makes new sessions accept the connection and say nothing (a
// server that stalls every delivery) while on.
func (s *SMTPServer) SetHang(on bool) {
	s.mu.Lock()
	s.hang = on
	s.mu.Unlock()
}

// SetDelay makes each message's final answer come d after its data (a slow
// receiver).
func (s *SMTPServer) SetDelay(d time.Duration) {
	s.mu.Lock()
	s.delay = d
	s.mu.Unlock()
}

// Messages returns a copy of what was received.
func (s *SMTPServer) Messages() []SMTPMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]SMTPMessage(nil), s.msgs...)
}

// WaitFor waits until at least n messages arrived (or fails the test).
func (s *SMTPServer) WaitFor(t testing.TB, n int, timeout time.Duration) []SMTPMessage {
	t.Helper()
	deadline := time.After(timeout)
	for {
		if m := s.Messages(); len(m) >= n {
			return m
		}
		select {
		case <-s.received:
		case <-deadline:
			t.Fatalf("smtp: got %d messages, want %d", len(s.Messages()), n)
		}
	}
}

func (s *SMTPServer) session(c net.Conn) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	s.mu.Lock()
	hang := s.hang
	s.mu.Unlock()
	if hang {
		_, _ = io.Copy(io.Discard, c) // until the client goes away
		return
	}
	r := bufio.NewReader(c)
	say := func(line string) { fmt.Fprintf(c, "%s\r\n", line) }
	say("220 test ESMTP")
	var msg SMTPMessage
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		cmd := strings.ToUpper(strings.TrimSpace(line))
		switch {
		case strings.HasPrefix(cmd, "EHLO"):
			say("250-test")
			say("250 8BITMIME")
		case strings.HasPrefix(cmd, "HELO"):
			say("250 test")
		case strings.HasPrefix(cmd, "MAIL FROM:"):
			msg = SMTPMessage{From: strings.Trim(strings.TrimSpace(line)[10:], "<> ")}
			say("250 ok")
		case strings.HasPrefix(cmd, "RCPT TO:"):
			msg.To = append(msg.To, strings.Trim(strings.TrimSpace(line)[8:], "<> "))
			say("250 ok")
		case cmd == "DATA":
			s.mu.Lock()
			fail := s.fail4xx
			s.mu.Unlock()
			if fail {
				say("451 try again later")
				continue
			}
			say("354 go on")
			var b strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" || l == ".\n" {
					break
				}
				b.WriteString(strings.TrimPrefix(l, "."))
			}
			msg.Data = b.String()
			s.mu.Lock()
			delay := s.delay
			s.mu.Unlock()
			time.Sleep(delay) // the slow receiver's own time, not a wait in a test
			s.mu.Lock()
			s.msgs = append(s.msgs, msg)
			s.mu.Unlock()
			select {
			case s.received <- struct{}{}:
			default:
			}
			say("250 queued")
		case cmd == "RSET", cmd == "NOOP":
			say("250 ok")
		case cmd == "QUIT":
			say("221 bye")
			return
		default:
			say("502 unknown")
		}
	}
}

// ParsedMail is a received message split into its parts.
type ParsedMail struct {
	To, Subject, ContentType string
	Text, HTML               string
}

// Parse decodes a received message: headers, and the text and HTML parts
// of a multipart/alternative body.
func (m SMTPMessage) Parse(t testing.TB) ParsedMail {
	t.Helper()
	msg, err := mail.ReadMessage(strings.NewReader(m.Data))
	if err != nil {
		t.Fatalf("parse mail: %v", err)
	}
	dec := new(mime.WordDecoder)
	subj, _ := dec.DecodeHeader(msg.Header.Get("Subject"))
	out := ParsedMail{To: msg.Header.Get("To"), Subject: subj, ContentType: msg.Header.Get("Content-Type")}
	mt, params, err := mime.ParseMediaType(out.ContentType)
	if err != nil || mt != "multipart/alternative" {
		t.Fatalf("Content-Type %q, want multipart/alternative", out.ContentType)
	}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("mail part: %v", err)
		}
		var body io.Reader = p
		if p.Header.Get("Content-Transfer-Encoding") == "quoted-printable" {
			body = quotedprintable.NewReader(p)
		}
		b, _ := io.ReadAll(body)
		switch {
		case strings.HasPrefix(p.Header.Get("Content-Type"), "text/plain"):
			out.Text = string(b)
		case strings.HasPrefix(p.Header.Get("Content-Type"), "text/html"):
			out.HTML = string(b)
		}
	}
	return out
}

// HookReceiver is a webhook receiver on 127.0.0.1 that checks every request
// with its own implementation of the Standard Webhooks signature scheme.
type HookReceiver struct {
	URL    string
	Secret string // whsec_...; set before the first delivery

	mu     sync.Mutex
	got    []ReceivedHook
	plan   []int         // status codes to answer next, in order (then 200)
	delay  time.Duration // how long to wait before answering
	notify chan struct{}
	srv    *http.Server
	off    bool // OffContract: the deliveries are not validated
}

// OffContract turns the validation of deliveries off, for tests that post
// bodies that are not events (the sender's own tests).
func (h *HookReceiver) OffContract() {
	h.mu.Lock()
	h.off = true
	h.mu.Unlock()
}

// ReceivedHook is one request the receiver saw.
type ReceivedHook struct {
	ID, Type    string
	Timestamp   int64
	SignatureOK bool
	Status      int // what the receiver answered
	Body        map[string]any
	Raw         []byte      // the body as received
	Header      http.Header // the request's headers
}

// NewHookReceiver serves on a free port until the test ends. When the test
// ends, every delivery received is validated against the webhooks section
// of the OpenAPI document (ValidateWebhook): the headers and the payload
// schema of its event type.
func NewHookReceiver(t testing.TB) *HookReceiver {
	t.Helper()
	h := &HookReceiver{notify: make(chan struct{}, 10000)}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h.URL = "http://" + ln.Addr().String() + "/hooks"
	h.srv = &http.Server{Handler: h}
	go h.srv.Serve(ln)
	t.Cleanup(func() {
		h.srv.Close()
		h.mu.Lock()
		off := h.off
		h.mu.Unlock()
		reported := map[string]bool{}
		for _, r := range h.Received() {
			if off {
				break
			}
			if msg := ValidateWebhook(r.Header, r.Raw); msg != "" && !reported[msg] {
				reported[msg] = true
				t.Errorf("%s", msg)
			}
		}
	})
	return h
}

// Answer queues status codes for the next requests (then 200 again); with
// no codes it clears the queue.
func (h *HookReceiver) Answer(codes ...int) {
	h.mu.Lock()
	if len(codes) == 0 {
		h.plan = nil
	}
	h.plan = append(h.plan, codes...)
	h.mu.Unlock()
}

// SetDelay makes the receiver wait before answering (to cause timeouts).
func (h *HookReceiver) SetDelay(d time.Duration) {
	h.mu.Lock()
	h.delay = d
	h.mu.Unlock()
}

// Received returns a copy of every request seen.
func (h *HookReceiver) Received() []ReceivedHook {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]ReceivedHook(nil), h.got...)
}

// WaitFor waits until at least n requests arrived.
func (h *HookReceiver) WaitFor(t testing.TB, n int, timeout time.Duration) []ReceivedHook {
	t.Helper()
	deadline := time.After(timeout)
	for {
		if r := h.Received(); len(r) >= n {
			return r
		}
		select {
		case <-h.notify:
		case <-deadline:
			t.Fatalf("webhooks: got %d requests, want %d", len(h.Received()), n)
		}
	}
}

func (h *HookReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	h.mu.Lock()
	secret, delay := h.Secret, h.delay
	status := http.StatusOK
	if len(h.plan) > 0 {
		status, h.plan = h.plan[0], h.plan[1:]
	}
	h.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
		}
	}
	rec := ReceivedHook{ID: r.Header.Get("webhook-id"), Status: status, Raw: body, Header: r.Header.Clone()}
	fmt.Sscan(r.Header.Get("webhook-timestamp"), &rec.Timestamp)
	rec.SignatureOK = VerifyStandardWebhook(secret, r.Header.Get("webhook-id"), r.Header.Get("webhook-timestamp"), r.Header.Get("webhook-signature"), body)
	_ = json.Unmarshal(body, &rec.Body)
	rec.Type, _ = rec.Body["type"].(string)
	h.mu.Lock()
	h.got = append(h.got, rec)
	h.mu.Unlock()
	select {
	case h.notify <- struct{}{}:
	default:
	}
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"received":%q}`, rec.ID)
}

// VerifyStandardWebhook checks a webhook-signature header (space-separated
// "v1,<base64>" entries) against HMAC-SHA256 of "id.timestamp.body" keyed
// with the base64-decoded secret after "whsec_": written here from the
// Standard Webhooks specification, apart from the server's code.
func VerifyStandardWebhook(secret, id, ts, sigHeader string, body []byte) bool {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil || id == "" || ts == "" {
		return false
	}
	mac := hmac.New(sha256.New, key)
	io.WriteString(mac, id)
	io.WriteString(mac, ".")
	io.WriteString(mac, ts)
	io.WriteString(mac, ".")
	mac.Write(body)
	want := mac.Sum(nil)
	for _, part := range strings.Fields(sigHeader) {
		ver, sig, ok := strings.Cut(part, ",")
		if !ok || ver != "v1" {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(sig)
		if err == nil && hmac.Equal(got, want) {
			return true
		}
	}
	return false
}
