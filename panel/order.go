package panel

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit/staff"
)

// ordersPerPage is the length of a page of the orders list.
const ordersPerPage = 50

// option is one choice of a select: its value and what it shows.
type option struct{ Value, Label string }

type ordersData struct {
	Base     string
	Rows     []app.OrderRow
	Total    int
	Query    app.OrderQuery
	Status   string // the form's values as sent
	Payment  string
	From, To string
	Export   string // the export link with the list's filters
	Statuses []string
	Payments []string
	Sorts    []option
	numbered
}

var orderSortLabels = []option{
	{app.OrderSortNewest, "Newest first"}, {app.OrderSortOldest, "Oldest first"},
	{app.OrderSortTotalDesc, "Highest total"}, {app.OrderSortTotalAsc, "Lowest total"},
}

// ordersPage serves GET /admin/stores/{id}/orders/: search (?q=), filters
// (?status=, ?payment_status=, ?from=, ?to=), ?sort= and ?page=, with the
// number of matches and an export link of the same filters.
func (p *panel) ordersPage(c *fiber.Ctx, v *view) error {
	st := v.Store
	q, err := staff.ReadOrderQuery(c)
	if err != nil {
		return err
	}
	page, err := readPage(c, "must be a whole number of at least 1")
	if err != nil {
		return err
	}
	q.Offset, q.Limit = (page-1)*ordersPerPage, ordersPerPage
	res, err := p.h.svc.Orders.SearchOrders(st.ID, q)
	if err != nil {
		return err
	}
	base := storePath(st, "orders/")
	params := url.Values{}
	for _, k := range []string{"q", "status", "payment_status", "from", "to", "sort"} {
		if s := c.Query(k); s != "" {
			params.Set(k, s)
		}
	}
	d := ordersData{Base: base, Rows: res.Rows, Total: res.Total, Query: q, Status: c.Query("status"),
		Payment: c.Query("payment_status"), From: c.Query("from"), To: c.Query("to"),
		Statuses: app.OrderStatuses, Payments: app.PaymentStatuses, Sorts: orderSortLabels,
		Export: pageLink(storePath(st, "orders/export/"), params, 1), numbered: numberedPages(base, params, page, res.Total, ordersPerPage)}
	v.Title, v.Tab, v.Data = "Orders", "orders", d
	return p.render(c, fiber.StatusOK, "orders", v)
}

// exportOrders serves GET /admin/stores/{id}/orders/export/: the list's
// filters as a CSV file (what the admin API's export answers).
func (p *panel) exportOrders(c *fiber.Ctx, v *view) error {
	q, err := staff.ReadOrderQuery(c)
	if err != nil {
		return err
	}
	return p.h.svc.StreamOrdersCSV(c, v.Store, q)
}

type orderData struct {
	Base     string
	Order    *app.Order
	Customer *app.Customer // nil for a guest order or a deleted account
	Next     string        // the status the store may move the order to, or ""
	Cancels  []*app.Request
	Refunds  []*app.Request
	History  app.OrderSearch
	// What the store may do itself (same rules as an approved request).
	CanCancel bool
	CanRefund bool
	CanShip   bool
	UndoUntil string // "15:04 UTC" while the move to DELIVERED can be undone, else ""
	Timeline  []app.TimelineEntry
	Ship      app.ShipInput
	Tracking  app.TrackingInput
	Note      string
	Refund    refundForm
	Methods   []string
}

