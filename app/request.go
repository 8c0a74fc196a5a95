package app

// RequestService is a stub: delivery updates, cancellation and refund requests (issue 5).
type RequestService struct{ s *Services }

func newRequestService(s *Services) *RequestService { return &RequestService{s: s} }

// RequestTx is the storage of this service's records.
type RequestTx interface{}
