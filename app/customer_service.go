package app

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math/big"
	"sort"
	"strings"
	"sync"
	"time"
)

// CustomerService registers and logs shoppers in, keeps their sessions
// (refresh token chains), email codes, profile and saved addresses.
type CustomerService struct {
	s customerDeps

	mu      sync.Mutex
	codeKey []byte    // HMAC key of email codes, loaded on first use
	pruned  time.Time // last delete of expired stored revocations

	rev *Revocations // revoked access tokens, checked on every shopper request

	// The work of ForgotPassword (look-up, code, mail) runs after its answer,
	// so a registered email is answered as fast as any other.
	forgotWG    sync.WaitGroup
	forgotSlots chan struct{} // ForgotQueue resets under way at most
}

// ForgotQueue is how many password-reset requests may be under way at once;
// one more is 429 rate_limited (for any email: it reveals nothing).
const ForgotQueue = 64

func newCustomerService(d customerDeps, rev *Revocations) *CustomerService {
	cs := &CustomerService{s: d, rev: rev, forgotSlots: make(chan struct{}, ForgotQueue)}
	if err := cs.LoadRevocations(); err != nil {
		// main calls LoadRevocations again and stops on its error
		d.Log.Error("loading token revocations", "err", err)
	}
	return cs
}

// Registration is the body of POST /api/v1/customer/auth/register/.
type Registration struct {
	Email           string `json:"email"`
	Password        string `json:"password"`
	PasswordConfirm string `json:"password_confirm"`
	FirstName       string `json:"first_name"`
	LastName        string `json:"last_name"`
	Phone           string `json:"phone"`
}

// PasswordReset is the body of POST /api/v1/customer/auth/password/reset/.
type PasswordReset struct {
	Email           string `json:"email"`
	Code            string `json:"code"`
	Password        string `json:"password"`
	PasswordConfirm string `json:"password_confirm"`
}

// ProfileInput is the body of PATCH /api/v1/customer/me/: only the fields sent change.
type ProfileInput struct {
	FirstName *string `json:"first_name"`
	LastName  *string `json:"last_name"`
	Phone     *string `json:"phone"`
}

// TokenResult is the data of register, login and refresh (storefront-api.md).
type TokenResult struct {
	AccessToken      string    `json:"access_token"`
	RefreshToken     string    `json:"refresh_token"`
	AccessExpiresAt  time.Time `json:"access_expires_at"`
	RefreshExpiresAt time.Time `json:"refresh_expires_at"`
	TokenType        string    `json:"token_type"`
	Customer         Profile   `json:"customer"`
	// DeviceToken (login only) is sent back as device_token on later logins
	// from this device: its failures count on its own budget, and failures
	// elsewhere never lock it out.
	DeviceToken string `json:"device_token,omitempty"`
}

var (
	errBadRefresh = Errorf(EUnauthorized, "invalid, expired or revoked refresh token")
	errBadCreds   = Errorf(EInvalidCreds, "wrong email or password")
	errGone       = Errorf(EUnauthorized, "this account no longer exists")
)

func errBadCode() error { return Invalid("code", "is wrong or has expired") }

