package app

// Refunds are a permission of their own (PermRefunds: owners and managers
// by default, not staff): every path that gives money back asks it here, the
// admin API's and the panel's alike.

// DecideBy is Decide by an admin: approving a refund request, or a
// cancellation request of a paid order (its money goes back), needs
// PermRefunds. Errors: those of Decide, forbidden.
func (rs *RequestService) DecideBy(storeID uint64, kind string, id uint64, by *AdminUser, approve bool, in DecisionInput) (*Request, error) {
	if approve && !by.Has(PermRefunds) {
		r, err := rs.Get(storeID, kind, id)
		if err != nil {
			return nil, err
		}
		if err := rs.permitRefund(storeID, r.OrderID, kind, by); err != nil {
			return nil, err
		}
	}
	return rs.Decide(storeID, kind, id, by.ID, approve, in)
}

// permitRefund is forbidden when by may not refund and the action of kind
// on the order gives money back: a refund, or cancelling a paid order.
func (rs *RequestService) permitRefund(storeID, orderID uint64, kind string, by *AdminUser) error {
	if by == nil || by.Has(PermRefunds) {
		return nil
	}
	if kind == KindCancellation {
		o, err := view(rs.s.DB, func(tx Tx) (*Order, error) { return tx.Order(storeID, orderID) })
		if err != nil {
			return err
		}
		if o.PaymentStatus != PaymentPaid && o.PaymentStatus != PaymentPartiallyRefunded {
			return nil // nothing to give back
		}
	}
	return Errorf(EForbidden, "your role (%s) may not refund; ask an owner or a manager", by.Role)
}
