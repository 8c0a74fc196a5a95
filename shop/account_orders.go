package shop

import (
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
	a.Get("/account/orders/:order_id", s.page(signedIn(s.orderPage)))
	a.Post("/account/orders/:order_id/delivery", s.page(signedIn(s.orderDelivery)))
	a.Post("/account/orders/:order_id/cancel", s.page(signedIn(s.orderCancel)))
	a.Post("/account/orders/:order_id/refund", s.page(signedIn(s.orderRefund)))
	a.Get("/orders/:token/", s.page(s.guestOrderPage))
}

// ordersView is a page of the shopper's orders.
type ordersView struct {
	Orders []*app.Order
	Next   string // the next page's URL ("" on the last)
}

// ordersPage serves GET /account/orders/ (?cursor=): newest first.
func (s *Shop) ordersPage(c *fiber.Ctx, rq *request) error {
	lp := app.ListParams{Sort: app.SortNewest, Limit: app.DefaultLimit}
	if cv := c.Query("cursor"); cv != "" {
		cur, err := s.cursors.Decode("orders", rq.Store.ID, lp.Sort, cv)
		if err != nil {
			return app.NotFound("page") // a stale or forged cursor: no such page
		}
		lp.After = cur
	}
	pg, err := s.svc.Orders.CustomerOrders(rq.shopper(), lp)
	if err != nil {
		return err
	}
	v := ordersView{Orders: pg.Items}
	if pg.Next != nil {
		v.Next = "/account/orders/?cursor=" + s.cursors.Encode("orders", rq.Store.ID, pg.Next)
	}
	return s.render(c, rq, fiber.StatusOK, "account_orders", pageMeta{Title: msg("account.orders.title"), NoIndex: true}, v)
}

var (
	deliveryFields = []fieldSpec{
		{Name: "receiver_name", Auto: "name", Max: 200, Required: true},
		{Name: "phone", Type: "tel", Auto: "tel", Max: 40, Required: true},
		{Name: "address", Type: "textarea", Auto: "street-address", Max: 500, Required: true},
	}
	cancelFields = []fieldSpec{{Name: "reason", Type: "textarea", Max: 2000, Required: true}}
	refundFields = []fieldSpec{
		{Name: "reason", Type: "textarea", Max: 2000, Required: true},
		{Name: "amount", Auto: "off", Max: 20},
	}
)

// orderView is what the order page shows.
type orderView struct {
	Order         *app.Order
	Cancellations []*app.Request
	Refunds       []*app.Request
	Notice        string
	// The forms the order's status allows (nil when it does not).
	Delivery, Cancel, Refund *formView
}

// loadOrder reads the shopper's order of the path and its requests, and
// builds the forms its status allows.
func (s *Shop) loadOrder(c *fiber.Ctx, rq *request) (orderView, error) {
	var v orderView
	id, err := httpkit.PathID(c, "order_id", "order")
	if err != nil {
		return v, err
	}
	o, err := s.svc.Orders.CustomerOrder(rq.shopper(), id)
	if err != nil {
		return v, err
	}
	v.Order = o
	if v.Cancellations, v.Refunds, err = s.svc.Requests.OrderRequests(rq.shopper(), id); err != nil {
		return v, err
	}
	base := "/account/orders/" + strconv.FormatUint(id, 10)
	switch o.Status {
	case app.OrderPending, app.OrderConfirmed:
		d := newForm(rq, base+"/delivery", "account.order.delivery.submit", deliveryFields,
			map[string]string{"receiver_name": o.ReceiverName, "phone": o.Phone, "address": o.Address})
		v.Delivery = &d
		if !pending(v.Cancellations) {
			cf := newForm(rq, base+"/cancel", "account.order.cancel.submit", cancelFields, nil)
			v.Cancel = &cf
		}
	case app.OrderDelivered, app.OrderCompleted:
		if !pending(v.Refunds) {
			rf := newForm(rq, base+"/refund", "account.order.refund.submit", refundFields, nil)
			v.Refund = &rf
		}
	}
	return v, nil
}