// Register creates a customer of st, sends the email verification code and
// logs the customer in. Errors: validation_failed, conflict (email taken).
func (cs *CustomerService) Register(st *Store, in Registration) (*TokenResult, error) {
	in.Email = NormalizeEmail(in.Email)
	in.FirstName, in.LastName, in.Phone = strings.TrimSpace(in.FirstName), strings.TrimSpace(in.LastName), strings.TrimSpace(in.Phone)
	var v Validation
	v.Email("email", in.Email)
	v.Password("password", in.Password, "password_confirm", in.PasswordConfirm)
	v.Text("first_name", in.FirstName, true, MaxNameLen)
	v.Text("last_name", in.LastName, false, MaxNameLen)
	v.Phone("phone", in.Phone, false)
	if err := v.Err(); err != nil {
		return nil, err
	}
	hash, err := cs.s.Pass.Hash(in.Password)
	if err != nil {
		return nil, err
	}
	code, err := newCode()
	if err != nil {
		return nil, err
	}
	if err := cs.loadCodeKey(); err != nil {
		return nil, err
	}
	var res *TokenResult
	var c *Customer
	err = cs.s.DB.Update(func(tx Tx) error {
		now := UTC(tx.Now())
		c = &Customer{StoreID: st.ID, Email: in.Email, PasswordHash: hash, FirstName: in.FirstName,
			LastName: in.LastName, Phone: in.Phone, CreatedAt: now, UpdatedAt: now}
		if err := tx.CreateCustomer(c); err != nil {
			return err
		}
		if err := cs.putCode(tx, c, CodeVerify, code); err != nil {
			return err
		}
		if err := QueueKind(tx, st.ID, MailVerifyCode, c.Email, MailData{Code: code}); err != nil {
			return err
		}
		res, err = cs.startSession(tx, c)
		return err
	})
	if err != nil {
		return nil, err
	}
	cs.s.kick()
	return res, nil
}

// Login checks the credentials and starts a session (LoginWith from an
// unknown address without a device token).
func (cs *CustomerService) Login(st *Store, email, password string) (*TokenResult, error) {
	return cs.LoginWith(st, LoginRequest{Email: email, Password: password})
}

// LoginWith checks the credentials and starts a session. An unknown email
// costs the same password work as a wrong password. The login slots are
// taken first (takeShopperLogin: a known address or a valid device token of
// the account is never locked out by failures elsewhere) and given back on
// success, which also returns a new device token. Errors:
// invalid_credentials, rate_limited.
func (cs *CustomerService) LoginWith(st *Store, in LoginRequest) (*TokenResult, error) {
	email := NormalizeEmail(in.Email)
	device := ""
	if in.Device != "" {
		if c, err := view(cs.s.DB, func(tx Tx) (*Customer, error) { return tx.CustomerByEmail(st.ID, email) }); err == nil {
			device = deviceOf(cs.s.Tokens, in.Device, st.ID, c.ID)
		}
	}
	att, err := cs.s.takeShopperLogin(st.ID, email, in.IP, device)
	if err != nil {
		return nil, err
	}
	res, err := cs.login(st, in.Email, in.Password)
	if err == nil {
		res.DeviceToken, err = issueDevice(cs.s.Tokens, cs.s.Now(), st.ID, res.Customer.ID)
	}
	att.done(err)
	if err != nil {
		return nil, err
	}
	return res, nil
}

func (cs *CustomerService) login(st *Store, email, password string) (*TokenResult, error) {
	c, err := view(cs.s.DB, func(tx Tx) (*Customer, error) { return tx.CustomerByEmail(st.ID, email) })
	if IsNotFound(err) || strings.TrimSpace(email) == "" {
		cs.s.Pass.Dummy(password)
		return nil, errBadCreds
	}
	if err != nil {
		return nil, err
	}
	if !cs.s.Pass.Compare(c.PasswordHash, password) {
		return nil, errBadCreds
	}
	var res *TokenResult
	err = cs.s.DB.Update(func(tx Tx) error {
		var err error
		res, err = cs.startSession(tx, c)
		return err
	})
	return res, err
}

// Refresh spends a refresh token and returns a new pair of the same chain.
// A token already spent revokes its whole chain. Errors: unauthorized.
func (cs *CustomerService) Refresh(st *Store, token string) (*TokenResult, error) {
	var res *TokenResult
	err := cs.spend(st, token, func(tx Tx, sess *Session) error {
		c, err := tx.Customer(sess.StoreID, sess.CustomerID)
		if IsNotFound(err) {
			return errGone
		}
		if err != nil {
			return err
		}
		fam, _, _ := parseRefresh(token)
		now := UTC(tx.Now())
		tok, hash, err := newRefresh(fam)
		if err != nil {
			return err
		}
		sess.Hash, sess.Rotations, sess.ExpiresAt = hash, sess.Rotations+1, now.Add(cs.s.Opt.RefreshTTL)
		if err := tx.PutSession(sess); err != nil {
			return err
		}
		res, err = cs.tokens(c, sess.Key, now, tok, sess.ExpiresAt)
		return err
	})
	return res, err
}

