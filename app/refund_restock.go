package app

// RestockLine gives back stock of one order line with a refund: Line counts
// the order's items from 1, as a person does.
type RestockLine struct {
	Line     int   `json:"line"`
	Quantity int64 `json:"quantity"`
}

// MaxRestockLines bounds the restock list of one refund.
const MaxRestockLines = 200

// checkRestock checks the stock give-back of a store refund on o: only for
// refunds, never on a CANCELLED order (its stock came back already), each
// line named once, and with the units given back before (the order's
// approved refunds) at most the line's quantity.
func checkRestock(tx storeRequestTx, o *Order, kind string, lines []RestockLine) error {
	if len(lines) == 0 {
		return nil
	}
	if kind != KindRefund {
		return Invalid("restock", "stock is given back with a refund only (a cancellation gives it all back)")
	}
	if o.Status == OrderCancelled {
		return Invalid("restock", "the order is CANCELLED: its stock is back already")
	}
	if len(lines) > MaxRestockLines {
		return Invalid("restock", "at most "+itoa(MaxRestockLines)+" lines")
	}
	back, err := restockedSoFar(tx, o)
	if err != nil {
		return err
	}
	seen := map[int]bool{}
	var v Validation
	for i, l := range lines {
		f := "restock[" + itoa(i) + "]"
		switch {
		case l.Line < 1 || l.Line > len(o.Items):
			v.Add(f, "Line "+itoa(l.Line)+": the order has lines 1 to "+itoa(len(o.Items)))
		case seen[l.Line]:
			v.Add(f, "Line "+itoa(l.Line)+" is named twice")
		case l.Quantity < 1:
			v.Add(f, "Line "+itoa(l.Line)+": the quantity must be at least 1")
		case l.Quantity+back[l.Line] > o.Items[l.Line-1].Quantity:
			v.Add(f, "Line "+itoa(l.Line)+": at most "+itoa(int(o.Items[l.Line-1].Quantity-back[l.Line]))+" more can be given back")
		}
		seen[l.Line] = true
	}
	return v.Err()
}

// restockedSoFar sums the units given back per line by o's approved refunds.
func restockedSoFar(tx storeRequestTx, o *Order) (map[int]int64, error) {
	rs, err := tx.OrderRequests(o.StoreID, KindRefund, o.ID)
	if err != nil {
		return nil, err
	}
	out := map[int]int64{}
	for _, r := range rs {
		if r.Status == RequestApproved {
			for _, l := range r.Restock {
				out[l.Line] += l.Quantity
			}
		}
	}
	return out, nil
}

// applyRestock puts the refund's chosen units back into the catalog.
func applyRestock(tx stockTx, o *Order, lines []RestockLine) error {
	for _, l := range lines {
		if l.Line < 1 || l.Line > len(o.Items) {
			continue
		}
		it := o.Items[l.Line-1]
		p, err := tx.Product(o.StoreID, it.ProductID)
		if IsNotFound(err) {
			continue // deleted since: nothing to give back to
		}
		if err != nil {
			return err
		}
		p.PutBackStock(it.VariantID, l.Quantity)
		if err := tx.PutProductStock(p); err != nil {
			return err
		}
	}
	return nil
}
