package app

import "time"

// Admin roles (decisions.md §10).
const (
	RoleOwner   = "owner"
	RoleManager = "manager"
	RoleStaff   = "staff"
)

// AdminUser is an account of the admin side: an owner (every store), or a
// manager or staff of one store (what each may do: RolePerms).
type AdminUser struct {
	ID           uint64    `json:"id"`
	Email        string    `json:"email"`
	PasswordHash []byte    `json:"password_hash"`
	Role         string    `json:"role"`
	StoreID      uint64    `json:"store_id"`
	CreatedAt    time.Time `json:"created_at"`
	// TokenVersion is raised by a password change: admin tokens and panel
	// sessions carry the version they were made under, so every older one ends.
	TokenVersion uint64 `json:"token_version,omitempty"`
	// TOTPSecret is the confirmed second factor (base32; "" none),
	// TOTPPending an enrolment awaiting its first code, TOTPLastStep the
	// last time step used (a code is not accepted twice), RecoveryHashes the
	// SHA-256 of the unused recovery codes.
	TOTPSecret     string   `json:"totp_secret,omitempty"`
	TOTPPending    string   `json:"totp_pending,omitempty"`
	TOTPLastStep   int64    `json:"totp_last_step,omitempty"`
	RecoveryHashes []string `json:"recovery_hashes,omitempty"`
}

// HasTOTP reports whether u logs in with a second factor.
func (u *AdminUser) HasTOTP() bool { return u.TOTPSecret != "" }

// AdminView is an admin user as shown: never the hash.
type AdminView struct {
	ID        uint64    `json:"id"`
	Email     string    `json:"email"`
	Role      string    `json:"role"`
	StoreID   *uint64   `json:"store_id"`
	CreatedAt time.Time `json:"created_at"`
	// TOTPEnabled: the account logs in with a second factor;
	// RecoveryCodesLeft how many unused recovery codes it has.
	TOTPEnabled       bool `json:"totp_enabled"`
	RecoveryCodesLeft int  `json:"recovery_codes_left"`
}

// View returns the public form of u.
func (u *AdminUser) View() AdminView {
	v := AdminView{ID: u.ID, Email: u.Email, Role: u.Role, CreatedAt: UTC(u.CreatedAt),
		TOTPEnabled: u.HasTOTP(), RecoveryCodesLeft: len(u.RecoveryHashes)}
	if u.Role != RoleOwner {
		id := u.StoreID
		v.StoreID = &id
	}
	return v
}

// CanAccess reports whether u may act on store id.
func (u *AdminUser) CanAccess(storeID uint64) bool {
	return u.Role == RoleOwner || u.StoreID == storeID
}

// AdminTx is the storage of admin users (global, not per store).
type AdminTx interface {
	// CreateAdmin assigns u.ID; a taken email is conflict.
	CreateAdmin(u *AdminUser) error
	Admin(id uint64) (*AdminUser, error)
	AdminByEmail(email string) (*AdminUser, error)
	Admins() ([]*AdminUser, error)
	// PutAdmin rewrites an existing admin user (password, token version);
	// not_found when it does not exist.
	PutAdmin(u *AdminUser) error
	DeleteAdmin(id uint64) error
}

// AdminService manages admin accounts, their logins and tokens.
type AdminService struct {
	db Scope[adminData]
	s  adminDeps
}

func newAdminService(d adminDeps) *AdminService {
	return &AdminService{db: scopeOf(d.DB, func(tx Tx) adminData { return tx }), s: d}
}

// Bootstrap makes the first owner when there is no admin yet. With password
// empty it makes a random one and returns it (to print once); it returns ""
// when an admin already existed or the password was given.
func (as *AdminService) Bootstrap(email, password string) (string, error) {
	generated := ""
	err := as.db.Update(func(tx adminData) error {
		all, err := tx.Admins()
		if err != nil || len(all) > 0 {
			return err
		}
		if password == "" {
			password = RandomHex(8)
			generated = password
		}
		hash, err := as.s.Pass.Hash(password)
		if err != nil {
			return err
		}
		return tx.CreateAdmin(&AdminUser{Email: NormalizeEmail(email), PasswordHash: hash, Role: RoleOwner, CreatedAt: UTC(tx.Now())})
	})
	return generated, err
}

// Login checks credentials and returns a signed admin token and its expiry
// (LoginWith without a device token or second factor).
func (as *AdminService) Login(email, password, ip string) (string, time.Time, *AdminUser, error) {
	r, err := as.LoginWith(LoginRequest{Email: email, Password: password, IP: ip})
	if err != nil {
		return "", time.Time{}, nil, err
	}
	return r.Token, r.ExpiresAt, r.User, nil
}

// AdminLogin is a successful admin login: the token, and a new device token
// that exempts this device from failures elsewhere (takeLogin).
type AdminLogin struct {
	Token           string
	ExpiresAt       time.Time
	User            *AdminUser
	Device          string
	DeviceExpiresAt time.Time
}

