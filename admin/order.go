package admin

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
	"storefront/httpkit/staff"
)

func (h *Handler) registerOrderRoutes(r fiber.Router) {
	r.Get("/orders", listByStatus(h, "orders:", h.svc.Orders.Orders, viewAdminOrder))
	r.Get("/orders/export", h.exportOrders)
	r.Post("/orders/bulk-ship", h.bulkShip)
	r.Get("/orders/:oid", getOne(orderID, h.svc.Orders.Order, viewAdminOrder)) // guest orders included
	r.Patch("/orders/:oid", withBody(orderID, fiber.StatusOK, h.moveOrder, viewAdminOrder))
	// PUT {tracking_number, carrier}
	r.Put("/orders/:oid/tracking", withBody(orderID, fiber.StatusOK, inStoreWith(h.svc.Orders.SetTracking), viewAdminOrder))
	// POST {carrier, tracking_number, tracking_url?}: the order is shipped, the shopper mailed
	r.Post("/orders/:oid/ship", withBody(orderID, fiber.StatusOK, inStoreWith(h.svc.Orders.Ship), viewAdminOrder))
	r.Post("/orders/:oid/undo-delivered", onOne(orderID, h.undoDelivered, viewAdminOrder))
	r.Post("/orders/:oid/notes", withBody(orderID, fiber.StatusCreated, h.addOrderNote, viewAdminOrder))
	// POST {reason?, admin_note?}: the store cancels by the path of an approved cancellation request
	r.Post("/orders/:oid/cancel", h.storeAction(h.svc.Requests.StoreCancel))
	// POST {amount?, reason?, admin_note?, refund_method?}: the path of an
	// approved refund request; a Stripe-paid order is refunded at Stripe, and
	// a provider failure (502/409) leaves the store's request PENDING to approve again
	r.Post("/orders/:oid/refund", h.storeAction(h.svc.Requests.StoreRefund))
}

// orderID reads the path's order id.
var orderID = pathID("oid", "order")

func viewAdminOrder(o *app.Order) any { return o.AdminView() }

// exportOrders serves GET stores/{id}/orders/export/: the orders matching
// ?q=&status=&payment_status=&from=&to=&sort= as CSV, streamed; ?ids=12,13
// is a selection (the export hands on exactly these orders).
func (h *Handler) exportOrders(c *fiber.Ctx) error {
	q, err := staff.ReadOrderQuery(c)
	if err != nil {
		return err
	}
	if s := c.Query("ids"); s != "" {
		if q.IDs, err = app.ParseOrderIDs([]string{s}); err != nil {
			return err
		}
	}
	return h.svc.StreamOrdersCSV(c, storeOf(c), q)
}

type orderStatusInput struct {
	Status string `json:"status"`
}

// moveOrder serves PATCH stores/{id}/orders/{oid}/ {status}: only the moves
// of decisions.md §5 (CONFIRMED -> DELIVERED -> COMPLETED).
func (h *Handler) moveOrder(c *fiber.Ctx, id uint64, in orderStatusInput) (*app.Order, error) {
	return h.svc.Orders.Move(storeOf(c).ID, id, in.Status, adminOf(c))
}

// undoDelivered serves POST stores/{id}/orders/{oid}/undo-delivered/: a
// move to DELIVERED taken back within app.DeliveryUndoWindow.
func (h *Handler) undoDelivered(c *fiber.Ctx, id uint64) (*app.Order, error) {
	return h.svc.Orders.UndoDelivered(storeOf(c).ID, id, adminOf(c))
}

// noteInput is the body of an order note.
type noteInput struct {
	Note string `json:"note"`
}

// addOrderNote serves POST stores/{id}/orders/{oid}/notes/ {note}: an
// internal note, never shown to the shopper; 201.
func (h *Handler) addOrderNote(c *fiber.Ctx, id uint64, in noteInput) (*app.Order, error) {
	return h.svc.Orders.AddNote(storeOf(c).ID, id, adminOf(c), in.Note)
}

type storeActionResult struct {
	Order   app.AdminOrderView `json:"order"`
	Request any                `json:"request"`
}

// storeAction serves an order's action the store takes itself by the path
// of an approved request (act), with an optional body: the order and the
// request.
func (h *Handler) storeAction(act func(uint64, uint64, *app.AdminUser, app.StoreActionInput) (*app.Request, error)) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id, err := orderID(c)
		if err != nil {
			return err
		}
		var in app.StoreActionInput
		if len(strings.TrimSpace(string(c.Body()))) > 0 {
			if err := httpkit.Decode(c, &in); err != nil {
				return err
			}
		}
		r, err := act(storeOf(c).ID, id, adminOf(c), in)
		if err != nil {
			return err
		}
		o, err := h.svc.Orders.Order(storeOf(c).ID, id)
		if err != nil {
			return err
		}
		return httpkit.OK(c, storeActionResult{Order: o.AdminView(), Request: viewRequest(r)})
	}
}
