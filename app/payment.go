package app

// PaymentService is a stub: gateways, the sandbox and verification (issue 4).
type PaymentService struct{ s *Services }

func newPaymentService(s *Services) *PaymentService { return &PaymentService{s: s} }
