package app

import (
	"encoding/json"
	"net/url"
	"strings"
	"time"
)

// MaxTrackingURLLen bounds a tracking link.
const MaxTrackingURLLen = 2048

// ShipInput ships an order: the carrier and tracking number, and the
// tracking link (empty: built from the carrier's template).
type ShipInput struct {
	Carrier        string `json:"carrier"`
	TrackingNumber string `json:"tracking_number"`
	TrackingURL    string `json:"tracking_url"`
}

// defaultTrackingURLs are the tracking links of well-known carriers; a
// store's configuration (tracking_urls: {"Carrier": "https://...{tracking_number}"})
// adds carriers or replaces these. Carrier names match case-insensitively.
var defaultTrackingURLs = map[string]string{
	"ups":   "https://www.ups.com/track?tracknum={tracking_number}",
	"usps":  "https://tools.usps.com/go/TrackConfirmAction?tLabels={tracking_number}",
	"fedex": "https://www.fedex.com/fedextrack/?trknbr={tracking_number}",
	"dhl":   "https://www.dhl.com/global-en/home/tracking/tracking-express.html?tracking-id={tracking_number}",
}

// TrackingURL is the tracking link of a parcel from the store's template for
// the carrier (config tracking_urls), else the built-in one, else "".
func TrackingURL(st *Store, carrier, number string) string {
	var cfg struct {
		TrackingURLs map[string]string `json:"tracking_urls"`
	}
	_ = json.Unmarshal(st.Config, &cfg) // another shape: the built-in templates only
	tmpl := ""
	for name, t := range cfg.TrackingURLs {
		if strings.EqualFold(name, carrier) {
			tmpl = t
		}
	}
	if tmpl == "" {
		tmpl = defaultTrackingURLs[strings.ToLower(carrier)]
	}
	if tmpl == "" {
		return ""
	}
	u := strings.ReplaceAll(tmpl, "{tracking_number}", url.QueryEscape(number))
	if !httpURL(u) {
		return ""
	}
	return u
}

// httpURL reports whether s is an absolute http(s) URL.
func httpURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
}

func (in *ShipInput) validate() error {
	var v Validation
	in.Carrier, in.TrackingNumber, in.TrackingURL = strings.TrimSpace(in.Carrier), strings.TrimSpace(in.TrackingNumber), strings.TrimSpace(in.TrackingURL)
	v.Text("carrier", in.Carrier, true, MaxCarrierLen)
	v.Text("tracking_number", in.TrackingNumber, true, MaxTrackingLen)
	if in.TrackingURL != "" {
		v.Check(len(in.TrackingURL) <= MaxTrackingURLLen && httpURL(in.TrackingURL), "tracking_url", "must be an http(s) URL")
	}
	return v.Err()
}

// Ship marks a paid, confirmed order shipped with its carrier, tracking
// number and link, and in the same transaction queues the shopper's "on its
// way" mail and the order.shipped event. Errors: validation_failed,
// not_found, invalid_order_state (not paid and confirmed, or shipped already).
func (os *OrderService) Ship(storeID, id uint64, in ShipInput) (*Order, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	var o *Order
	err := os.s.DB.Update(func(tx Tx) error {
		var err error
		if o, err = tx.Order(storeID, id); err != nil {
			return err
		}
		if !o.ShippedAt.IsZero() {
			return Errorf(EInvalidOrderState, "order #%d was shipped on %s", o.ID, UTC(o.ShippedAt).Format(time.DateOnly))
		}
		if o.Status != OrderConfirmed || (o.PaymentStatus != PaymentPaid && o.PaymentStatus != PaymentPartiallyRefunded) {
			return Errorf(EInvalidOrderState, "only a paid, confirmed order can be shipped (this one is %s, %s)", o.Status, o.PaymentStatus)
		}
		if in.TrackingURL == "" {
			st, err := tx.SharedStore(storeID)
			if err != nil {
				return err
			}
			in.TrackingURL = TrackingURL(st, in.Carrier, in.TrackingNumber)
		}
		now := UTC(tx.Now())
		o.Carrier, o.TrackingNumber, o.TrackingURL, o.ShippedAt, o.UpdatedAt = in.Carrier, in.TrackingNumber, in.TrackingURL, now, now
		if err := tx.PutOrder(o); err != nil {
			return err
		}
		return os.s.Happened(tx, Change{Type: EvOrderShipped, StoreID: storeID, Order: o})
	})
	if err == nil {
		os.s.Kick()
	}
	return o, err
}

