package storage

import "storefront/app"

// CreateAdmin assigns u.ID; a taken email is conflict.
func (t *Tx) CreateAdmin(u *app.AdminUser) error {
	emails := t.b(bAdminEmails)
	if emails.Get([]byte(u.Email)) != nil {
		return &app.Error{Code: app.EConflict, Message: "an admin with this email exists", Fields: map[string]string{"email": "is taken"}}
	}
	id, err := t.b(bAdmins).NextSequence()
	if err != nil {
		return err
	}
	u.ID = id
	if err := emails.Put([]byte(u.Email), u64(id)); err != nil {
		return err
	}
	return putJSON(t.b(bAdmins), u64(id), u)
}

// Admin returns one admin user.
func (t *Tx) Admin(id uint64) (*app.AdminUser, error) {
	var u app.AdminUser
	if err := getJSON(t.b(bAdmins), u64(id), &u, "admin user"); err != nil {
		return nil, err
	}
	return &u, nil
}

// AdminByEmail looks an admin up by normalized email.
func (t *Tx) AdminByEmail(email string) (*app.AdminUser, error) {
	v := t.b(bAdminEmails).Get([]byte(email))
	if v == nil {
		return nil, app.NotFound("admin user")
	}
	return t.Admin(idFromKeyEnd(v))
}

// Admins lists every admin user.
func (t *Tx) Admins() ([]*app.AdminUser, error) {
	out := []*app.AdminUser{}
	err := t.b(bAdmins).ForEach(func(_, v []byte) error {
		var u app.AdminUser
		if err := getJSONBytes(v, &u, "admin user"); err != nil {
			return err
		}
		out = append(out, &u)
		return nil
	})
	return out, err
}

// PutAdmin rewrites an existing admin user (its email index follows a change).
func (t *Tx) PutAdmin(u *app.AdminUser) error {
	old, err := t.Admin(u.ID)
	if err != nil {
		return err
	}
	emails := t.b(bAdminEmails)
	if old.Email != u.Email {
		if emails.Get([]byte(u.Email)) != nil {
			return &app.Error{Code: app.EConflict, Message: "an admin with this email exists", Fields: map[string]string{"email": "is taken"}}
		}
		if err := emails.Delete([]byte(old.Email)); err != nil {
			return err
		}
		if err := emails.Put([]byte(u.Email), u64(u.ID)); err != nil {
			return err
		}
	}
	return putJSON(t.b(bAdmins), u64(u.ID), u)
}

// DeleteAdmin removes an admin user.
func (t *Tx) DeleteAdmin(id uint64) error {
	u, err := t.Admin(id)
	if err != nil {
		return err
	}
	if err := t.b(bAdminEmails).Delete([]byte(u.Email)); err != nil {
		return err
	}
	return t.b(bAdmins).Delete(u64(id))
}
