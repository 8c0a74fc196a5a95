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
	// UnpaidOrdersPerHour limits orders placed per client IP and per guest
	// email or shopper within an hour (0: off).
	UnpaidOrdersPerHour int
	// GuestCartsPerHour limits the guest carts one client IP makes in a
	// store within an hour (0: off).
	GuestCartsPerHour int
	// DemoSubdomain, in demo mode, is the demo store's subdomain: that store
	// also allows local origins (LocalOrigin) for CORS and callbacks.
	DemoSubdomain string
	// TicketsPerHour limits tickets a shopper opens within an hour (0: off).
	TicketsPerHour int
	// Limiter counts login attempts and other limits (nil: an in-memory one).
	Limiter        Limiter
	GatewaySecrets map[string][]byte // per payment method HMAC secret for the sandbox
	// NewStoresLive: a new store starts with payments_live on (test mode
	// off), so the sandbox and Stripe test keys are refused at checkout until
	// the store turns test mode on. main sets it on every server but the
	// demo; the zero value (test mode on) is for tests and the demo.
	NewStoresLive bool
}

// Services holds every service of the domain. Construct with NewServices.
type Services struct {
	DB  DB
	Now Clock
	// Mailer is the mail transport the OutboxWorker uses (nil: none).
	Mailer Mailer
	// OnQueued, set by main, wakes the outbox and webhook workers after a
	// commit that queued work (nil: they find it on their next tick).
	OnQueued func()
	Tokens   Tokens
	Pass     Passwords
	Log      *slog.Logger
	Opt      Options
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
	Webhooks  *WebhookService
	Audit     *AuditService
}

// Storefront are the services the storefront's two faces call, the API
// (web) and the shop, and nothing else: the admin-only services are not
// reachable from them.
type Storefront struct {
	Now    Clock
	Tokens Tokens
	Limits Limiter

	Stores    *StoreService
	Catalog   *CatalogService
	Customers *CustomerService
	Carts     *CartService
	Orders    *OrderService
	Payments  *PaymentService
	Requests  *RequestService
	Reviews   *ReviewService
	Tickets   *TicketService
	Contact   *ContactService
	Content   *ContentService
}

// Storefront is the storefront's part of s.
func (s *Services) Storefront() Storefront {
	return Storefront{Now: s.Now, Tokens: s.Tokens, Limits: s.Limits, Stores: s.Stores, Catalog: s.Catalog,
		Customers: s.Customers, Carts: s.Carts, Orders: s.Orders, Payments: s.Payments, Requests: s.Requests,
		Reviews: s.Reviews, Tickets: s.Tickets, Contact: s.Contact, Content: s.Content}
}

// NewServices wires the services over db. now, mailer and log may be nil
// (real clock, no mail transport, discard). Mail always goes to the outbox
// first; the OutboxWorker hands it to mailer (nil: it stays in the outbox).
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
	s.DB = catalogDB{DB: db, changed: func(id uint64) { s.Catalog.dropPages(id) }, dealsChanged: func(id uint64) { s.Catalog.dropDeals(id) }}
	s.raw = db
	if s.Limits == nil {
		s.Limits = NewMemLimiter(now)
	}
	s.Mailer = mailer
	// Each service is given what it uses, nothing more.
	sdb := s.DB // catalogDB: its writes drop cached catalog pages
	// n turns changes into their webhook events and mails (notify.go).
	n := s.notifier()
	mailing := mailDeps{DB: sdb, notifier: n}
	s.Stores = newStoreService(storeDeps{DB: sdb, Log: log, broadcast: s.broadcast, demo: opt.DemoSubdomain, newLive: opt.NewStoresLive, publicURL: opt.PublicURL, pictures: s.localImages})
	_, shared := db.(Broadcaster)
	s.Catalog = newCatalogService(catalogDeps{DB: sdb, Now: now, broadcast: s.broadcast, PublicURL: opt.PublicURL, notifier: n, cacheLists: shared})
	s.Admins = newAdminService(adminDeps{DB: sdb, Log: log, Now: now, Opt: opt, Pass: pass, Tokens: tokens,
		revocations: s.revocations, revoked: s.revoked, takeAdminLogin: s.takeAdminLogin})
	s.Customers = newCustomerService(customerDeps{DB: sdb, Log: log, Now: now, Opt: opt, Pass: pass, Tokens: tokens,
		SendMail: s.SendMail, kick: s.Kick, revoked: s.revoked, takeShopperLogin: s.takeShopperLogin, Limits: s.Limits}, s.revocations)
	s.Carts = newCartService(sdb, opt, s.Limits)
	s.Payments = newPaymentService(paymentDeps{DB: sdb, Log: log, Opt: opt, Stores: s.Stores, notifier: n})
	s.Orders = newOrderService(orderDeps{DB: sdb, Now: now, Log: log, Opt: opt, Limits: s.Limits, Payments: s.Payments, Stores: s.Stores, notifier: n})
	s.Coupons = newCouponService(sdb)
	s.Requests = newRequestService(requestDeps{DB: sdb, Log: log, Payments: s.Payments, notifier: n})
	s.Reviews = newReviewService(mailing)
	s.Tickets = newTicketService(ticketDeps{DB: sdb, notifier: n, Opt: opt, Limits: s.Limits})
	s.Contact = newContactService(mailing)
	s.Content = newContentService(sdb, s.localImages)
	s.Webhooks = newWebhookService(mailing)
	s.Audit = newAuditService(sdb)
	s.listen()
	return s
}

