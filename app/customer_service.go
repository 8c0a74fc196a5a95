package app

// CustomerService is a stub: registration, login, tokens, email codes, profile and addresses (issue 3).
type CustomerService struct{ s *Services }

func newCustomerService(s *Services) *CustomerService { return &CustomerService{s: s} }

// AddressTx is the storage of this service's records.
type AddressTx interface{}
