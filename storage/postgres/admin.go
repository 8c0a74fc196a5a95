package postgres

import "storefront/app"

// Admin users are global: their writes take the lock of store 0.

// CreateAdmin assigns u.ID; a taken email is conflict.
func (t *Tx) CreateAdmin(u *app.AdminUser) error {
	taken, err := t.exists(0, "admin user", `SELECT 1 FROM admins WHERE email = $1`, bs(u.Email))
	if err != nil {
		return err
	}
	if taken {
		return &app.Error{Code: app.EConflict, Message: "an admin with this email exists", Fields: map[string]string{"email": "is taken"}}
	}
	id, err := t.NextID(0, "admin")
	if err != nil {
		return err
	}
	u.ID = id
	raw, err := encode(u)
	if err != nil {
		return err
	}
	return t.exec(0, "create admin", `INSERT INTO admins (id, email, doc) VALUES ($1, $2, $3)`, i64(id), bs(u.Email), raw)
}

// Admin returns one admin user.
func (t *Tx) Admin(id uint64) (*app.AdminUser, error) {
	var u app.AdminUser
	if err := t.get(0, &u, "admin user", `SELECT doc FROM admins WHERE id = $1`, i64(id)); err != nil {
		return nil, err
	}
	return &u, nil
}

// AdminByEmail looks an admin up by normalized email.
func (t *Tx) AdminByEmail(email string) (*app.AdminUser, error) {
	var u app.AdminUser
	if err := t.get(0, &u, "admin user", `SELECT doc FROM admins WHERE email = $1`, bs(email)); err != nil {
		return nil, err
	}
	return &u, nil
}

// Admins lists every admin user by id.
func (t *Tx) Admins() ([]*app.AdminUser, error) {
	return all[app.AdminUser](t, 0, "admin users", `SELECT doc FROM admins ORDER BY id`)
}

// PutAdmin rewrites an existing admin user; a new email taken by another is conflict.
func (t *Tx) PutAdmin(u *app.AdminUser) error {
	old, err := t.Admin(u.ID)
	if err != nil {
		return err
	}
	if old.Email != u.Email {
		taken, err := t.exists(0, "admin user", `SELECT 1 FROM admins WHERE email = $1`, bs(u.Email))
		if err != nil {
			return err
		}
		if taken {
			return &app.Error{Code: app.EConflict, Message: "an admin with this email exists", Fields: map[string]string{"email": "is taken"}}
		}
	}
	raw, err := encode(u)
	if err != nil {
		return err
	}
	return t.exec(0, "put admin", `UPDATE admins SET email = $2, doc = $3 WHERE id = $1`, i64(u.ID), bs(u.Email), raw)
}

// DeleteAdmin removes an admin user.
func (t *Tx) DeleteAdmin(id uint64) error {
	n, err := t.execN(0, "delete admin", `DELETE FROM admins WHERE id = $1`, i64(id))
	if err != nil {
		return err
	}
	if n == 0 {
		return app.NotFound("admin user")
	}
	return nil
}