// DeliveryUndoWindow is how long after the store marks an order DELIVERED
// it may undo that (UndoDelivered). The shopper's "delivered" mail is held
// for the window and a minute more, so that an undo withdraws it before any
// worker can claim it (docs/decisions.md, "Fulfilment, delivery undo, timeline and bulk").
const DeliveryUndoWindow = 5 * time.Minute

// deliveredMailHold is how long the "delivered" mail waits in the outbox.
const deliveredMailHold = DeliveryUndoWindow + time.Minute

// undoMailScan bounds the outbox mails an undo looks through for the held
// "delivered" mail (newest first; it is younger than the window).
const undoMailScan = 500

// CanUndoDelivered reports whether o's move to DELIVERED can still be undone
// at now: marked by hand, and less than DeliveryUndoWindow ago.
func (o *Order) CanUndoDelivered(now time.Time) bool {
	return o.Status == OrderDelivered && !o.DeliveredAt.IsZero() && now.Before(o.DeliveredAt.Add(DeliveryUndoWindow))
}

// adminEmail is by's email, "" for none.
func adminEmail(by *AdminUser) string {
	if by == nil {
		return ""
	}
	return by.Email
}

// deliveredMail queues the shopper's "delivered" mail of o, held for the
// undo window when the store marked it by hand.
func (m *mailing) deliveredMail(o *Order) error {
	to := orderEmail(m.tx, o)
	if to == "" {
		return nil
	}
	d := m.d
	d.OrderURL = m.orderURL
	mail := &Mail{StoreID: m.st.ID, Kind: MailOrderDelivered, To: oneLine(to), Data: &d}
	if o.DeliveredAt.IsZero() {
		return queueMail(m.tx, mail)
	}
	now := UTC(m.tx.Now())
	mail.CreatedAt, mail.QueuedAt, mail.NextAt, mail.Status = now, now, now.Add(deliveredMailHold), MailQueued
	return m.tx.AddOutbox(mail)
}

// UndoDelivered takes back a move to DELIVERED made by hand less than
// DeliveryUndoWindow ago: the order is CONFIRMED again (its fulfilment
// shipped or unfulfilled as before), the held "delivered" mail withdrawn,
// a note records who undid it, and order.status_changed is sent with the
// status back (the first one went out at once). Errors: not_found,
// invalid_order_state (not DELIVERED, or the window is over).
func (os *OrderService) UndoDelivered(storeID, id uint64, by *AdminUser) (*Order, error) {
	var o *Order
	err := os.s.DB.Update(func(tx Tx) error {
		var err error
		if o, err = tx.Order(storeID, id); err != nil {
			return err
		}
		now := UTC(tx.Now())
		if !o.CanUndoDelivered(now) {
			return Errorf(EInvalidOrderState, "order #%d cannot be undone: only a move to DELIVERED made in the panel or API in the last %d minutes can", o.ID, int(DeliveryUndoWindow.Minutes()))
		}
		if err := withdrawDeliveredMail(tx, o); err != nil {
			return err
		}
		if len(o.Notes) < MaxOrderNotes {
			o.Notes = append(o.Notes, OrderNote{At: now, AdminID: adminID(by), Author: adminEmail(by),
				Text: "Delivery undone (marked delivered by " + o.DeliveredBy + " at " + o.DeliveredAt.Format("15:04") + " UTC)."})
		}
		o.Status, o.DeliveredAt, o.DeliveredBy, o.UpdatedAt = OrderConfirmed, time.Time{}, "", now
		if err := tx.PutOrder(o); err != nil {
			return err
		}
		return os.s.Happened(tx, Change{Type: EvOrderStatusChanged, StoreID: storeID, Order: o})
	})
	if err == nil {
		os.s.Kick()
	}
	return o, err
}

func adminID(by *AdminUser) uint64 {
	if by == nil {
		return 0
	}
	return by.ID
}

// withdrawDeliveredMail marks the still-queued "delivered" mail of o failed
// ("withdrawn"), so that it is never sent.
func withdrawDeliveredMail(tx Tx, o *Order) error {
	pg, err := tx.Outbox(o.StoreID, ListParams{Limit: undoMailScan})
	if err != nil {
		return err
	}
	for _, m := range pg.Items {
		if m.CreatedAt.Before(o.DeliveredAt) {
			break
		}
		if m.Kind != MailOrderDelivered || m.State() != MailQueued || m.Data == nil || m.Data.Order == nil || m.Data.Order.ID != o.ID {
			continue
		}
		m.Status, m.LastError, m.NextAt = MailFailed, "withdrawn: the delivery was undone", time.Time{}
		if err := tx.PutMail(m); err != nil {
			return err
		}
	}
	return nil
}
