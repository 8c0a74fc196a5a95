package app

import (
	"log/slog"
	"time"
)

// Options are the settings services act on; main fills them from config.
type Options struct {
	PublicURL     string        // base URL the server is reached at, no trailing slash
	AccessTTL     time.Duration // shopper access token lifetime
	RefreshTTL    time.Duration // shopper refresh token lifetime
	AdminTTL      time.Duration // admin token lifetime
	PendingTTL    time.Duration // unpaid PENDING orders expire after this
	BcryptCost    int
	LoginFailures int // failed logins per 15 minutes: shopper per store and email, admin per email and address (0: 5)
	// Limiter counts login attempts and other limits (nil: an in-memory one).
	Limiter        Limiter
	GatewaySecrets map[string][]byte // per payment method HMAC secret for the sandbox
}

// Services holds every service of the domain. Construct with NewServices.
type Services struct {
	DB     DB
	Now    Clock
	Mailer Mailer
	Tokens Tokens
	Pass   Passwords
	Log    *slog.Logger
	Opt    Options
	// Limits counts attempts for every take-then-check limit (logins, ...).
	Limits Limiter

	revocations *Revocations // revoked access tokens (shopper and admin)
	raw         DB           // the database as given, for its optional interfaces (cluster.go)

	Stores    *StoreService
	Catalog   *CatalogService
	Admins    *AdminService
	Customers *CustomerService
	Carts     *CartService
	Orders    *OrderService
	Payments  *PaymentService
	Coupons   *CouponService
	Requests  *RequestService
	Reviews   *ReviewService
	Tickets   *TicketService
	Contact   *ContactService
	Content   *ContentService
	Audit     *AuditService
}

// NewServices wires the services over db. now, mailer and log may be nil
// (real clock, outbox mailer, discard).
func NewServices(db DB, tokens Tokens, pass Passwords, mailer Mailer, now Clock, log *slog.Logger, opt Options) *Services {
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opt.AccessTTL == 0 {
		opt.AccessTTL = 15 * time.Minute
	}
	if opt.RefreshTTL == 0 {
		opt.RefreshTTL = 30 * 24 * time.Hour
	}
	if opt.AdminTTL == 0 {
		opt.AdminTTL = 12 * time.Hour
	}
	if opt.PendingTTL == 0 {
		opt.PendingTTL = 30 * time.Minute
	}
	if opt.LoginFailures == 0 {
		opt.LoginFailures = defaultLoginFailures
	}
	if opt.BcryptCost == 0 {
		opt.BcryptCost = 10
	}
	s := &Services{Now: now, Tokens: tokens, Pass: pass, Log: log, Opt: opt, Limits: opt.Limiter, revocations: newRevocations()}
	// Every service writes through catalogDB: a catalog write drops the
	// store's cached category pages (the one place that does).
	s.DB = catalogDB{DB: db, changed: func(storeID uint64) { s.Catalog.dropPages(storeID) }}
	s.raw = db
	if s.Limits == nil {
		s.Limits = NewMemLimiter(now)
	}
	if mailer == nil {
		mailer = OutboxMailer{DB: db}
	}
	s.Mailer = mailer
	s.Stores = newStoreService(s)
	s.Catalog = newCatalogService(s)
	s.Admins = newAdminService(s)
	s.Customers = newCustomerService(s)
	s.Carts = newCartService(s)
	checkoutCommit := &groupCommit{} // initiation and verification group together
	s.Orders = newOrderService(s, checkoutCommit)
	s.Payments = newPaymentService(s, checkoutCommit)
	s.Coupons = newCouponService(s)
	s.Requests = newRequestService(s)
	s.Reviews = newReviewService(s)
	s.Tickets = newTicketService(s)
	s.Contact = newContactService(s)
	s.Content = newContentService(s)
	s.Audit = newAuditService(s)
	s.listen()
	return s
}
