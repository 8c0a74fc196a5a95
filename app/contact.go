package app

// ContactService is a stub: the contact form (issue 6).
type ContactService struct{ s *Services }

func newContactService(s *Services) *ContactService { return &ContactService{s: s} }

// ContactTx is the storage of this service's records.
type ContactTx interface{}
