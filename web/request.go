package web

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

// registerRequestRoutes adds the after-order actions (storefront-api.md
// endpoints 10-13). The checkout routes own GET orders/ and GET
// orders/:order_id/; these use other methods or a deeper path, so the
// registration order does not matter.
func (s *Server) registerRequestRoutes(r fiber.Router) {
	r.Patch("/orders", s.shopper, s.updateDelivery)
	r.Post("/orders/cancel", s.shopper, s.requestCancellation)
	r.Post("/orders/refund", s.shopper, s.requestRefund)
	r.Get("/orders/:order_id/requests", s.shopper, s.orderRequests)
}

// updateDelivery serves PATCH /api/v1/business/website/orders/.
func (s *Server) updateDelivery(c *fiber.Ctx) error {
	var in struct {
		OrderID      uint64  `json:"order_id"`
		ReceiverName *string `json:"receiver_name"`
		Phone        *string `json:"phone"`
		Address      *string `json:"address"`
	}
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	o, err := s.svc.Requests.UpdateDelivery(*shopperOf(c), app.DeliveryInput{
		OrderID: in.OrderID, ReceiverName: in.ReceiverName, Phone: in.Phone, Address: in.Address})
	if err != nil {
		return err
	}
	return httpkit.OK(c, fiber.Map{"id": o.ID, "receiver_name": o.ReceiverName, "phone": o.Phone, "address": o.Address})
}

// cancellationSubmitted is data of endpoint 11.
type cancellationSubmitted struct {
	ID        uint64    `json:"id"`
	OrderID   uint64    `json:"order_id"`
	Status    string    `json:"status"`
	Reason    string    `json:"reason"`
	CreatedAt time.Time `json:"created_at"`
}

// requestCancellation serves POST /api/v1/business/website/orders/cancel/.
func (s *Server) requestCancellation(c *fiber.Ctx) error {
	var in struct {
		OrderID uint64 `json:"order_id"`
		Reason  string `json:"reason"`
	}
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	r, err := s.svc.Requests.RequestCancellation(*shopperOf(c), app.CancellationInput{OrderID: in.OrderID, Reason: in.Reason})
	if err != nil {
		return err
	}
	v := r.CancellationView()
	return httpkit.OK(c, cancellationSubmitted{ID: v.ID, OrderID: v.OrderID, Status: v.Status, Reason: v.Reason,
		CreatedAt: v.CreatedAt})
}

// refundSubmitted is data of endpoint 12.
type refundSubmitted struct {
	ID         uint64    `json:"id"`
	OrderID    uint64    `json:"order_id"`
	Status     string    `json:"status"`
	Reason     string    `json:"reason"`
	Amount     app.Money `json:"amount"`
	ProofFiles []string  `json:"proof_files"`
	CreatedAt  time.Time `json:"created_at"`
}

// requestRefund serves POST /api/v1/business/website/orders/refund/.
func (s *Server) requestRefund(c *fiber.Ctx) error {
	var in struct {
		OrderID    uint64          `json:"order_id"`
		Reason     string          `json:"reason"`
		Amount     json.RawMessage `json:"amount"`
		ProofFiles []string        `json:"proof_files"`
	}
	if err := httpkit.Decode(c, &in); err != nil {
		return err
	}
	amount, err := requestAmount("amount", in.Amount)
	if err != nil {
		return err
	}
	r, err := s.svc.Requests.RequestRefund(*shopperOf(c), app.RefundInput{
		OrderID: in.OrderID, Reason: in.Reason, Amount: amount, ProofFiles: in.ProofFiles})
	if err != nil {
		return err
	}
	v := r.RefundView()
	return httpkit.OK(c, refundSubmitted{ID: v.ID, OrderID: v.OrderID, Status: v.Status, Reason: v.Reason,
		Amount: v.Amount, ProofFiles: v.ProofFiles, CreatedAt: v.CreatedAt})
}

// requestAmount decodes an optional amount (number or decimal string; absent
// or null is nil), naming the field when it is malformed.
func requestAmount(field string, raw json.RawMessage) (*app.Money, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var m app.Money
	if err := m.UnmarshalJSON(raw); err != nil {
		return nil, app.Invalid(field, "must be an amount with at most two decimals")
	}
	return &m, nil
}

// orderRequests serves GET /api/v1/business/website/orders/{order_id}/requests/.
func (s *Server) orderRequests(c *fiber.Ctx) error {
	id, err := httpkit.PathID(c, "order_id", "order")
	if err != nil {
		return err
	}
	cancels, refunds, err := s.svc.Requests.OrderRequests(*shopperOf(c), id)
	if err != nil {
		return err
	}
	out := struct {
		Cancellations []app.CancellationView `json:"cancellation_requests"`
		Refunds       []app.RefundView       `json:"refund_requests"`
	}{make([]app.CancellationView, len(cancels)), make([]app.RefundView, len(refunds))}
	for i, r := range cancels {
		out.Cancellations[i] = r.CancellationView()
	}
	for i, r := range refunds {
		out.Refunds[i] = r.RefundView()
	}
	return httpkit.OK(c, out)
}
