package app

// TicketService is a stub: support tickets (issue 6).
type TicketService struct{ s *Services }

func newTicketService(s *Services) *TicketService { return &TicketService{s: s} }

// TicketTx is the storage of this service's records.
type TicketTx interface{}
