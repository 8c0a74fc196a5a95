package mail

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"io"
	"math/big"
	"mime"
	"mime/multipart"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"storefront/app"
)

// fakeServer is a minimal SMTP server: it records what one session sent.
type fakeServer struct {
	ln       net.Listener
	tlsCfg   *tls.Config
	implicit bool

	mu   sync.Mutex
	auth string
	from string
	rcpt string
	data string
	tls  bool
	done chan struct{}
}

func newFakeServer(t *testing.T, implicit bool) (*fakeServer, *tls.Config) {
	t.Helper()
	cert, pool := testCert(t)
	srv := &fakeServer{tlsCfg: &tls.Config{Certificates: []tls.Certificate{cert}}, implicit: implicit, done: make(chan struct{})}
	var err error
	if implicit {
		srv.ln, err = tls.Listen("tcp", "127.0.0.1:0", srv.tlsCfg)
	} else {
		srv.ln, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.ln.Close() })
	go srv.serve()
	return srv, &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"}
}

func (s *fakeServer) port() int { return s.ln.Addr().(*net.TCPAddr).Port }

func (s *fakeServer) serve() {
	defer close(s.done)
	conn, err := s.ln.Accept()
	if err != nil {
		return
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	s.mu.Lock()
	s.tls = s.implicit
	s.mu.Unlock()
	r, w := bufio.NewReader(conn), conn
	say := func(l string) { io.WriteString(w, l+"\r\n") }
	say("220 fake ESMTP")
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		cmd := strings.ToUpper(strings.SplitN(line, " ", 2)[0])
		s.mu.Lock()
		secure := s.tls
		s.mu.Unlock()
		switch cmd {
		case "EHLO":
			say("250-fake")
			if !secure {
				say("250-STARTTLS")
			}
			say("250 AUTH PLAIN")
		case "STARTTLS":
			say("220 go ahead")
			tc := tls.Server(conn, s.tlsCfg)
			if tc.Handshake() != nil {
				return
			}
			conn, r, w = tc, bufio.NewReader(tc), tc
			s.mu.Lock()
			s.tls = true
			s.mu.Unlock()
		case "AUTH":
			s.mu.Lock()
			s.auth = line
			s.mu.Unlock()
			say("235 ok")
		case "MAIL":
			s.mu.Lock()
			s.from = line
			s.mu.Unlock()
			say("250 ok")
		case "RCPT":
			s.mu.Lock()
			s.rcpt = line
			s.mu.Unlock()
			say("250 ok")
		case "DATA":
			say("354 go")
			var b strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
				b.WriteString(l)
			}
			s.mu.Lock()
			s.data = b.String()
			s.mu.Unlock()
			say("250 queued")
		case "QUIT":
			say("221 bye")
			return
		default:
			say("502 no")
		}
	}
}

func testCert(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "fake"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(c)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, pool
}

func testMail() app.Mail {
	st := &app.Store{ID: 1, Name: "Shop Ä"}
	m := app.NewMail(st, "ada@example.com", "Your code\r\nBcc: evil@example.com", "Your code is 123456.\n\nBye.")
	return m
}

func checkDelivered(t *testing.T, srv *fakeServer, wantTLS, wantAuth bool) {
	t.Helper()
	<-srv.done
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if srv.tls != wantTLS {
		t.Errorf("got tls %v, want %v", srv.tls, wantTLS)
	}
	if wantAuth {
		want := "AUTH PLAIN " + base64.StdEncoding.EncodeToString([]byte("\x00user\x00pass"))
		if srv.auth != want {
			t.Errorf("got %q, want %q", srv.auth, want)
		}
	} else if srv.auth != "" {
		t.Errorf("got %q, want no AUTH", srv.auth)
	}
	if srv.from != "MAIL FROM:<noreply@shop.example>" && !strings.HasPrefix(srv.from, "MAIL FROM:<noreply@shop.example>") {
		t.Errorf("got %q", srv.from)
	}
	if !strings.HasPrefix(srv.rcpt, "RCPT TO:<ada@example.com>") {
		t.Errorf("got %q", srv.rcpt)
	}
	msg, err := mail.ReadMessage(strings.NewReader(srv.data))
	if err != nil {
		t.Fatalf("read message: %v\n%s", err, srv.data)
	}
	if msg.Header.Get("Bcc") != "" {
		t.Errorf("header injection: Bcc %q", msg.Header.Get("Bcc"))
	}
	subj, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil || !strings.Contains(subj, "Shop Ä") || !strings.Contains(subj, "Your code") {
		t.Errorf("got subject %q (%v)", subj, err)
	}
	mr := multipart.NewReader(msg.Body, boundaryOf(t, msg.Header.Get("Content-Type")))
	var types []string
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(p)
		types = append(types, p.Header.Get("Content-Type"))
		if !strings.Contains(string(body), "123456") {
			t.Errorf("part %s lacks the body: %s", p.Header.Get("Content-Type"), body)
		}
	}
	if len(types) != 2 || !strings.HasPrefix(types[0], "text/plain") || !strings.HasPrefix(types[1], "text/html") {
		t.Errorf("got parts %v, want text/plain then text/html", types)
	}
}