type refundForm struct {
	Amount, Method, Note string
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

// orderID reads the path's order id.
var orderID = pathID("oid", "order")

// orderPage serves GET /admin/stores/{id}/orders/{oid}/: the order, the
// shopper's other orders, its requests, notes, tracking and the actions.
func (p *panel) orderPage(c *fiber.Ctx, v *view, o *app.Order) error {
	return p.showOrder(c, v, fiber.StatusOK, o, nil)
}

// showOrder renders the order page; form, when set, keeps what was typed
// into a form shown again after an error.
func (p *panel) showOrder(c *fiber.Ctx, v *view, status int, o *app.Order, form *orderData) error {
	d := orderData{Base: storePath(v.Store, "orders/"), Order: o, Next: nextOrderStatus(o.Status),
		CanCancel: o.Status == app.OrderPending || o.Status == app.OrderConfirmed,
		CanRefund: o.Status != app.OrderPending && o.Refundable() > 0 &&
			(o.PaymentStatus == app.PaymentPaid || o.PaymentStatus == app.PaymentPartiallyRefunded),
		CanShip: o.ShippedAt.IsZero() && o.Status == app.OrderConfirmed &&
			(o.PaymentStatus == app.PaymentPaid || o.PaymentStatus == app.PaymentPartiallyRefunded),
		Ship:     app.ShipInput{Carrier: o.Carrier, TrackingNumber: o.TrackingNumber},
		Tracking: app.TrackingInput{TrackingNumber: o.TrackingNumber, Carrier: o.Carrier},
		Refund:   refundForm{Amount: o.Refundable().String()}, Methods: app.RefundMethods}
	if o.CanUndoDelivered(p.h.svc.Now()) {
		d.UndoUntil = app.UTC(o.DeliveredAt.Add(app.DeliveryUndoWindow)).Format("15:04") + " UTC"
	}
	if form != nil {
		d.Tracking, d.Note, d.Refund = form.Tracking, form.Note, form.Refund
		if form.Ship != (app.ShipInput{}) {
			d.Ship = form.Ship
		}
	}
	det, err := p.h.svc.Orders.Detail(v.Store.ID, o)
	if err != nil {
		return err
	}
	d.Customer, d.Cancels, d.Refunds = det.Customer, det.Cancels, det.Refunds
	if d.Timeline, err = p.h.svc.Orders.Timeline(o, slices.Concat(det.Cancels, det.Refunds)); err != nil {
		return err
	}
	if d.History, err = p.h.svc.Orders.ShopperOrders(o); err != nil {
		return err
	}
	v.Title, v.Tab, v.Data = "Order #"+strconv.FormatUint(o.ID, 10), "orders", d
	return p.render(c, status, "order", v)
}

func orderPath(v *view, o *app.Order) string {
	return storePath(v.Store, "orders/"+strconv.FormatUint(o.ID, 10)+"/")
}

// orderFormError shows the order page again with err and what was typed.
func (p *panel) orderFormError(c *fiber.Ctx, v *view, id uint64, err error, form *orderData) error {
	if app.IsNotFound(err) {
		return err
	}
	cur, gerr := p.h.svc.Orders.Order(v.Store.ID, id)
	if gerr != nil {
		return gerr
	}
	return p.showOrder(c, v, p.formError(c, v, err), cur, form)
}

// askMoveOrder asks before an order is marked DELIVERED (the shopper is
// mailed; shipped or not); other moves, and moves that cannot be made (the
// service refuses them at once), need no confirmation.
func (p *panel) askMoveOrder(c *fiber.Ctx, v *view, o *app.Order) (*confirmData, error) {
	if param(c, "status") != app.OrderDelivered || !app.CanAdminMove(o.Status, app.OrderDelivered) {
		return nil, nil
	}
	msg := "The shopper is emailed that the order was delivered."
	if o.ShippedAt.IsZero() {
		msg = "The order was not shipped through the panel (no tracking mail went out). " + msg
	}
	return &confirmData{Heading: "Mark order #" + strconv.FormatUint(o.ID, 10) + " as delivered?", Message: msg,
		Action: orderPath(v, o) + "status/", Button: "Mark as delivered", Back: orderPath(v, o),
		Fields: map[string]string{"status": app.OrderDelivered}}, nil
}

// moveOrder serves POST /admin/stores/{id}/orders/{oid}/status/ {status}:
// CONFIRMED -> DELIVERED -> COMPLETED.
func (p *panel) moveOrder(c *fiber.Ctx, v *view, id uint64) error {
	o, err := p.h.svc.Orders.Move(v.Store.ID, id, formValue(c, "status"), v.Admin)
	if err != nil {
		return p.orderFormError(c, v, id, err, nil)
	}
	msg := "Order #" + strconv.FormatUint(o.ID, 10) + " is now " + o.Status + "."
	if o.Status == app.OrderDelivered {
		msg += " You can undo this for " + strconv.Itoa(int(app.DeliveryUndoWindow.Minutes())) + " minutes; the shopper's mail waits until then."
	}
	return p.redirect(c, v, orderPath(v, o), ok1(msg))
}

// undoDelivered serves POST .../orders/{oid}/undo-delivered/: the order is
// CONFIRMED again and the held "delivered" mail withdrawn.
func (p *panel) undoDelivered(c *fiber.Ctx, v *view, id uint64) error {
	o, err := p.h.svc.Orders.UndoDelivered(v.Store.ID, id, v.Admin)
	if err != nil {
		return p.orderFormError(c, v, id, err, nil)
	}
	return p.redirect(c, v, orderPath(v, o), ok1("Delivery undone: order #"+strconv.FormatUint(o.ID, 10)+" is CONFIRMED again and the shopper was not mailed."))
}

// setTracking serves POST .../orders/{oid}/tracking/ {tracking_number, carrier}.
func (p *panel) setTracking(c *fiber.Ctx, v *view, id uint64) error {
	in := app.TrackingInput{TrackingNumber: formValue(c, "tracking_number"), Carrier: formValue(c, "carrier")}
	o, err := p.h.svc.Orders.SetTracking(v.Store.ID, id, in)
	if err != nil {
		return p.orderFormError(c, v, id, err, &orderData{Tracking: in})
	}
	msg := "Tracking saved: the shopper sees it with the order."
	if o.TrackingNumber == "" {
		msg = "Tracking cleared."
	}
	return p.redirect(c, v, orderPath(v, o), ok1(msg))
}

// shipOrder serves POST .../orders/{oid}/ship/ {carrier, tracking_number,
// tracking_url}: shipped, and the shopper mailed the tracking link.
func (p *panel) shipOrder(c *fiber.Ctx, v *view, id uint64) error {
	in := app.ShipInput{Carrier: formValue(c, "carrier"), TrackingNumber: formValue(c, "tracking_number"), TrackingURL: formValue(c, "tracking_url")}
	o, err := p.h.svc.Orders.Ship(v.Store.ID, id, in)
	if err != nil {
		return p.orderFormError(c, v, id, err, &orderData{Ship: in})
	}
	return p.redirect(c, v, orderPath(v, o), ok1("Order #"+strconv.FormatUint(o.ID, 10)+" shipped: the shopper is emailed the tracking link."))
}

// addNote serves POST .../orders/{oid}/notes/ {note}: an internal note.
func (p *panel) addNote(c *fiber.Ctx, v *view, id uint64) error {
	note := formValue(c, "note")
	o, err := p.h.svc.Orders.AddNote(v.Store.ID, id, v.Admin, note)
	if err != nil {
		cur, _ := p.h.svc.Orders.Order(v.Store.ID, id)
		form := &orderData{Note: note}
		if cur != nil {
			form.Tracking = app.TrackingInput{TrackingNumber: cur.TrackingNumber, Carrier: cur.Carrier}
			form.Refund = refundForm{Amount: cur.Refundable().String()}
		}
		return p.orderFormError(c, v, id, err, form)
	}
	return p.redirect(c, v, orderPath(v, o)+"#notes", ok1("Note added."))
}

func (p *panel) askCancelOrder(c *fiber.Ctx, v *view, o *app.Order) (*confirmData, error) {
	msg := "Its reserved stock and coupon use come back"
	if o.PaymentStatus == app.PaymentPaid || o.PaymentStatus == app.PaymentPartiallyRefunded {
		msg += ", and the payment of " + o.Refundable().String() + " " + o.Currency + " is refunded"
	}
	fields := map[string]string{}
	if note := param(c, "admin_note"); note != "" {
		fields["admin_note"] = note
	}
	return &confirmData{Heading: "Cancel order #" + strconv.FormatUint(o.ID, 10) + "?",
		Message: msg + ". The shopper is told by email. This cannot be undone.",
		Action:  orderPath(v, o) + "cancel/", Button: "Cancel the order", Back: orderPath(v, o), Fields: fields}, nil
}

// cancelOrder serves POST .../orders/{oid}/cancel/ (after its confirm page).
func (p *panel) cancelOrder(c *fiber.Ctx, v *view, id uint64) error {
	_, err := p.h.svc.Requests.StoreCancel(v.Store.ID, id, v.Admin, app.StoreActionInput{AdminNote: formValue(c, "admin_note")})
	if err != nil {
		return p.orderFormError(c, v, id, err, nil)
	}
	return p.redirect(c, v, storePath(v.Store, "orders/"+strconv.FormatUint(id, 10)+"/"),
		ok1("Order #"+strconv.FormatUint(id, 10)+" cancelled. The customer was told by email."))
}

func (p *panel) askRefundOrder(c *fiber.Ctx, v *view, o *app.Order) (*confirmData, error) {
	amount := param(c, "amount")
	if amount == "" {
		amount = o.Refundable().String()
	}
	if m, err := app.ParseMoney(amount); err != nil || m <= 0 || m > o.Refundable() {
		return nil, nil // no confirmation of what cannot be refunded: the form shows why
	}
	fields := map[string]string{"amount": amount}
	keys := []string{"refund_method", "admin_note"}
	for i := range o.Items {
		keys = append(keys, "restock_"+strconv.Itoa(i+1))
	}
	back := ""
	for _, k := range keys {
		if s := param(c, k); s != "" {
			fields[k] = s
			if n, ok := strings.CutPrefix(k, "restock_"); ok && s != "0" {
				back += " Line " + n + ": " + s + " back into stock."
			}
		}
	}
	return &confirmData{Heading: "Refund " + amount + " " + o.Currency + " on order #" + strconv.FormatUint(o.ID, 10) + "?",
		Message: "The refund is recorded as an approved refund request and the shopper is told by email." + back,
		Action:  orderPath(v, o) + "refund/", Button: "Refund", Back: orderPath(v, o), Fields: fields}, nil
}

// refundOrder serves POST .../orders/{oid}/refund/ {amount, refund_method,
// admin_note} (after its confirm page).
func (p *panel) refundOrder(c *fiber.Ctx, v *view, id uint64) error {
	form := refundForm{Amount: formValue(c, "amount"), Method: formValue(c, "refund_method"), Note: formValue(c, "admin_note")}
	in := app.StoreActionInput{AdminNote: form.Note, RefundMethod: form.Method}
	restock, err := restockForm(c)
	if err != nil {
		return p.orderFormError(c, v, id, err, &orderData{Refund: form})
	}
	in.Restock = restock
	if form.Amount != "" {
		m, perr := app.ParseMoney(form.Amount)
		if perr != nil {
			return p.orderFormError(c, v, id, app.Invalid("amount", "must be an amount like 12.50"), &orderData{Refund: form})
		}
		in.Amount = &m
	}
	r, err := p.h.svc.Requests.StoreRefund(v.Store.ID, id, v.Admin, in)
	if err != nil {
		return p.orderFormError(c, v, id, err, &orderData{Refund: form})
	}
	return p.redirect(c, v, storePath(v.Store, "orders/"+strconv.FormatUint(id, 10)+"/"),
		ok1("Refunded "+r.Amount.String()+" on order #"+strconv.FormatUint(id, 10)+". The customer was told by email."))
}

// restockForm reads restock_<line>=<units> (lines counted from 1; empty or
// 0: nothing back) of the refund form.
func restockForm(c *fiber.Ctx) ([]app.RestockLine, error) {
	var out []app.RestockLine
	names := make([]string, app.MaxRestockLines)
	for i := range names {
		names[i] = "restock_" + strconv.Itoa(i+1)
	}
	fv := readForm(c, nil, names...)
	for line := 1; line <= app.MaxRestockLines; line++ {
		s := fv["restock_"+strconv.Itoa(line)]
		if s == "" || s == "0" {
			continue
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			return nil, app.Invalid("restock", "Line "+strconv.Itoa(line)+": the units back into stock must be a whole number")
		}
		out = append(out, app.RestockLine{Line: line, Quantity: n})
	}
	return out, nil
}
