package shop

import (
	"slices"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

// The shopper's orders and their after-order requests: the services the
// API's order routes (web/checkout.go) and request routes (web/request.go)
// call. Another shopper's order is the 404 page.

func (s *Shop) registerOrderRoutes(a *fiber.App) {
	a.Get("/account/orders", s.page(signedIn(s.ordersPage)))
	a.Get("/account/orders/:order_id", s.page(signedIn(s.orderPage(s.accountScope))))
	a.Post("/account/orders/:order_id/delivery", s.page(signedIn(s.orderForm(s.accountScope, "delivery", s.orderDelivery))))
	a.Post("/account/orders/:order_id/cancel", s.page(signedIn(s.orderForm(s.accountScope, "cancel", s.orderCancel))))
	a.Post("/account/orders/:order_id/refund", s.page(signedIn(s.orderForm(s.accountScope, "refund", s.orderRefund))))
	// the same page and forms for whoever holds the order's signed link (guest_order.go)
	a.Get("/orders/:token/", s.page(s.orderPage(s.linkScope)))
	a.Post("/orders/:token/delivery", s.page(s.orderForm(s.linkScope, "delivery", s.orderDelivery)))
	a.Post("/orders/:token/cancel", s.page(s.orderForm(s.linkScope, "cancel", s.orderCancel)))
	a.Post("/orders/:token/refund", s.page(s.orderForm(s.linkScope, "refund", s.orderRefund)))
}

// ordersPage serves GET /account/orders/ (?cursor=): newest first.
func (s *Shop) ordersPage(c *fiber.Ctx, rq *request) error {
	lp, err := s.listAfter(c, rq, "orders", "cursor", app.DefaultLimit)
	if err != nil {
		return err
	}
	pg, err := s.svc.Orders.CustomerOrders(rq.shopper(), lp)
	if err != nil {
		return err
	}
	v := listView[*app.Order]{Items: pg.Items, Next: s.nextURL(rq, "/account/orders/?cursor=", "orders", pg.Next)}
	return s.render(c, rq, fiber.StatusOK, "account_orders", pageMeta{Title: rq.L.T("account.orders.title"), NoIndex: true}, v)
}

// orderForms are the fields of the order page's forms, by name: each is
// posted to {page}/{name} (the submit button account.order.{name}.submit)
// and comes back with ?m={name}.
var orderForms = map[string][]fieldSpec{
	"delivery": {
		{Name: "receiver_name", Auto: "name", Max: 200, Required: true},
		{Name: "phone", Type: "tel", Auto: "tel", Max: 40, Required: true},
		{Name: "address", Type: "textarea", Auto: "street-address", Max: 500, Required: true},
	},
	"cancel": {{Name: "reason", Type: "textarea", Max: 2000, Required: true}},
	"refund": {
		{Name: "reason", Type: "textarea", Max: 2000, Required: true},
		{Name: "amount", Auto: "off", Max: 20},
	},
}

// orderView is what the order page shows.
type orderView struct {
	Account       bool // the signed-in shopper's page (not the signed link's)
	Order         *app.Order
	Cancellations []*app.Request
	Refunds       []*app.Request
	Notice        string
	// Forms are the forms the order's status allows, by name (orderForms).
	Forms map[string]*formView
}

// orderScope is whose order page a request is on: the signed-in shopper's
// (/account/orders/{id}) or that of whoever holds the order's signed link
// (/orders/{token}).
type orderScope struct {
	sh      app.Shopper
	order   *app.Order
	base    string // the page's path without its final slash
	account bool
}

// orderScopeFunc reads the scope of a request (accountScope, linkScope).
type orderScopeFunc func(c *fiber.Ctx, rq *request) (orderScope, error)

// accountScope is the signed-in shopper's order of the path (404 for
// another's or a guest order).
func (s *Shop) accountScope(c *fiber.Ctx, rq *request) (orderScope, error) {
	id, err := httpkit.PathID(c, "order_id", "order")
	if err != nil {
		return orderScope{}, err
	}
	o, err := s.svc.Orders.CustomerOrder(rq.shopper(), id)
	return orderScope{sh: rq.shopper(), order: o, base: "/account/orders/" + strconv.FormatUint(id, 10), account: true}, err
}

// loadOrder reads the order of the request's scope and its requests, and
// builds the forms its status allows.
func (s *Shop) loadOrder(c *fiber.Ctx, rq *request, scope orderScopeFunc) (orderScope, orderView, error) {
	sc, err := scope(c, rq)
	if err != nil {
		return sc, orderView{}, err
	}
	o := sc.order
	v := orderView{Account: sc.account, Order: o, Forms: map[string]*formView{}}
	if v.Cancellations, v.Refunds, err = s.svc.Requests.OrderRequests(sc.sh, o.ID); err != nil {
		return sc, v, err
	}
	form := func(name string, vals map[string]string) {
		f := newForm(rq, sc.base+"/"+name, "account.order."+name+".submit", orderForms[name], vals)
		v.Forms[name] = &f
	}
	switch o.Status {
	case app.OrderPending, app.OrderConfirmed:
		form("delivery", map[string]string{"receiver_name": o.ReceiverName, "phone": o.Phone, "address": o.Address})
		if !pending(v.Cancellations) {
			form("cancel", nil)
		}
	case app.OrderDelivered, app.OrderCompleted:
		if !pending(v.Refunds) {
			form("refund", nil)
		}
	}
	return sc, v, nil
}

// pending reports whether one of rs waits for the shop (the page then
// offers no second request; the service refuses one anyway).
func pending(rs []*app.Request) bool {
	return slices.ContainsFunc(rs, func(r *app.Request) bool { return r.Status == app.RequestPending })
}

func (s *Shop) showOrder(c *fiber.Ctx, rq *request, status int, v orderView) error {
	if !v.Account {
		c.Set(fiber.HeaderCacheControl, "private, no-store")
	}
	return s.render(c, rq, status, "account_order", pageMeta{Title: rq.L.TF("account.order.title", v.Order.ID), NoIndex: true}, v)
}

// orderPage serves GET /account/orders/{id}/ and /orders/{token}/.
func (s *Shop) orderPage(scope orderScopeFunc) pageFunc {
	return func(c *fiber.Ctx, rq *request) error {
		_, v, err := s.loadOrder(c, rq, scope)
		if err != nil {
			return err
		}
		v.Notice = notice(c, rq.L)
		return s.showOrder(c, rq, fiber.StatusOK, v)
	}
}

// orderForm serves the order page's form name in the scope: it reads the
// order (404 for another shopper's), decodes the form, calls do and
// redirects back with m=name; a refusal shows the page with the messages
// on the form (or, when the status no longer allows the form, above the
// page).
func (s *Shop) orderForm(scope orderScopeFunc, name string, do func(sc orderScope, vals map[string]string) error) pageFunc {
	return func(c *fiber.Ctx, rq *request) error {
		sc, v, err := s.loadOrder(c, rq, scope)
		if err != nil {
			return err
		}
		vals, err := decodeAccountForm(c.Body(), orderForms[name])
		if err == nil {
			err = do(sc, vals)
		}
		if err == nil {
			return redirect(c, sc.base+"/?m="+name)
		}
		f := v.Forms[name]
		if f == nil {
			f = &formView{CSRF: rq.FormToken(), l: rq.L}
		}
		for i := range f.Fields {
			if fd := &f.Fields[i]; !fd.Secret() {
				fd.Value = vals[fd.Name]
			}
		}
		return f.refuse(err, func(status int) error {
			if f.Action == "" { // the status no longer allows the form
				v.Notice = f.Error
			}
			return s.showOrder(c, rq, status, v)
		})
	}
}

// orderDelivery sends the delivery form (the API's PATCH orders).
func (s *Shop) orderDelivery(sc orderScope, vals map[string]string) error {
	n, p, a := vals["receiver_name"], vals["phone"], vals["address"]
	_, err := s.svc.Requests.UpdateDelivery(sc.sh, app.DeliveryInput{OrderID: sc.order.ID, ReceiverName: &n, Phone: &p, Address: &a})
	return err
}

// orderCancel sends the cancel form (the API's orders/cancel).
func (s *Shop) orderCancel(sc orderScope, vals map[string]string) error {
	_, err := s.svc.Requests.RequestCancellation(sc.sh, app.CancellationInput{OrderID: sc.order.ID, Reason: vals["reason"]})
	return err
}

// orderRefund sends the refund form (the API's orders/refund; an empty
// amount is the whole refundable amount).
func (s *Shop) orderRefund(sc orderScope, vals map[string]string) error {
	var amount *app.Money
	if a := vals["amount"]; a != "" {
		var m app.Money
		if err := m.UnmarshalJSON([]byte(strconv.Quote(a))); err != nil {
			return app.Invalid("amount", "must be an amount with at most two decimals")
		}
		amount = &m
	}
	_, err := s.svc.Requests.RequestRefund(sc.sh, app.RefundInput{OrderID: sc.order.ID, Reason: vals["reason"], Amount: amount})
	return err
}