func TestSMTPModes(t *testing.T) {
	for _, tc := range []struct {
		mode     string
		implicit bool
		auth     bool
		wantTLS  bool
	}{
		{TLSNone, false, false, false},
		{TLSStartTLS, false, true, true},
		{TLSImplicit, true, true, true},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			srv, clientTLS := newFakeServer(t, tc.implicit)
			cfg := Config{Host: "127.0.0.1", Port: srv.port(), From: "Shop <noreply@shop.example>", TLS: tc.mode, Timeout: 5 * time.Second, tlsConfig: clientTLS}
			if tc.auth {
				cfg.Username, cfg.Password = "user", "pass"
			}
			if err := cfg.Validate(); err != nil {
				t.Fatal(err)
			}
			if err := NewSMTP(cfg).Send(testMail()); err != nil {
				t.Fatalf("send: %v", err)
			}
			checkDelivered(t, srv, tc.wantTLS, tc.auth)
		})
	}
}

func TestSMTPErrors(t *testing.T) {
	for _, cfg := range []Config{
		{Host: "", From: "a@b.example"},
		{Host: "h", From: "not an address"},
		{Host: "h", From: "a@b.example", TLS: "ssl"},
	} {
		if cfg.Validate() == nil {
			t.Errorf("%+v: got nil, want an error", cfg)
		}
		if NewSMTP(cfg).Send(testMail()) == nil {
			t.Errorf("%+v: send: got nil, want an error", cfg)
		}
	}
	// a closed port fails fast, and the error does not carry the message.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	err := NewSMTP(Config{Host: "127.0.0.1", Port: port, From: "a@b.example", Timeout: time.Second}).Send(testMail())
	if err == nil {
		t.Fatal("send to a closed port: got nil, want an error")
	}
	if strings.Contains(err.Error(), "123456") {
		t.Fatalf("error leaks the body: %v", err)
	}
}

func boundaryOf(t *testing.T, ct string) string {
	t.Helper()
	_, params, err := mime.ParseMediaType(ct)
	if err != nil || params["boundary"] == "" {
		t.Fatalf("content type %q: %v", ct, err)
	}
	return params["boundary"]
}

// TestSMTPMessageID: a stored mail's Message-ID comes from its store and
// outbox ids at the sender's domain, the same at every send; a mail never
// stored gets a random one.
func TestSMTPMessageID(t *testing.T) {
	send := func(m app.Mail) string {
		srv, _ := newFakeServer(t, false)
		cfg := Config{Host: "127.0.0.1", Port: srv.port(), From: "Shop <noreply@shop.example>", TLS: TLSNone, Timeout: 5 * time.Second}
		if err := NewSMTP(cfg).Send(m); err != nil {
			t.Fatalf("send: %v", err)
		}
		<-srv.done
		srv.mu.Lock()
		defer srv.mu.Unlock()
		msg, err := mail.ReadMessage(strings.NewReader(srv.data))
		if err != nil {
			t.Fatalf("read message: %v", err)
		}
		return msg.Header.Get("Message-ID")
	}
	m := testMail()
	m.StoreID, m.ID = 7, 42
	first, again := send(m), send(m)
	if want := "<storefront.7.42@shop.example>"; first != want || again != want {
		t.Errorf("got %q then %q, want %q both times", first, again, want)
	}
	m.ID = 0
	if a, b := send(m), send(m); a == b || !strings.HasSuffix(a, "@shop.example>") {
		t.Errorf("unstored mail: got %q and %q, want two random ids at shop.example", a, b)
	}
}