// LoginWith checks the credentials and the second factor of an account that
// has one, and returns a signed admin token and a device token. The login
// limits are taken before any password work (takeAdminLogin); a valid device
// token of the account counts its failures on its own budget. Errors:
// invalid_credentials (also a wrong or used second-factor code),
// totp_required, rate_limited.
func (as *AdminService) LoginWith(in LoginRequest) (*AdminLogin, error) {
	email := NormalizeEmail(in.Email)
	device := ""
	if in.Device != "" {
		if u, err := view(as.db, func(tx adminData) (*AdminUser, error) { return tx.AdminByEmail(email) }); err == nil {
			device = deviceOf(as.s.Tokens, in.Device, 0, u.ID)
		}
	}
	att, err := as.s.takeAdminLogin(email, in.IP, device)
	if err != nil {
		return nil, err
	}
	u, err := as.checkPassword(email, in.Password)
	if err == nil && u.HasTOTP() {
		err = as.secondFactor(u, in.TOTPCode, in.RecoveryCode)
	}
	return as.finishLogin(att, u, err)
}

// LoginSecondStep ends a login whose password was checked before (the
// panel's second step, which holds a signed ticket of it): only the second
// factor of email's account is checked, under the same limits.
func (as *AdminService) LoginSecondStep(in LoginRequest) (*AdminLogin, error) {
	email := NormalizeEmail(in.Email)
	u, err := view(as.db, func(tx adminData) (*AdminUser, error) { return tx.AdminByEmail(email) })
	if err != nil {
		return nil, Errorf(EInvalidCreds, "wrong email or password")
	}
	att, err := as.s.takeAdminLogin(email, in.IP, deviceOf(as.s.Tokens, in.Device, 0, u.ID))
	if err != nil {
		return nil, err
	}
	if u.HasTOTP() {
		err = as.secondFactor(u, in.TOTPCode, in.RecoveryCode)
	}
	return as.finishLogin(att, u, err)
}

