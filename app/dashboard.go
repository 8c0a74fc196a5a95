package app

import (
	"time"
)

// DayStats is what a store sold on one UTC day, in one currency: orders
// placed that day that were paid (whatever happened to them since), their
// totals, and what of it was refunded. Storage keeps these per store, per
// day, per currency, updated by every order write in its transaction
// (OrderStatsDelta), so the dashboard never reads orders.
type DayStats struct {
	Day      time.Time // midnight UTC
	Currency string
	Orders   int64
	Gross    Money
	Refunded Money
}

// Revenue is what was paid and kept.
func (d DayStats) Revenue() Money { return d.Gross - d.Refunded }

// OrderStatsOf is an order's share of its day's DayStats: one paid order and
// its total when it was paid, nothing otherwise.
func OrderStatsOf(o *Order) (orders int64, gross, refunded Money) {
	if o == nil {
		return 0, 0, 0
	}
	switch o.PaymentStatus {
	case PaymentPaid, PaymentPartiallyRefunded, PaymentRefunded:
		return 1, o.Total, o.RefundedAmount
	}
	return 0, 0, 0
}

// StatsDay is the day bucket of an order: the UTC date it was placed.
func StatsDay(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// CountsAsLowStock reports whether p is listed among the dashboard's
// products low on stock: active, and at or below its own threshold.
func (p *Product) CountsAsLowStock() bool { return p.IsActive && p.LowStock() }

// ExpiringSoon is how close to its expiry an unpaid order is "about to expire".
const ExpiringSoon = 10 * time.Minute

// DashboardTx is what the dashboard reads: the day aggregates and counts
// taken from status indexes (no record is decoded).
type DashboardTx interface {
	// OrderDayStats returns the day aggregates of days in [from, to), by day then currency.
	OrderDayStats(storeID uint64, from, to time.Time) ([]DayStats, error)
	// CountPendingOrdersBefore counts PENDING orders created before t.
	CountPendingOrdersBefore(storeID uint64, t time.Time) (int, error)
	// CountRequests counts a store's requests of a kind in a status.
	CountRequests(storeID uint64, kind, status string) (int, error)
	// CountReviews counts a store's reviews in a status.
	CountReviews(storeID uint64, status string) (int, error)
	// CountTickets counts a store's tickets in a status.
	CountTickets(storeID uint64, status string) (int, error)
	// CountUnreadMessages counts a store's unread contact messages.
	CountUnreadMessages(storeID uint64) (int, error)
	// CountLowStock counts a store's products that CountsAsLowStock.
	CountLowStock(storeID uint64) (int, error)
}

// Period is one line of the dashboard's figures.
type Period struct {
	Label    string
	Days     int
	Currency string
	Orders   int64
	Gross    Money
	Refunded Money
}

// Revenue is what was paid and kept over the period.
func (p Period) Revenue() Money { return p.Gross - p.Refunded }

// AverageOrder is the average paid order total (gross) rounded half-up to
// the cent, 0 without orders.
func (p Period) AverageOrder() Money {
	if p.Orders == 0 {
		return 0
	}
	return DivRound(int64(p.Gross), p.Orders)
}

// ChartDay is one bar of the dashboard chart.
type ChartDay struct {
	Day     time.Time
	Orders  int64
	Revenue Money
}

// Todo is one line of the dashboard's to-do list.
type Todo struct {
	Key   string // cancellations, refunds, reviews, tickets, messages, low_stock, expiring
	Label string
	Count int
}

// Dashboard is a store's dashboard: figures in the store's currency (orders
// in another currency are listed apart in Other), the last 30 days by day,
// and what waits for the store.
type Dashboard struct {
	Currency string
	Periods  []Period // today, last 7 days, last 30 days
	Other    []Period // 30-day totals of orders in other currencies
	Chart    []ChartDay
	Todos    []Todo
	Now      time.Time
	// Taxes is the tax per rate of the last 30 days (stores with rates only).
	Taxes []TaxCollected
}

// Dashboard builds a store's dashboard from the day aggregates and the
// status indexes, in one read transaction. Errors: not_found.
func (os *OrderService) Dashboard(storeID uint64) (*Dashboard, error) {
	d, err := os.dashboard(storeID)
	if err == nil {
		err = os.dashboardTaxes(storeID, d)
	}
	return d, err
}

func (os *OrderService) dashboard(storeID uint64) (*Dashboard, error) {
	return view(os.s.DB, func(tx Tx) (*Dashboard, error) {
		st, err := tx.Store(storeID)
		if err != nil {
			return nil, err
		}
		now := tx.Now().UTC()
		today := StatsDay(now)
		from := today.AddDate(0, 0, -29)
		days, err := tx.OrderDayStats(storeID, from, today.AddDate(0, 0, 1))
		if err != nil {
			return nil, err
		}
		d := &Dashboard{Currency: st.Currency, Now: now}
		d.Periods = []Period{{Label: "Today", Days: 1}, {Label: "Last 7 days", Days: 7}, {Label: "Last 30 days", Days: 30}}
		other := map[string]*Period{}
		byDay := map[time.Time]*ChartDay{}
		for i := 0; i < 30; i++ {
			day := from.AddDate(0, 0, i)
			d.Chart = append(d.Chart, ChartDay{Day: day})
		}
		for i := range d.Chart {
			byDay[d.Chart[i].Day] = &d.Chart[i]
		}
		for _, ds := range days {
			if ds.Currency != st.Currency {
				p := other[ds.Currency]
				if p == nil {
					p = &Period{Label: "Last 30 days", Days: 30, Currency: ds.Currency}
					other[ds.Currency] = p
				}
				p.Orders, p.Gross, p.Refunded = p.Orders+ds.Orders, p.Gross+ds.Gross, p.Refunded+ds.Refunded
				continue
			}
			age := int(today.Sub(ds.Day).Hours() / 24)
			for i := range d.Periods {
				if age < d.Periods[i].Days {
					p := &d.Periods[i]
					p.Orders, p.Gross, p.Refunded = p.Orders+ds.Orders, p.Gross+ds.Gross, p.Refunded+ds.Refunded
				}
			}
			if c := byDay[ds.Day]; c != nil {
				c.Orders += ds.Orders
				c.Revenue += ds.Revenue()
			}
		}
		for i := range d.Periods {
			d.Periods[i].Currency = st.Currency
		}
		for _, p := range other {
			d.Other = append(d.Other, *p)
		}
		d.Todos, err = todos(tx, storeID, now, os.s.Opt.PendingTTL)
		return d, err
	})
}

func todos(tx DashboardTx, storeID uint64, now time.Time, ttl time.Duration) ([]Todo, error) {
	type count struct {
		key, label string
		fn         func() (int, error)
	}
	list := []count{
		{"cancellations", "Cancellation requests to decide", func() (int, error) {
			return tx.CountRequests(storeID, KindCancellation, RequestPending)
		}},
		{"refunds", "Refund requests to decide", func() (int, error) { return tx.CountRequests(storeID, KindRefund, RequestPending) }},
		{"reviews", "Reviews to moderate", func() (int, error) { return tx.CountReviews(storeID, ReviewPending) }},
		{"tickets", "Open tickets", func() (int, error) { return tx.CountTickets(storeID, TicketOpen) }},
		{"messages", "Unread messages", func() (int, error) { return tx.CountUnreadMessages(storeID) }},
		{"low_stock", "Products low on stock", func() (int, error) { return tx.CountLowStock(storeID) }},
		{"expiring", "Unpaid orders about to expire", func() (int, error) {
			return tx.CountPendingOrdersBefore(storeID, now.Add(-ttl+ExpiringSoon))
		}},
	}
	out := make([]Todo, 0, len(list))
	for _, c := range list {
		n, err := c.fn()
		if err != nil {
			return nil, err
		}
		out = append(out, Todo{Key: c.key, Label: c.label, Count: n})
	}
	return out, nil
}
