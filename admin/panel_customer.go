package admin

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

type customersData struct {
	Base      string
	Customers []app.Profile
	Pager
}

// customersPage serves GET /admin/stores/{id}/customers/?cursor=: the
// store's customer accounts, newest first, read-only.
func (p *panel) customersPage(c *fiber.Ctx, v *view) error {
	st := v.Store
	lp, err := p.listParams(c, "customers", st.ID)
	if err != nil {
		return err
	}
	page, err := p.h.svc.Customers.List(st.ID, lp)
	if err != nil {
		return err
	}
	base := storePath(st, "customers/")
	d := customersData{Base: base, Pager: p.pager(base, "customers", st.ID, lp, page.Next)}
	for _, cu := range page.Items {
		d.Customers = append(d.Customers, cu.Profile())
	}
	v.Title, v.Tab, v.Data = "Customers", "customers", d
	return p.render(c, fiber.StatusOK, "customers", v)
}

type customerData struct {
	Base    string
	Profile app.Profile
}

// customerPage serves GET /admin/stores/{id}/customers/{cuid}/: one profile.
func (p *panel) customerPage(c *fiber.Ctx, v *view) error {
	id, err := httpkit.PathID(c, "cuid", "customer")
	if err != nil {
		return err
	}
	cu, err := p.h.svc.Customers.Get(v.Store.ID, id)
	if err != nil {
		return err
	}
	prof := cu.Profile()
	v.Title, v.Tab = prof.Email, "customers"
	v.Data = customerData{Base: storePath(v.Store, "customers/"), Profile: prof}
	return p.render(c, fiber.StatusOK, "customer", v)
}
