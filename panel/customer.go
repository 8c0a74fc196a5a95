package panel

import (
	"net/url"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

type customerData struct {
	Base       string
	Profile    app.Profile
	Detail     app.CustomerDetail
	Products   map[uint64]string // names of the reviewed products ("" when deleted)
	Limit      int
	OrdersPage bool   // a page of orders after the newest
	NextOrders string // the link to the next page of orders ("" on the last)
}

// customerPage serves GET /admin/stores/{id}/customers/{cuid}/?orders=: the
// profile with a page of the customer's orders (20, newest first; orders= is
// the cursor of a later page), the newest tickets and reviews and every
// address.
func (p *panel) customerPage(c *fiber.Ctx, v *view, id uint64) error {
	var after *app.Cursor
	var err error
	if cv := c.Query("orders"); cv != "" {
		if after, err = p.h.cursors.Decode(customerOrdersScope(id), v.Store.ID, app.SortNewest, cv); err != nil {
			return err
		}
	}
	d, err := p.h.svc.Customers.Detail(v.Store.ID, id, after)
	if err != nil {
		return err
	}
	names, err := p.productNames(v.Store.ID, d.Reviews)
	if err != nil {
		return err
	}
	prof := d.Customer.Profile()
	v.Title, v.Tab = prof.Email, "customers"
	data := customerData{Base: storePath(v.Store, "customers/"), Profile: prof, Detail: d, Products: names, Limit: app.CustomerDetailItems,
		OrdersPage: after != nil}
	if d.NextOrders != nil {
		data.NextOrders = storePath(v.Store, "customers/"+strconv.FormatUint(id, 10)+"/") + "?orders=" +
			url.QueryEscape(p.h.cursors.Encode(customerOrdersScope(id), v.Store.ID, d.NextOrders)) + "#orders"
	}
	v.Data = data
	return p.render(c, fiber.StatusOK, "customer", v)
}

// customerOrdersScope is the cursor scope of a customer's orders: a cursor
// of one customer's list is refused on another's.
func customerOrdersScope(customerID uint64) string {
	return "panel:customer_orders:" + strconv.FormatUint(customerID, 10)
}
