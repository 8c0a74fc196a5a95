package admin

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

type ordersData struct {
	Base   string
	Orders []*app.Order
	Filter statusFilter
	Pager
}

// ordersPage serves GET /admin/stores/{id}/orders/ (?status=all by default or
// one order status; ?cursor=), newest first.
func (p *panel) ordersPage(c *fiber.Ctx, v *view) error {
	st := v.Store
	base := storePath(st, "orders/")
	f, err := readStatusFilter(c, base, statusAll, app.OrderStatuses)
	if err != nil {
		return err
	}
	scope := "orders:" + f.Value
	lp, err := p.listParams(c, scope, st.ID)
	if err != nil {
		return err
	}
	page, err := p.h.svc.Orders.Orders(st.ID, f.Status, lp)
	if err != nil {
		return err
	}
	v.Title, v.Tab = "Orders", "orders"
	v.Data = ordersData{Base: base, Orders: page.Items, Filter: f, Pager: p.pager(f.Base, scope, st.ID, lp, page.Next)}
	return p.render(c, fiber.StatusOK, "orders", v)
}

type orderData struct {
	Base     string
	Order    *app.Order
	Customer *app.Customer // nil for a guest order or a deleted account
	Next     string        // the status the store may move the order to, or ""
	Cancels  []*app.Request
	Refunds  []*app.Request
}

// nextOrderStatus is the status an admin may move an order in status to
// by hand (decisions.md §5), or "".
func nextOrderStatus(status string) string {
	for _, to := range app.OrderStatuses {
		if app.CanAdminMove(status, to) {
			return to
		}
	}
	return ""
}

// orderPage serves GET /admin/stores/{id}/orders/{oid}/: the order, its
// requests and the status move.
func (p *panel) orderPage(c *fiber.Ctx, v *view) error {
	id, err := httpkit.PathID(c, "oid", "order")
	if err != nil {
		return err
	}
	o, err := p.h.svc.Orders.Order(v.Store.ID, id)
	if err != nil {
		return err
	}
	return p.showOrder(c, v, fiber.StatusOK, o)
}

func (p *panel) showOrder(c *fiber.Ctx, v *view, status int, o *app.Order) error {
	d := orderData{Base: storePath(v.Store, "orders/"), Order: o, Next: nextOrderStatus(o.Status)}
	det, err := p.h.svc.Orders.Detail(v.Store.ID, o)
	if err != nil {
		return err
	}
	d.Customer, d.Cancels, d.Refunds = det.Customer, det.Cancels, det.Refunds
	v.Title, v.Tab, v.Data = "Order #"+strconv.FormatUint(o.ID, 10), "orders", d
	return p.render(c, status, "order", v)
}

// moveOrder serves POST /admin/stores/{id}/orders/{oid}/status/ {status}:
// CONFIRMED -> DELIVERED -> COMPLETED.
func (p *panel) moveOrder(c *fiber.Ctx, v *view) error {
	id, err := httpkit.PathID(c, "oid", "order")
	if err != nil {
		return err
	}
	o, err := p.h.svc.Orders.Move(v.Store.ID, id, formValue(c, "status"))
	if err != nil {
		if app.IsNotFound(err) {
			return err
		}
		cur, gerr := p.h.svc.Orders.Order(v.Store.ID, id)
		if gerr != nil {
			return gerr
		}
		return p.showOrder(c, v, p.formError(c, v, err), cur)
	}
	return p.redirect(c, v, storePath(v.Store, "orders/"+strconv.FormatUint(o.ID, 10)+"/"),
		ok1("Order #"+strconv.FormatUint(o.ID, 10)+" is now "+o.Status+"."))
}
