package app

// CustomerDetailItems is how many of a customer's orders (a page), tickets
// and reviews (the newest) the admin's customer page shows.
const CustomerDetailItems = 20

// CustomerDetail is everything the store has of one customer: the profile,
// the newest orders, tickets and reviews, and every address.
type CustomerDetail struct {
	Customer    *Customer
	Orders      []*Order // a page, newest first
	NextOrders  *Cursor  // the next page of orders (nil: the last)
	Addresses   []*Address
	Tickets     []*Ticket
	MoreTickets bool
	Reviews     []*Review
	MoreReviews bool
}

// Detail reads a customer and what belongs to them in one read transaction:
// the page of orders after ordersAfter (nil: the newest). Errors: not_found.
func (cs *CustomerService) Detail(storeID, id uint64, ordersAfter *Cursor) (CustomerDetail, error) {
	var d CustomerDetail
	err := cs.s.DB.View(func(tx Tx) error {
		var err error
		if d.Customer, err = tx.Customer(storeID, id); err != nil {
			return err
		}
		lp := ListParams{Sort: SortNewest, Limit: CustomerDetailItems}
		orders, err := tx.CustomerOrders(storeID, id, ListParams{Sort: SortNewest, Limit: CustomerDetailItems, After: ordersAfter})
		if err != nil {
			return err
		}
		d.Orders, d.NextOrders = orders.Items, orders.Next
		if d.Addresses, err = tx.Addresses(storeID, id); err != nil {
			return err
		}
		SortAddresses(d.Addresses)
		tickets, err := tx.CustomerTickets(storeID, id, lp)
		if err != nil {
			return err
		}
		d.Tickets, d.MoreTickets = tickets.Items, tickets.Next != nil
		reviews, err := tx.CustomerReviews(storeID, id, CustomerDetailItems+1)
		if err != nil {
			return err
		}
		d.MoreReviews = len(reviews) > CustomerDetailItems
		d.Reviews = reviews[:min(len(reviews), CustomerDetailItems)]
		return nil
	})
	return d, err
}
