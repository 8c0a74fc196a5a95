package app

import "time"

// TaxCollected is the tax of one rate on the dashboard: what the paid
// orders of the period carried, what their credit notes gave back, and
// what was kept.
type TaxCollected struct {
	Name, Rate        string
	Charged, Refunded Money
	Currency          string
}

// Kept is what the period's tax comes to after refunds.
func (t TaxCollected) Kept() Money { return t.Charged - t.Refunded }

// taxCollected sums the tax lines of a store's paid orders placed on the
// days from..to (UTC) in currency, per rate, minus their credit notes. It
// reads the orders (the day aggregates hold no tax), so the dashboard calls
// it only for stores with rates set.
func (os *OrderService) taxCollected(storeID uint64, currency string, from, to time.Time) ([]TaxCollected, error) {
	var out []TaxCollected
	at := map[[2]string]int{}
	add := func(lines []TaxLine, refund bool) {
		for _, l := range lines {
			k := [2]string{l.Name, l.Rate}
			i, ok := at[k]
			if !ok {
				i = len(out)
				at[k] = i
				out = append(out, TaxCollected{Name: l.Name, Rate: l.Rate, Currency: currency})
			}
			if refund {
				out[i].Refunded += l.Amount
			} else {
				out[i].Charged += l.Amount
			}
		}
	}
	err := os.ExportOrders(storeID, OrderQuery{From: from, To: to, Sort: OrderSortOldest}, func(o *Order) error {
		if n, _, _ := OrderStatsOf(o); n == 0 || o.Currency != currency {
			return nil
		}
		add(o.TaxLines, false)
		for _, c := range o.CreditNotes {
			add(c.TaxLines, true)
		}
		return nil
	})
	return out, err
}

// dashboardTaxes fills d.Taxes for the last 30 days when the store has tax
// rates (nothing is read otherwise).
func (os *OrderService) dashboardTaxes(storeID uint64, d *Dashboard) error {
	st, err := os.s.Stores.Get(storeID)
	if err != nil || len(st.Settings().Taxes.Rates) == 0 {
		return err
	}
	today := StatsDay(d.Now)
	d.Taxes, err = os.taxCollected(storeID, d.Currency, today.AddDate(0, 0, -29), today)
	return err
}
