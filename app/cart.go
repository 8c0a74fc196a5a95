package app

// CartService is a stub: the shopper's cart (issue 4).
type CartService struct{ s *Services }

func newCartService(s *Services) *CartService { return &CartService{s: s} }

// CartTx is the storage of this service's records.
type CartTx interface{}
