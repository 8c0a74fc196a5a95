package panel

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

type usersData struct {
	Users  []*app.AdminUser
	Stores []*app.Store
	Names  map[uint64]string
	Form   app.NewAdmin // the create form as typed, without the password
}

// usersPage serves GET /admin/users/ (owner).
func (p *panel) usersPage(c *fiber.Ctx, v *view) error {
	return p.showUsers(c, v, fiber.StatusOK, app.NewAdmin{Role: app.RoleStaff})
}

func (p *panel) showUsers(c *fiber.Ctx, v *view, status int, form app.NewAdmin) error {
	users, err := p.h.svc.Admins.List()
	if err != nil {
		return err
	}
	stores, err := p.h.svc.Stores.List()
	if err != nil {
		return err
	}
	names := make(map[uint64]string, len(stores))
	for _, st := range stores {
		names[st.ID] = st.Name
	}
	v.Title, v.Data = "Admin users", usersData{Users: users, Stores: stores, Names: names, Form: form}
	return p.render(c, status, "users", v)
}

// createUser serves POST /admin/users/ (owner) {email, password, role, store_id}.
func (p *panel) createUser(c *fiber.Ctx, v *view) error {
	fv := readForm(c, nil, "email", "role", "store_id", "password")
	form := app.NewAdmin{Email: fv["email"], Password: fv["password"], Role: fv["role"]}
	form.StoreID, _ = strconv.ParseUint(fv["store_id"], 10, 64)
	u, err := p.h.svc.Admins.Create(form)
	if err != nil {
		form.Password = ""
		return p.showUsers(c, v, p.formError(c, v, err), form)
	}
	return p.redirect(c, v, "/admin/users/", ok1("Admin “"+u.Email+"” created."))
}

// deleteUser serves POST /admin/users/{uid}/delete/ (owner) {confirm=yes}.
// Deleting ends the user's panel sessions at once.
func (p *panel) deleteUser(c *fiber.Ctx, v *view, id uint64) error {
	if id == v.Admin.ID {
		return p.showUsers(c, v, p.formError(c, v, app.Errorf(app.EConflict, "You cannot delete your own account.")), app.NewAdmin{Role: app.RoleStaff})
	}
	if !formOn(c, "confirm") {
		return p.showUsers(c, v, p.formError(c, v, app.Invalid("confirm", "tick the box to confirm the deletion")), app.NewAdmin{Role: app.RoleStaff})
	}
	if err := p.h.svc.Admins.Delete(id); err != nil {
		return p.showAgain(c, v, err, func(status int) error { return p.showUsers(c, v, status, app.NewAdmin{Role: app.RoleStaff}) })
	}
	p.sessions.dropAdmin(id)
	return p.redirect(c, v, "/admin/users/", ok1("Admin user deleted."))
}

// totpPolicy serves POST /admin/users/totp-policy/ (owner) {store_id,
// require=yes|no}: whether the store's managers and staff must enrol a
// second factor.
func (p *panel) totpPolicy(c *fiber.Ctx, v *view) error {
	fv := readForm(c, nil, "store_id", "require")
	id, err := strconv.ParseUint(fv["store_id"], 10, 64)
	if err != nil || id == 0 {
		return app.NotFound("store")
	}
	on := fv.On("require")
	st, err := p.h.svc.Stores.Change(id, app.StoreChange{RequireStaffTOTP: &on}, v.Admin)
	if err != nil {
		return err
	}
	msg := "Two-factor login is optional for the staff of “" + st.Name + "”."
	if st.RequireStaffTOTP {
		msg = "The staff of “" + st.Name + "” must now enrol two-factor login."
	}
	return p.redirect(c, v, "/admin/users/", ok1(msg))
}