// pending reports whether one of rs waits for the shop (the page then
// offers no second request; the service refuses one anyway).
func pending(rs []*app.Request) bool {
	for _, r := range rs {
		if r.Status == app.RequestPending {
			return true
		}
	}
	return false
}

func (s *Shop) showOrder(c *fiber.Ctx, rq *request, status int, v orderView) error {
	return s.render(c, rq, status, "account_order", pageMeta{Title: msgf("account.order.title", v.Order.ID), NoIndex: true}, v)
}

// orderPage serves GET /account/orders/{id}/.
func (s *Shop) orderPage(c *fiber.Ctx, rq *request) error {
	v, err := s.loadOrder(c, rq)
	if err != nil {
		return err
	}
	v.Notice = notice(c)
	return s.showOrder(c, rq, fiber.StatusOK, v)
}

// orderAction runs one of the order page's forms: it reads the order (404
// for another shopper's), decodes the form of specs, calls do and
// redirects back with m; a refusal shows the page with the messages on
// the form (pick chooses it; a form the status no longer allows shows the
// message above the page).
func (s *Shop) orderAction(c *fiber.Ctx, rq *request, specs []fieldSpec, pick func(*orderView) **formView,
	m string, do func(id uint64, vals map[string]string) error) error {
	v, err := s.loadOrder(c, rq)
	if err != nil {
		return err
	}
	vals, err := decodeAccountForm(c.Body(), specs)
	if err == nil {
		err = do(v.Order.ID, vals)
	}
	if err == nil {
		return redirect(c, "/account/orders/"+strconv.FormatUint(v.Order.ID, 10)+"/?m="+m)
	}
	f := pick(&v)
	if *f == nil {
		*f = &formView{Action: "", CSRF: rq.CSRF}
	}
	for i := range (*f).Fields {
		if fd := &(*f).Fields[i]; !fd.secret() {
			fd.Value = vals[fd.Name]
		}
	}
	status, ierr := (*f).withError(err)
	if ierr != nil {
		return ierr
	}
	if (*f).Action == "" {
		v.Notice = (*f).Error
		*f = nil
	}
	return s.showOrder(c, rq, status, v)
}

// orderDelivery serves POST /account/orders/{id}/delivery (the API's PATCH orders).
func (s *Shop) orderDelivery(c *fiber.Ctx, rq *request) error {
	return s.orderAction(c, rq, deliveryFields, func(v *orderView) **formView { return &v.Delivery }, "delivery",
		func(id uint64, vals map[string]string) error {
			n, p, a := vals["receiver_name"], vals["phone"], vals["address"]
			_, err := s.svc.Requests.UpdateDelivery(rq.shopper(), app.DeliveryInput{OrderID: id, ReceiverName: &n, Phone: &p, Address: &a})
			return err
		})
}

// orderCancel serves POST /account/orders/{id}/cancel (the API's orders/cancel).
func (s *Shop) orderCancel(c *fiber.Ctx, rq *request) error {
	return s.orderAction(c, rq, cancelFields, func(v *orderView) **formView { return &v.Cancel }, "cancel",
		func(id uint64, vals map[string]string) error {
			_, err := s.svc.Requests.RequestCancellation(rq.shopper(), app.CancellationInput{OrderID: id, Reason: vals["reason"]})
			return err
		})
}

// orderRefund serves POST /account/orders/{id}/refund (the API's
// orders/refund; an empty amount is the whole refundable amount).
func (s *Shop) orderRefund(c *fiber.Ctx, rq *request) error {
	return s.orderAction(c, rq, refundFields, func(v *orderView) **formView { return &v.Refund }, "refund",
		func(id uint64, vals map[string]string) error {
			var amount *app.Money
			if a := vals["amount"]; a != "" {
				var m app.Money
				if err := m.UnmarshalJSON([]byte(strconv.Quote(a))); err != nil {
					return app.Invalid("amount", "must be an amount with at most two decimals")
				}
				amount = &m
			}
			_, err := s.svc.Requests.RequestRefund(rq.shopper(), app.RefundInput{OrderID: id, Reason: vals["reason"], Amount: amount})
			return err
		})
}