// Logout revokes the chain of a refresh token. Errors: unauthorized.
// The chain's access tokens are revoked with it.
func (cs *CustomerService) Logout(st *Store, token string) error {
	var rvs []*Revocation
	err := cs.spend(st, token, func(tx Tx, sess *Session) error {
		if err := tx.DeleteSession(sess.StoreID, sess.Key); err != nil {
			return err
		}
		var err error
		rvs, err = cs.revokeSessions(tx, sess.StoreID, sess.Key)
		return err
	})
	if err == nil {
		cs.commitRevocations(rvs...)
	}
	return err
}

// spend finds the session of a refresh token and runs use on it when the
// token is the chain's current one. A spent token of a live chain deletes
// the chain (committed), revokes its access tokens and is unauthorized.
func (cs *CustomerService) spend(st *Store, token string, use func(Tx, *Session) error) error {
	_, key, hash, ok := parseRefreshKey(token)
	if !ok {
		return errBadRefresh
	}
	var reused *Session
	var rvs []*Revocation
	err := cs.s.DB.Update(func(tx Tx) error {
		reused, rvs = nil, nil
		sess, err := tx.Session(st.ID, key)
		if IsNotFound(err) {
			return errBadRefresh
		}
		if err != nil {
			return err
		}
		if !tx.Now().Before(sess.ExpiresAt) {
			if err := tx.DeleteSession(st.ID, key); err != nil {
				return err
			}
			reused = &Session{} // expired: committed delete, then unauthorized
			return nil
		}
		if subtle.ConstantTimeCompare(sess.Hash, hash) != 1 {
			if err := tx.DeleteSession(st.ID, key); err != nil {
				return err
			}
			reused = sess
			rvs, err = cs.revokeSessions(tx, st.ID, key)
			return err
		}
		return use(tx, sess)
	})
	if err != nil {
		return err
	}
	if reused != nil {
		cs.commitRevocations(rvs...)
		if reused.CustomerID != 0 {
			cs.s.Log.Warn("refresh token reused; session revoked", "store_id", st.ID, "customer_id", reused.CustomerID)
		}
		return errBadRefresh
	}
	return nil
}

// startSession begins a new refresh chain for c, dropping c's expired
// sessions and, past MaxSessions, the least recently used ones.
func (cs *CustomerService) startSession(tx sessionTx, c *Customer) (*TokenResult, error) {
	now := UTC(tx.Now())
	sessions, err := tx.Sessions(c.StoreID, c.ID)
	if err != nil {
		return nil, err
	}
	// most recently used first: a chain's expiry moves with each refresh
	sort.Slice(sessions, func(i, j int) bool { return sessions[i].ExpiresAt.After(sessions[j].ExpiresAt) })
	live := 0
	for _, s := range sessions {
		if !now.Before(s.ExpiresAt) || live >= MaxSessions-1 {
			if err := tx.DeleteSession(s.StoreID, s.Key); err != nil {
				return nil, err
			}
			continue
		}
		live++
	}
	fam := make([]byte, familyLen)
	if _, err := rand.Read(fam); err != nil {
		return nil, err
	}
	tok, hash, err := newRefresh(fam)
	if err != nil {
		return nil, err
	}
	famKey := sha256.Sum256(fam)
	sess := &Session{StoreID: c.StoreID, CustomerID: c.ID, Key: famKey[:], Hash: hash, CreatedAt: now, ExpiresAt: now.Add(cs.s.Opt.RefreshTTL)}
	if err := tx.PutSession(sess); err != nil {
		return nil, err
	}
	return cs.tokens(c, sess.Key, now, tok, sess.ExpiresAt)
}

