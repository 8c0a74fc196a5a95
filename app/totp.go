package app

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// TOTP second factor of admin logins (RFC 6238 with the standard library:
// HMAC-SHA1, 30-second steps, 6 digits, one step of drift either way; a code
// is not accepted twice: the account keeps the last step used).
const (
	totpStep = 30
	// RecoveryCodes is how many one-time recovery codes an enrolment gives.
	RecoveryCodes = 10
)

var b32 = base32.StdEncoding.WithPadding(base32.NoPadding)

// totpAt is the code of secret for step (RFC 4226 dynamic truncation).
func totpAt(secret []byte, step int64) string {
	m := hmac.New(sha1.New, secret)
	_ = binary.Write(m, binary.BigEndian, step)
	sum := m.Sum(nil)
	off := sum[len(sum)-1] & 0x0f
	n := binary.BigEndian.Uint32(sum[off:off+4]) & 0x7fffffff
	return fmt.Sprintf("%06d", n%1_000_000)
}

// TOTPCode is the current code of a base32 secret (for tests and tools).
func TOTPCode(secret string, now time.Time) string {
	key, _ := b32.DecodeString(secret)
	return totpAt(key, now.Unix()/totpStep)
}

// totpCheck returns the step code matches for secret at now (±1 step) when
// it is later than last; 0 when it does not match or was used.
func totpCheck(secret, code string, now time.Time, last int64) int64 {
	key, err := b32.DecodeString(secret)
	code = strings.TrimSpace(code)
	if err != nil || len(code) != 6 {
		return 0
	}
	cur := now.Unix() / totpStep
	for _, s := range []int64{cur - 1, cur, cur + 1} {
		if s > last && subtle.ConstantTimeCompare([]byte(totpAt(key, s)), []byte(code)) == 1 {
			return s
		}
	}
	return 0
}

// TOTPEnrolment is what an admin sees when enrolling: the secret to type in
// and the otpauth:// URI an authenticator app reads.
type TOTPEnrolment struct {
	Secret string `json:"secret"`
	URI    string `json:"otpauth_uri"`
}

func newTOTPSecret() string {
	key := make([]byte, 20)
	_, _ = rand.Read(key)
	return b32.EncodeToString(key)
}

func totpURI(email, secret string) string {
	label := url.PathEscape("Storefront:" + email)
	return "otpauth://totp/" + label + "?secret=" + secret + "&issuer=Storefront&algorithm=SHA1&digits=6&period=30"
}

// hashRecovery is how a recovery code is stored (they are random: a plain
// hash is enough).
func hashRecovery(code string) string {
	code = strings.ToLower(strings.ReplaceAll(strings.TrimSpace(code), "-", ""))
	sum := sha256.Sum256([]byte(code))
	return hex.EncodeToString(sum[:])
}

// newRecoveryCodes returns RecoveryCodes fresh codes and their hashes.
func newRecoveryCodes() (codes, hashes []string) {
	for range RecoveryCodes {
		c := RandomHex(5)
		codes = append(codes, c[:5]+"-"+c[5:])
		hashes = append(hashes, hashRecovery(c))
	}
	return codes, hashes
}

// TOTPProof is what replacing a second factor takes from an admin who has
// one, besides the session: a current code of the factor, one of its
// recovery codes, or the password. A stolen token alone cannot swap the
// factor for the thief's.
type TOTPProof struct {
	Code     string `json:"totp_code"`
	Recovery string `json:"recovery_code"`
	Password string `json:"password"`
}

