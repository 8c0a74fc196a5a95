package app

import "time"

// Admin roles (decisions.md §10).
const (
	RoleOwner = "owner"
	RoleStaff = "staff"
)

// AdminUser is an account of the admin side: an owner (every store) or staff
// of one store.
type AdminUser struct {
	ID           uint64    `json:"id"`
	Email        string    `json:"email"`
	PasswordHash []byte    `json:"password_hash"`
	Role         string    `json:"role"`
	StoreID      uint64    `json:"store_id"`
	CreatedAt    time.Time `json:"created_at"`
}

// AdminView is an admin user as shown: never the hash.
type AdminView struct {
	ID        uint64    `json:"id"`
	Email     string    `json:"email"`
	Role      string    `json:"role"`
	StoreID   *uint64   `json:"store_id"`
	CreatedAt time.Time `json:"created_at"`
}

// View returns the public form of u.
func (u *AdminUser) View() AdminView {
	v := AdminView{ID: u.ID, Email: u.Email, Role: u.Role, CreatedAt: UTC(u.CreatedAt)}
	if u.Role == RoleStaff {
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
	DeleteAdmin(id uint64) error
}

// Admin login limits: failed logins per email (Opt.LoginFailures) and per
// client IP within AdminLoginWindow, shared by the JSON API and the panel.
const (
	AdminLoginWindow     = 15 * time.Minute
	AdminLoginFailuresIP = 20
	defaultLoginFailures = 5
)

// AdminService manages admin accounts and their logins.
type AdminService struct {
	s       *Services
	byEmail *FailureGuard
	byIP    *FailureGuard
}

func newAdminService(s *Services) *AdminService {
	return &AdminService{s: s,
		byEmail: NewFailureGuard(s.Now, s.Opt.LoginFailures, AdminLoginWindow),
		byIP:    NewFailureGuard(s.Now, AdminLoginFailuresIP, AdminLoginWindow)}
}

// Bootstrap makes the first owner when there is no admin yet. With password
// empty it makes a random one and returns it (to print once); it returns ""
// when an admin already existed or the password was given.
func (as *AdminService) Bootstrap(email, password string) (string, error) {
	generated := ""
	err := as.s.DB.Update(func(tx Tx) error {
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

// Login checks credentials and returns a signed admin token and its expiry.
// ip is the client's address ("" for calls from inside the process).
// Errors: invalid_credentials, rate_limited (too many failures for the email or the IP).
func (as *AdminService) Login(email, password, ip string) (string, time.Time, *AdminUser, error) {
	email = NormalizeEmail(email)
	wait := as.byEmail.Blocked(email)
	if ip != "" {
		wait = max(wait, as.byIP.Blocked(ip))
	}
	if wait > 0 {
		return "", time.Time{}, nil, RateLimited("too many failed logins; retry later", wait)
	}
	tok, exp, u, err := as.login(email, password)
	switch {
	case ErrorCode(err) == EInvalidCreds:
		as.byEmail.Fail(email)
		if ip != "" {
			as.byIP.Fail(ip)
		}
	case err == nil:
		as.byEmail.Reset(email)
	}
	return tok, exp, u, err
}

func (as *AdminService) login(email, password string) (string, time.Time, *AdminUser, error) {
	u, err := view(as.s.DB, func(tx Tx) (*AdminUser, error) { return tx.AdminByEmail(email) })
	if IsNotFound(err) {
		as.s.Pass.Dummy(password)
		return "", time.Time{}, nil, Errorf(EInvalidCreds, "wrong email or password")
	}
	if err != nil {
		return "", time.Time{}, nil, err
	}
	if !as.s.Pass.Compare(u.PasswordHash, password) {
		return "", time.Time{}, nil, Errorf(EInvalidCreds, "wrong email or password")
	}
	exp := UTC(as.s.Now().Add(as.s.Opt.AdminTTL))
	tok, err := as.s.Tokens.Issue(Claims{Kind: TokenAdmin, Subject: u.ID, ExpiresAt: exp})
	return tok, exp, u, err
}

// Authenticate returns the admin user of a bearer token (unauthorized).
func (as *AdminService) Authenticate(token string) (*AdminUser, error) {
	c, err := as.s.Tokens.Verify(token, TokenAdmin)
	if err != nil {
		return nil, err
	}
	var u *AdminUser
	u, err = view(as.s.DB, func(tx Tx) (*AdminUser, error) { return tx.Admin(c.Subject) })
	if IsNotFound(err) {
		return nil, Errorf(EUnauthorized, "this admin account no longer exists")
	}
	return u, err
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
	v.OneOf("role", in.Role, RoleOwner, RoleStaff)
	if in.Role == RoleStaff && in.StoreID == 0 {
		v.Add("store_id", "is required for staff")
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
	err = as.s.DB.Update(func(tx Tx) error {
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

// List returns every admin user.
func (as *AdminService) List() ([]*AdminUser, error) {
	return view(as.s.DB, func(tx Tx) ([]*AdminUser, error) { return tx.Admins() })
}

// Delete removes an admin user; the last owner cannot be removed (conflict).
func (as *AdminService) Delete(id uint64) error {
	return as.s.DB.Update(func(tx Tx) error {
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