// tokens issues the access token of session key and builds the token result.
func (cs *CustomerService) tokens(c *Customer, sessionKey []byte, now time.Time, refresh string, refreshExp time.Time) (*TokenResult, error) {
	exp := UTC(now.Add(cs.s.Opt.AccessTTL))
	access, err := cs.s.Tokens.Issue(Claims{Kind: TokenShopper, StoreID: c.StoreID, Subject: c.ID,
		Session: ChainID(sessionKey), IssuedAt: UTC(now), ExpiresAt: exp})
	if err != nil {
		return nil, err
	}
	return &TokenResult{AccessToken: access, RefreshToken: refresh, AccessExpiresAt: exp,
		RefreshExpiresAt: UTC(refreshExp), TokenType: "Bearer", Customer: c.Profile()}, nil
}

// Refresh tokens are base64url(family id (16 bytes) | secret (32 bytes)).
// The family id names the chain; each rotation keeps it and draws a new secret.
const (
	familyLen  = 16
	secretLen  = 32
	refreshLen = 64 // base64url characters of familyLen+secretLen bytes
)

func newRefresh(fam []byte) (token string, hash []byte, err error) {
	raw := make([]byte, familyLen+secretLen)
	copy(raw, fam)
	if _, err := rand.Read(raw[familyLen:]); err != nil {
		return "", nil, err
	}
	token = base64.RawURLEncoding.EncodeToString(raw)
	h := sha256.Sum256([]byte(token))
	return token, h[:], nil
}

func parseRefresh(token string) (fam, hash []byte, ok bool) {
	if len(token) != refreshLen {
		return nil, nil, false
	}
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(raw) != familyLen+secretLen {
		return nil, nil, false
	}
	h := sha256.Sum256([]byte(token))
	return raw[:familyLen], h[:], true
}

func parseRefreshKey(token string) (fam, key, hash []byte, ok bool) {
	fam, hash, ok = parseRefresh(token)
	if !ok {
		return nil, nil, nil, false
	}
	k := sha256.Sum256(fam)
	return fam, k[:], hash, true
}

// VerifyEmail checks the verification code and marks the email verified; the
// miss that burns the code mails the shopper (lockedMail).
// Errors: validation_failed (wrong, expired or burnt code), unauthorized.
func (cs *CustomerService) VerifyEmail(st *Store, sh *Shopper, code string) (Profile, error) {
	if err := checkCodeFormat(code); err != nil {
		return Profile{}, err
	}
	if err := cs.loadCodeKey(); err != nil {
		return Profile{}, err
	}
	var p Profile
	var codeErr error
	var lockedTo string
	err := cs.s.DB.Update(func(tx Tx) error {
		codeErr, lockedTo = nil, ""
		c, err := tx.Customer(sh.StoreID, sh.CustomerID)
		if IsNotFound(err) {
			return errGone
		}
		if err != nil {
			return err
		}
		if c.EmailVerified {
			p = c.Profile()
			return nil
		}
		good, locked, err := cs.useCode(tx, c, CodeVerify, code)
		if err != nil {
			return err
		}
		if locked {
			lockedTo = c.Email
		}
		if !good {
			codeErr = errBadCode()
			return nil // keep the counted try
		}
		c.EmailVerified, c.UpdatedAt = true, UTC(tx.Now())
		if err := tx.PutCustomer(c); err != nil {
			return err
		}
		p = c.Profile()
		return nil
	})
	if err == nil && lockedTo != "" {
		cs.s.SendMail(lockedMail(st, lockedTo, CodeVerify))
	}
	if err == nil {
		err = codeErr
	}
	return p, err
}

// ResendCode replaces the verification code with a new one and mails it.
// Errors: conflict (already verified), unauthorized.
func (cs *CustomerService) ResendCode(st *Store, sh *Shopper) error {
	code, err := newCode()
	if err == nil {
		err = cs.loadCodeKey()
	}
	if err != nil {
		return err
	}
	var c *Customer
	err = cs.s.DB.Update(func(tx Tx) error {
		var err error
		if c, err = tx.Customer(sh.StoreID, sh.CustomerID); IsNotFound(err) {
			return errGone
		} else if err != nil {
			return err
		}
		if c.EmailVerified {
			return Errorf(EConflict, "the email address is already verified")
		}
		if err := cs.putCode(tx, c, CodeVerify, code); err != nil {
			return err
		}
		return QueueKind(tx, st.ID, MailVerifyCode, c.Email, MailData{Code: code})
	})
	if err != nil {
		return err
	}
	cs.s.kick()
	return nil
}

