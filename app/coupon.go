package app

// CouponService is a stub: coupons (issue 4).
type CouponService struct{ s *Services }

func newCouponService(s *Services) *CouponService { return &CouponService{s: s} }

// CouponTx is the storage of this service's records.
type CouponTx interface{}
