package app

import (
	"sort"
	"strconv"
	"time"
)

// Bounds of what an order's timeline reads: the newest audit entries of
// the order, and the newest outbox mails of the store it looks through for
// the order's own (an old order of a busy store shows its recorded moves,
// notes and requests; its mails only while they are among these).
const (
	timelineAuditLimit = 200
	timelineMailScan   = 500
)

// TimelineEntry is one thing that happened to an order: when, who did it
// ("" when the system or the shopper did), and what.
type TimelineEntry struct {
	At   time.Time
	Who  string
	What string
}

// Timeline is the story of o, oldest first, built from what is recorded:
// the order's own times (placed, shipped, marked delivered), its notes and
// provider refunds, its requests (reqs: the cancellations and refunds of
// Detail), the store's audit log of admin writes on it, and its mails in
// the outbox.
func (os *OrderService) Timeline(o *Order, reqs []*Request) ([]TimelineEntry, error) {
	t := orderFacts(o, reqs)
	more, err := view(os.s.DB, func(tx Tx) ([]TimelineEntry, error) {
		var out []TimelineEntry
		pg, err := tx.AuditEntries(AuditFilter{StoreID: o.StoreID, Object: "orders/" + strconv.FormatUint(o.ID, 10)}, ListParams{Limit: timelineAuditLimit})
		if err != nil {
			return nil, err
		}
		for _, e := range pg.Items {
			out = append(out, TimelineEntry{At: UTC(e.At), Who: e.AdminEmail, What: "Admin action " + e.Action + " (" + e.Via + ", HTTP " + strconv.Itoa(e.Status) + ")"})
		}
		mails, err := tx.Outbox(o.StoreID, ListParams{Limit: timelineMailScan})
		if err != nil {
			return nil, err
		}
		for _, m := range mails.Items {
			if m.Data != nil && m.Data.Order != nil && m.Data.Order.ID == o.ID {
				out = append(out, TimelineEntry{At: UTC(m.CreatedAt), What: "Mail " + m.Kind + " to " + m.To + ": " + m.State()})
			}
		}
		return out, nil
	})
	if err != nil {
		return nil, err
	}
	t = append(t, more...)
	sort.SliceStable(t, func(i, j int) bool { return t[i].At.Before(t[j].At) })
	return t, nil
}

// orderFacts are the timeline entries recorded on o and its requests.
func orderFacts(o *Order, reqs []*Request) []TimelineEntry {
	t := []TimelineEntry{{At: UTC(o.CreatedAt), What: "Order placed (" + o.Total.String() + " " + o.Currency + ", " + o.PaymentMethod + ")"}}
	if !o.ShippedAt.IsZero() {
		t = append(t, TimelineEntry{At: UTC(o.ShippedAt), What: "Shipped with " + o.Carrier + ", tracking " + o.TrackingNumber})
	}
	if !o.DeliveredAt.IsZero() {
		t = append(t, TimelineEntry{At: UTC(o.DeliveredAt), Who: o.DeliveredBy, What: "Marked " + OrderDelivered})
	}
	for _, n := range o.Notes {
		t = append(t, TimelineEntry{At: UTC(n.At), Who: n.Author, What: "Note: " + n.Text})
	}
	for _, r := range o.ProviderRefunds {
		t = append(t, TimelineEntry{At: UTC(r.At), What: "Refunded " + r.Amount.String() + " " + o.Currency + " at the payment provider (" + r.ID + ")"})
	}
	for _, r := range reqs {
		by := "the shopper"
		if r.ByStore {
			by = "the store"
		}
		t = append(t, TimelineEntry{At: UTC(r.CreatedAt), What: r.Kind + " request #" + strconv.FormatUint(r.ID, 10) + " filed by " + by})
		if r.ReviewedAt != nil {
			t = append(t, TimelineEntry{At: UTC(*r.ReviewedAt), What: r.Kind + " request #" + strconv.FormatUint(r.ID, 10) + " " + r.Status})
		}
	}
	return t
}