// ForgotPassword mails a reset code when email belongs to a customer of st.
// Its answer is the same either way and so is its time: it only checks the
// address and queues the rest (look-up, code, mail), which runs after the
// answer. Errors: validation_failed (not an email), rate_limited (ForgotQueue
// requests already under way).
func (cs *CustomerService) ForgotPassword(st *Store, email string) error {
	email = NormalizeEmail(email)
	var v Validation
	v.Email("email", email)
	if err := v.Err(); err != nil {
		return err
	}
	select {
	case cs.forgotSlots <- struct{}{}:
	default:
		return RateLimited("too many password resets under way; retry shortly", time.Second)
	}
	store := *st // the request's store value may be reused once it is answered
	cs.forgotWG.Add(1)
	go func() {
		defer func() { <-cs.forgotSlots; cs.forgotWG.Done() }()
		if err := cs.sendResetCode(&store, email); err != nil {
			cs.s.Log.Error("password reset code", "store_id", store.ID, "err", err)
		}
	}()
	return nil
}

// WaitForgotten waits until every queued ForgotPassword has done its work
// (shutdown before the database closes; tests before they read the outbox).
func (cs *CustomerService) WaitForgotten() { cs.forgotWG.Wait() }

// sendResetCode stores a fresh reset code for email's customer of st and
// mails it; an unknown email does nothing.
func (cs *CustomerService) sendResetCode(st *Store, email string) error {
	code, err := newCode()
	if err == nil {
		err = cs.loadCodeKey()
	}
	if err != nil {
		return err
	}
	var c *Customer
	err = cs.s.DB.Update(func(tx Tx) error {
		var err error
		c, err = tx.CustomerByEmail(st.ID, email)
		if IsNotFound(err) {
			c = nil
			return nil
		}
		if err != nil {
			return err
		}
		if err := cs.putCode(tx, c, CodeReset, code); err != nil {
			return err
		}
		return QueueKind(tx, st.ID, MailPasswordReset, c.Email, MailData{Code: code})
	})
	if err != nil {
		return err
	}
	if c != nil {
		cs.s.kick()
	}
	return nil
}

// ResetPassword sets a new password with a reset code, marks the email
// verified (the code proves it) and revokes every session of the customer.
// Errors: validation_failed (fields, or a wrong/expired code or unknown email).
func (cs *CustomerService) ResetPassword(st *Store, in PasswordReset) error {
	in.Email = NormalizeEmail(in.Email)
	if err := in.validate(); err != nil {
		return err
	}
	hash, err := cs.s.Pass.Hash(in.Password)
	if err == nil {
		err = cs.loadCodeKey()
	}
	if err != nil {
		return err
	}
	var codeErr error
	var cid uint64
	var rvs []*Revocation
	var lockedTo string
	err = cs.s.DB.Update(func(tx Tx) error {
		codeErr, rvs, lockedTo = nil, nil, ""
		c, err := tx.CustomerByEmail(st.ID, in.Email)
		if IsNotFound(err) {
			codeErr = errBadCode()
			return nil
		}
		if err != nil {
			return err
		}
		good, locked, err := cs.useCode(tx, c, CodeReset, in.Code)
		if err != nil {
			return err
		}
		if locked {
			lockedTo = c.Email
		}
		if !good {
			codeErr = errBadCode()
			return nil
		}
		c.PasswordHash, c.EmailVerified, c.UpdatedAt = hash, true, UTC(tx.Now())
		if err := tx.PutCustomer(c); err != nil {
			return err
		}
		if err := tx.DeleteEmailCode(c.StoreID, c.ID, CodeVerify); err != nil {
			return err
		}
		cid = c.ID
		rvs, err = cs.endSessions(tx, c)
		return err
	})
	if err == nil && codeErr == nil {
		cs.commitRevocations(rvs...)
		cs.s.Log.Info("password reset; sessions and access tokens revoked", "store_id", st.ID, "customer_id", cid)
	}
	if err == nil && lockedTo != "" {
		cs.s.SendMail(lockedMail(st, lockedTo, CodeReset))
	}
	if err == nil {
		err = codeErr
	}
	return err
}