// StartTOTP begins (or restarts) the enrolment of admin id: a new secret is
// kept pending until ConfirmTOTP. An enrolled account keeps its factor
// until the new one is confirmed, and must prove it is its holder (proof,
// from ip; wrong proofs count as failed logins, with their limits).
// Errors: validation_failed (no or a wrong proof), rate_limited.
func (as *AdminService) StartTOTP(id uint64, proof TOTPProof, ip string) (TOTPEnrolment, error) {
	u, err := view(as.db, func(tx adminData) (*AdminUser, error) { return tx.Admin(id) })
	if err != nil {
		return TOTPEnrolment{}, err
	}
	if u.HasTOTP() {
		if err := as.proveHolder(u, proof, ip); err != nil {
			return TOTPEnrolment{}, err
		}
	}
	secret := newTOTPSecret()
	var out TOTPEnrolment
	err = as.db.Update(func(tx adminData) error {
		u, err := tx.Admin(id)
		if err != nil {
			return err
		}
		u.TOTPPending = secret
		out = TOTPEnrolment{Secret: secret, URI: totpURI(u.Email, secret)}
		return tx.PutAdmin(u)
	})
	return out, err
}

// proveHolder checks proof for u, who has a factor, under the login limits
// of u's address from ip.
func (as *AdminService) proveHolder(u *AdminUser, proof TOTPProof, ip string) error {
	if proof.Code == "" && proof.Recovery == "" && proof.Password == "" {
		return Invalid("totp_code", "this account has a second factor: send its current totp_code, a recovery_code or the password to replace it")
	}
	att, err := as.s.takeAdminLogin(u.Email, ip, "")
	if err != nil {
		return err
	}
	field := "password"
	if proof.Password != "" {
		_, err = as.checkPassword(u.Email, proof.Password)
	} else {
		field = "totp_code"
		err = as.secondFactor(u, proof.Code, proof.Recovery)
	}
	att.done(err)
	if ErrorCode(err) == EInvalidCreds {
		return Invalid(field, "is wrong or already used: the second factor stays as it is")
	}
	return err
}

// ConfirmTOTP ends the enrolment of admin id with a code of the pending
// secret and returns the recovery codes (shown once; stored hashed).
// Errors: validation_failed (no enrolment started, wrong code).
func (as *AdminService) ConfirmTOTP(id uint64, code string) ([]string, error) {
	codes, hashes := newRecoveryCodes()
	err := as.db.Update(func(tx adminData) error {
		u, err := tx.Admin(id)
		if err != nil {
			return err
		}
		if u.TOTPPending == "" {
			return Invalid("code", "start the enrolment first")
		}
		step := totpCheck(u.TOTPPending, code, as.s.Now(), 0)
		if step == 0 {
			return Invalid("code", "is not the current code of the authenticator")
		}
		u.TOTPSecret, u.TOTPPending, u.TOTPLastStep, u.RecoveryHashes = u.TOTPPending, "", step, hashes
		return tx.PutAdmin(u)
	})
	if err != nil {
		return nil, err
	}
	as.s.Log.Info("admin enrolled a second factor", "admin_id", id)
	return codes, nil
}

// secondFactor checks the TOTP code or recovery code of a login by u (who
// has a factor): totp_required without either, invalid_credentials when
// wrong or already used. A code's step, or the recovery code, is spent.
func (as *AdminService) secondFactor(u *AdminUser, code, recovery string) error {
	if code == "" && recovery == "" {
		return Errorf(ETOTPRequired, "this account has a second factor: send totp_code or recovery_code")
	}
	return as.db.Update(func(tx adminData) error {
		cur, err := tx.Admin(u.ID)
		if err != nil {
			return err
		}
		if code != "" {
			step := totpCheck(cur.TOTPSecret, code, as.s.Now(), cur.TOTPLastStep)
			if step == 0 {
				return Errorf(EInvalidCreds, "wrong or already used second-factor code")
			}
			cur.TOTPLastStep = step
			return tx.PutAdmin(cur)
		}
		h := hashRecovery(recovery)
		for i, x := range cur.RecoveryHashes {
			if subtle.ConstantTimeCompare([]byte(x), []byte(h)) == 1 {
				cur.RecoveryHashes = append(cur.RecoveryHashes[:i:i], cur.RecoveryHashes[i+1:]...)
				return tx.PutAdmin(cur)
			}
		}
		return Errorf(EInvalidCreds, "wrong or already used recovery code")
	})
}
