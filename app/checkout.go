package app

// OrderService is a stub: payment initiation, shopper and admin order reads, pending expiry (issue 4).
type OrderService struct{ s *Services }

func newOrderService(s *Services) *OrderService { return &OrderService{s: s} }

// PaymentTx is the storage of this service's records.
type PaymentTx interface{}

// ExpirePending cancels PENDING orders unpaid for longer than Opt.PendingTTL
// and releases their stock; a cron job calls it. It returns how many it cancelled.
func (os *OrderService) ExpirePending() (int, error) { return 0, nil }