// validate checks a password reset's fields (the email already normalised).
func (in PasswordReset) validate() error {
	var v Validation
	v.Email("email", in.Email)
	if checkCodeFormat(in.Code) != nil {
		v.Add("code", "must be the 6-digit code")
	}
	v.Password("password", in.Password, "password_confirm", in.PasswordConfirm)
	return v.Err()
}

// endSessions deletes every session of c and revokes its access tokens:
// those issued before now (whole seconds) by the not-before time, those of
// this very second by their sessions. The revocations are committed by the
// caller once the transaction is.
func (cs *CustomerService) endSessions(tx signOutTx, c *Customer) ([]*Revocation, error) {
	sessions, err := tx.Sessions(c.StoreID, c.ID)
	if err != nil {
		return nil, err
	}
	keys := make([][]byte, 0, len(sessions))
	for _, s := range sessions {
		if err := tx.DeleteSession(s.StoreID, s.Key); err != nil {
			return nil, err
		}
		keys = append(keys, s.Key)
	}
	rv, err := cs.revokeCustomer(tx, c.StoreID, c.ID)
	if err != nil {
		return nil, err
	}
	rvs, err := cs.revokeSessions(tx, c.StoreID, keys...)
	if err != nil {
		return nil, err
	}
	return append(rvs, rv), nil
}

// putCode stores a fresh code of purpose for c (tries start again).
func (cs *CustomerService) putCode(tx sessionTx, c *Customer, purpose, code string) error {
	h, err := cs.hashCode(c.StoreID, c.ID, purpose, code)
	if err != nil {
		return err
	}
	return tx.PutEmailCode(&EmailCode{StoreID: c.StoreID, CustomerID: c.ID, Purpose: purpose, Hash: h, ExpiresAt: UTC(tx.Now()).Add(CodeTTL)})
}

// useCode checks code against c's pending code of purpose. A match deletes
// the code; a miss counts a try and burns the code at CodeMaxTries (locked
// reports that: the caller mails the shopper, lockedMail); an expired code is
// deleted. The caller must commit even when it reports false.
func (cs *CustomerService) useCode(tx sessionTx, c *Customer, purpose, code string) (good, locked bool, err error) {
	ec, err := tx.EmailCode(c.StoreID, c.ID, purpose)
	if IsNotFound(err) {
		return false, false, nil
	}
	if err != nil {
		return false, false, err
	}
	if !tx.Now().Before(ec.ExpiresAt) {
		return false, false, tx.DeleteEmailCode(c.StoreID, c.ID, purpose)
	}
	h, err := cs.hashCode(c.StoreID, c.ID, purpose, code)
	if err != nil {
		return false, false, err
	}
	if hmac.Equal(h, ec.Hash) {
		return true, false, tx.DeleteEmailCode(c.StoreID, c.ID, purpose)
	}
	ec.Tries++
	if ec.Tries >= CodeMaxTries {
		return false, true, tx.DeleteEmailCode(c.StoreID, c.ID, purpose)
	}
	return false, false, tx.PutEmailCode(ec)
}

