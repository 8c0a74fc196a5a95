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
	Base     string
	Profile  app.Profile
	Detail   app.CustomerDetail
	Products map[uint64]string // names of the reviewed products ("" when deleted)
	Limit    int
}

// customerPage serves GET /admin/stores/{id}/customers/{cuid}/: the profile
// with the customer's newest orders, tickets and reviews and every address.
func (p *panel) customerPage(c *fiber.Ctx, v *view) error {
	id, err := httpkit.PathID(c, "cuid", "customer")
	if err != nil {
		return err
	}
	d, err := p.h.svc.Customers.Detail(v.Store.ID, id)
	if err != nil {
		return err
	}
	names := map[uint64]string{}
	for _, r := range d.Reviews {
		if _, seen := names[r.ProductID]; r.ProductID == 0 || seen {
			continue
		}
		names[r.ProductID] = ""
		if pr, err := p.h.svc.Catalog.Product(v.Store.ID, r.ProductID); err == nil {
			names[r.ProductID] = pr.Name
		} else if !app.IsNotFound(err) {
			return err
		}
	}
	prof := d.Customer.Profile()
	v.Title, v.Tab = prof.Email, "customers"
	v.Data = customerData{Base: storePath(v.Store, "customers/"), Profile: prof, Detail: d, Products: names, Limit: app.CustomerDetailItems}
	return p.render(c, fiber.StatusOK, "customer", v)
}