// finishLogin issues the tokens of a login that passed its checks (err nil)
// and settles its slots.
func (as *AdminService) finishLogin(att *loginAttempt, u *AdminUser, err error) (*AdminLogin, error) {
	r := &AdminLogin{User: u}
	if err == nil {
		r.Token, r.ExpiresAt, err = as.Token(u)
	}
	if err == nil {
		r.DeviceExpiresAt = UTC(as.s.Now().Add(DeviceTokenTTL))
		r.Device, err = issueDevice(as.s.Tokens, as.s.Now(), 0, u.ID)
	}
	att.done(err)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// MustEnrolTOTP reports whether u must enrol a second factor before doing
// anything else: a manager or staff of a store that requires it.
func (as *AdminService) MustEnrolTOTP(u *AdminUser, st func(id uint64) (*Store, error)) bool {
	if u.Role == RoleOwner || u.HasTOTP() {
		return false
	}
	s, err := st(u.StoreID)
	return err == nil && s.RequireStaffTOTP
}

// checkPassword returns the admin of email when password is theirs
// (invalid_credentials otherwise, with the same bcrypt work for unknown emails).
func (as *AdminService) checkPassword(email, password string) (*AdminUser, error) {
	u, err := view(as.db, func(tx adminData) (*AdminUser, error) { return tx.AdminByEmail(email) })
	if IsNotFound(err) {
		as.s.Pass.Dummy(password)
		return nil, Errorf(EInvalidCreds, "wrong email or password")
	}
	if err != nil {
		return nil, err
	}
	if !as.s.Pass.Compare(u.PasswordHash, password) {
		return nil, Errorf(EInvalidCreds, "wrong email or password")
	}
	return u, nil
}

// Token issues a new admin token for u (its own random id, u's token version).
func (as *AdminService) Token(u *AdminUser) (string, time.Time, error) {
	exp := UTC(as.s.Now().Add(as.s.Opt.AdminTTL))
	tok, err := as.s.Tokens.Issue(Claims{Kind: TokenAdmin, Subject: u.ID, Session: RandomHex(8), Version: u.TokenVersion, ExpiresAt: exp})
	return tok, exp, err
}

// Authenticate returns the admin user of a bearer token. A token that was
// logged out, is older than the account's last password change, has no id
// (issued before revocation existed) or whose account was deleted is
// unauthorized.
func (as *AdminService) Authenticate(token string) (*AdminUser, error) {
	c, err := as.verify(token)
	if err != nil {
		return nil, err
	}
	u, err := view(as.db, func(tx adminData) (*AdminUser, error) { return tx.Admin(c.Subject) })
	if IsNotFound(err) {
		return nil, Errorf(EUnauthorized, "this admin account no longer exists")
	}
	if err == nil && u.TokenVersion != c.Version {
		return nil, Errorf(EUnauthorized, "invalid or expired token")
	}
	return u, err
}

func (as *AdminService) verify(token string) (Claims, error) {
	c, err := as.s.Tokens.Verify(token, TokenAdmin)
	if err != nil {
		return c, err
	}
	if c.Session == "" || as.s.revocations.Revoked(c) { // admin tokens: StoreID 0
		return c, Errorf(EUnauthorized, "invalid or expired token")
	}
	return c, nil
}

// Logout revokes one admin token (it stays revoked across restarts until it
// would have expired). Errors: unauthorized.
func (as *AdminService) Logout(token string) error {
	c, err := as.verify(token)
	if err != nil {
		return err
	}
	rv := &Revocation{StoreID: 0, Session: c.Session, Until: UTC(c.ExpiresAt).Add(time.Second)}
	if err := as.db.Update(func(tx adminData) error { return tx.PutRevocation(rv) }); err != nil {
		return err
	}
	as.s.revoked(rv)
	return nil
}

// ChangePassword sets a new password for admin id after checking the old one,
// and raises the account's token version: every other token and panel
// session of the account ends (the caller gets a new one with Token, or a new
// panel session). ip is the client's address: wrong old passwords count as
// failed logins (the same limits). Errors: validation_failed (old_password
// wrong, new password too short/long or equal to the old), rate_limited,
// not_found.
func (as *AdminService) ChangePassword(id uint64, oldPassword, newPassword, ip string) (*AdminUser, error) {
	var v Validation
	v.Check(oldPassword != "", "old_password", "is required")
	v.Check(len(newPassword) >= 8, "password", "must be at least 8 characters")
	v.Check(len(newPassword) <= 72, "password", "must be at most 72 bytes")
	v.Check(newPassword != oldPassword, "password", "must differ from the old password")
	if err := v.Err(); err != nil {
		return nil, err
	}
	u, err := view(as.db, func(tx adminData) (*AdminUser, error) { return tx.Admin(id) })
	if err != nil {
		return nil, err
	}
	att, err := as.s.takeAdminLogin(u.Email, ip, "")
	if err != nil {
		return nil, err
	}
	if _, err := as.checkPassword(u.Email, oldPassword); err != nil {
		att.done(err)
		if ErrorCode(err) == EInvalidCreds {
			return nil, Invalid("old_password", "is not the current password")
		}
		return nil, err
	}
	att.done(nil)
	hash, err := as.s.Pass.Hash(newPassword)
	if err != nil {
		return nil, err
	}
	err = as.db.Update(func(tx adminData) error {
		cur, err := tx.Admin(id)
		if err != nil {
			return err
		}
		cur.PasswordHash, cur.TokenVersion = hash, cur.TokenVersion+1
		u = cur
		return tx.PutAdmin(cur)
	})
	if err != nil {
		return nil, err
	}
	as.s.Log.Info("admin password changed; other sessions ended", "admin_id", id)
	return u, nil
}

// NewAdmin is the input of Create.
type NewAdmin struct {
	Email    string `json:"email"`
	Password string `json:"password"`
	Role     string `json:"role"`
	StoreID  uint64 `json:"store_id"`
}

// Create adds an admin user. Errors: validation_failed, conflict.
func (as *AdminService) Create(in NewAdmin) (*AdminUser, error) {
	var v Validation
	v.Email("email", in.Email)
	v.Check(len(in.Password) >= 8, "password", "must be at least 8 characters")
	v.Check(len(in.Password) <= 72, "password", "must be at most 72 bytes")
	v.OneOf("role", in.Role, RoleOwner, RoleManager, RoleStaff)
	if in.Role != RoleOwner && in.StoreID == 0 {
		v.Add("store_id", "is required for a manager or staff")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if in.Role == RoleOwner {
		in.StoreID = 0
	}
	hash, err := as.s.Pass.Hash(in.Password)
	if err != nil {
		return nil, err
	}
	u := &AdminUser{Email: NormalizeEmail(in.Email), PasswordHash: hash, Role: in.Role, StoreID: in.StoreID}
	err = as.db.Update(func(tx adminData) error {
		if u.StoreID != 0 {
			if _, err := tx.Store(u.StoreID); err != nil {
				return Invalid("store_id", "unknown store")
			}
		}
		u.CreatedAt = UTC(tx.Now())
		return tx.CreateAdmin(u)
	})
	return u, err
}

// Get returns one admin user (not_found).
func (as *AdminService) Get(id uint64) (*AdminUser, error) {
	return view(as.db, func(tx adminData) (*AdminUser, error) { return tx.Admin(id) })
}

// List returns every admin user.
func (as *AdminService) List() ([]*AdminUser, error) {
	return view(as.db, func(tx adminData) ([]*AdminUser, error) { return tx.Admins() })
}

// Delete removes an admin user; the last owner cannot be removed (conflict).
func (as *AdminService) Delete(id uint64) error {
	return as.db.Update(func(tx adminData) error {
		u, err := tx.Admin(id)
		if err != nil {
			return err
		}
		if u.Role == RoleOwner {
			all, err := tx.Admins()
			if err != nil {
				return err
			}
			owners := 0
			for _, a := range all {
				if a.Role == RoleOwner {
					owners++
				}
			}
			if owners <= 1 {
				return Errorf(EConflict, "the last owner cannot be removed")
			}
		}
		return tx.DeleteAdmin(id)
	})
}