// The collaborators of each service. A service reads them as s.DB, s.Log,
// ...; the struct names what it may use.
type (
	// mailDeps is a service whose writes have side effects (events, mail).
	mailDeps struct {
		DB DB
		notifier
	}

	storeDeps struct {
		DB        DB
		Log       *slog.Logger
		broadcast func(Event) // tells the other processes sharing the database
		demo      string      // Options.DemoSubdomain
		newLive   bool        // Options.NewStoresLive
		publicURL string      // Options.PublicURL: its host is no store's domain
		pictures  pictures    // the config's pictures given by URL (media_fetch.go)
	}

	catalogDeps struct {
		DB        DB
		Now       Clock
		broadcast func(Event)
		// PublicURL prefixes the URLs of uploaded images.
		PublicURL string
		notifier  // product.low_stock when a store's edit brings stock down to the threshold
		// cacheLists caches product lists like category pages. It is set on a
		// shared database (a Broadcaster: PostgreSQL), where a page read is a
		// round trip to another process, about half the page's CPU. On bbolt
		// a page is written out from the mapped file's own bytes, cheap,
		// exact, and without a copy kept per query (docs/benchmarks.md).
		cacheLists bool
	}

	paymentDeps struct {
		DB     DB
		Log    *slog.Logger
		Opt    Options
		Stores *StoreService // a store's credentials and payment settings
		notifier
	}

	requestDeps struct {
		DB       DB
		Log      *slog.Logger
		Payments *PaymentService // refunds at the provider
		notifier
	}

	orderDeps struct {
		DB       DB
		Now      Clock
		Log      *slog.Logger
		Opt      Options
		Limits   Limiter // ratelimit.unpaid_orders_per_hour
		Payments *PaymentService
		Stores   *StoreService
		notifier
	}

	ticketDeps struct {
		DB DB
		notifier
		Opt    Options
		Limits Limiter // ratelimit.tickets_per_hour
	}

	adminDeps struct {
		DB             DB
		Log            *slog.Logger
		Now            Clock
		Opt            Options
		Pass           Passwords
		Tokens         Tokens
		revocations    *Revocations
		revoked        func(*Revocation) // a committed revocation: here and in the other processes
		takeAdminLogin func(email, ip, device string) (*loginAttempt, error)
	}

	customerDeps struct {
		DB               DB
		Log              *slog.Logger
		Now              Clock
		Opt              Options
		Pass             Passwords
		Tokens           Tokens
		SendMail         func(Mail) // queues a mail in a transaction of its own (a lock notice)
		kick             func()     // wakes the workers after a commit that queued mail
		revoked          func(*Revocation)
		takeShopperLogin func(storeID uint64, email, ip, device string) (*loginAttempt, error)
		Limits           Limiter // the code mails' budgets (CodeMailLimits)
	}
)