// hashCode is HMAC-SHA256 over the code and whose code it is, keyed with a
// server secret: a leaked database does not give the codes away by a
// million-guess search.
// loadCodeKey must run before the transaction of any hashCode call: the
// secret is made in a transaction of its own.
func (cs *CustomerService) hashCode(storeID, customerID uint64, purpose, code string) ([]byte, error) {
	cs.mu.Lock()
	key := cs.codeKey
	cs.mu.Unlock()
	if key == nil {
		return nil, fmt.Errorf("app: email code key not loaded")
	}
	m := hmac.New(sha256.New, key)
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], storeID)
	binary.BigEndian.PutUint64(b[8:], customerID)
	m.Write(b[:])
	m.Write([]byte(purpose + "|" + code))
	return m.Sum(nil), nil
}

// loadCodeKey reads (or makes) the email code secret once.
func (cs *CustomerService) loadCodeKey() error {
	cs.mu.Lock()
	loaded := cs.codeKey != nil
	cs.mu.Unlock()
	if loaded {
		return nil
	}
	key, err := cs.s.DB.Secret("email_codes")
	if err != nil {
		return err
	}
	cs.mu.Lock()
	cs.codeKey = key
	cs.mu.Unlock()
	return nil
}

// newCode draws a uniform 6-digit code.
func newCode() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%06d", n.Int64()), nil
}

func checkCodeFormat(code string) error {
	if len(code) != 6 {
		return Invalid("code", "must be the 6-digit code")
	}
	for i := 0; i < len(code); i++ {
		if code[i] < '0' || code[i] > '9' {
			return Invalid("code", "must be the 6-digit code")
		}
	}
	return nil
}

// lockedMail tells the shopper that their code of purpose was burnt by
// CodeMaxTries wrong tries: if it was not them, someone is guessing.
func lockedMail(st *Store, to, purpose string) Mail {
	what, again := "email verification", "ask for a new code (resend the verification code)"
	if purpose == CodeReset {
		what, again = "password reset", "ask for a new one (forgot password)"
	}
	return NewMail(st, to, "Your "+what+" code was locked",
		fmt.Sprintf("Your %s code was entered wrongly %d times and no longer works.\n\nIf that was you, %s. If it was not you, someone may be guessing your code: your password and account are unchanged.", what, CodeMaxTries, again))
}

// Me returns the profile of the shopper. Errors: unauthorized.
func (cs *CustomerService) Me(sh *Shopper) (Profile, error) {
	var p Profile
	err := cs.s.DB.View(func(tx Tx) error {
		c, err := tx.Customer(sh.StoreID, sh.CustomerID)
		if IsNotFound(err) {
			return errGone
		}
		if err != nil {
			return err
		}
		p = c.Profile()
		return nil
	})
	return p, err
}

// UpdateMe changes the fields sent. Errors: validation_failed, unauthorized.
func (cs *CustomerService) UpdateMe(sh *Shopper, in ProfileInput) (Profile, error) {
	var v Validation
	trim := func(p *string) {
		if p != nil {
			*p = strings.TrimSpace(*p)
		}
	}
	trim(in.FirstName)
	trim(in.LastName)
	trim(in.Phone)
	if in.FirstName != nil {
		v.Text("first_name", *in.FirstName, true, MaxNameLen)
	}
	if in.LastName != nil {
		v.Text("last_name", *in.LastName, false, MaxNameLen)
	}
	if in.Phone != nil {
		v.Phone("phone", *in.Phone, false)
	}
	if err := v.Err(); err != nil {
		return Profile{}, err
	}
	var p Profile
	err := cs.s.DB.Update(func(tx Tx) error {
		c, err := tx.Customer(sh.StoreID, sh.CustomerID)
		if IsNotFound(err) {
			return errGone
		}
		if err != nil {
			return err
		}
		if in.FirstName != nil {
			c.FirstName = *in.FirstName
		}
		if in.LastName != nil {
			c.LastName = *in.LastName
		}
		if in.Phone != nil {
			c.Phone = *in.Phone
		}
		c.UpdatedAt = UTC(tx.Now())
		if err := tx.PutCustomer(c); err != nil {
			return err
		}
		p = c.Profile()
		return nil
	})
	return p, err
}

// List pages a store's customers, newest first (admin).
func (cs *CustomerService) List(storeID uint64, lp ListParams) (Page[*Customer], error) {
	return view(cs.s.DB, func(tx Tx) (Page[*Customer], error) { return tx.Customers(storeID, lp) })
}

// Get returns one customer of a store (admin). Errors: not_found.
func (cs *CustomerService) Get(storeID, id uint64) (*Customer, error) {
	return view(cs.s.DB, func(tx Tx) (*Customer, error) { return tx.Customer(storeID, id) })
}

// CreateAddress saves a new address of the shopper under a fresh uuid.
// Errors: validation_failed, conflict (MaxAddresses reached).
func (cs *CustomerService) CreateAddress(sh *Shopper, in AddressInput) (*Address, error) {
	id := NewUUID()
	a := &Address{ID: id, StoreID: sh.StoreID, CustomerID: sh.CustomerID, Label: LabelHome}
	in.apply(a)
	if a.Label == "" {
		a.Label = LabelHome
	}
	if err := a.Validate(); err != nil {
		return nil, err
	}
	err := cs.s.DB.Update(func(tx Tx) error {
		all, err := tx.Addresses(sh.StoreID, sh.CustomerID)
		if err != nil {
			return err
		}
		if len(all) >= MaxAddresses {
			return Errorf(EConflict, "at most %d addresses may be saved; delete one first", MaxAddresses)
		}
		for _, o := range all {
			if o.ID == id {
				return fmt.Errorf("app: address id %s already used", id)
			}
		}
		now := UTC(tx.Now())
		a.CreatedAt, a.UpdatedAt = now, now
		if err := defaultCountry(tx, a); err != nil {
			return err
		}
		if a.IsDefault {
			if err := clearDefault(tx, all, id, now); err != nil {
				return err
			}
		}
		return tx.PutAddress(a)
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// UpdateAddress changes the fields sent and returns the whole address.
// Errors: not_found, validation_failed.
func (cs *CustomerService) UpdateAddress(sh *Shopper, id string, in AddressInput) (*Address, error) {
	var a *Address
	err := cs.s.DB.Update(func(tx Tx) error {
		var err error
		if a, err = tx.Address(sh.StoreID, sh.CustomerID, id); err != nil {
			return err
		}
		in.apply(a)
		if in.Label != nil && a.Label == "" {
			a.Label = LabelHome
		}
		if err := a.Validate(); err != nil {
			return err
		}
		now := UTC(tx.Now())
		a.UpdatedAt = now
		if in.IsDefault != nil && *in.IsDefault {
			all, err := tx.Addresses(sh.StoreID, sh.CustomerID)
			if err != nil {
				return err
			}
			if err := clearDefault(tx, all, id, now); err != nil {
				return err
			}
		}
		return tx.PutAddress(a)
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// clearDefault unsets is_default on every address of all but keep.
func clearDefault(tx AddressTx, all []*Address, keep string, now time.Time) error {
	for _, o := range all {
		if o.ID != keep && o.IsDefault {
			o.IsDefault, o.UpdatedAt = false, now
			if err := tx.PutAddress(o); err != nil {
				return err
			}
		}
	}
	return nil
}

// Addresses lists the shopper's addresses, the default first, then newest first.
func (cs *CustomerService) Addresses(sh *Shopper) ([]*Address, error) {
	all, err := view(cs.s.DB, func(tx Tx) ([]*Address, error) { return tx.Addresses(sh.StoreID, sh.CustomerID) })
	SortAddresses(all)
	return all, err
}

// Address returns one address of the shopper. Errors: not_found.
func (cs *CustomerService) Address(sh *Shopper, id string) (*Address, error) {
	return view(cs.s.DB, func(tx Tx) (*Address, error) { return tx.Address(sh.StoreID, sh.CustomerID, id) })
}

// DeleteAddress deletes one address of the shopper. Errors: not_found.
func (cs *CustomerService) DeleteAddress(sh *Shopper, id string) error {
	return cs.s.DB.Update(func(tx Tx) error {
		return tx.DeleteAddress(sh.StoreID, sh.CustomerID, id)
	})
}
