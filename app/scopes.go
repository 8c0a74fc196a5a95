package app

// What each narrowed service reads and writes: the storage areas it uses,
// named in one place and held as a Scope (db.go). A method that needs
// another area does not compile until the area is added here, so these
// lines are the services' storage dependencies, checked. Checkout, orders,
// payments, requests, customers and the catalog keep the whole Tx: their
// transactions cross most areas (docs/decisions.md, "Layering and services").
type (
	storeData interface {
		BaseTx
		StoreTx
	}
	adminData interface {
		BaseTx
		StoreTx
		AdminTx
		RevocationTx
	}
	auditData interface {
		BaseTx
		AuditTx
	}
	couponData interface {
		BaseTx
		CouponTx
	}
	cartData interface {
		BaseTx
		StoreTx
		CatalogTx
		ContentTx
		CartTx
	}
	contentData interface {
		BaseTx
		CatalogTx
		ContentTx
	}
	webhookData interface {
		BaseTx
		StoreTx
		WebhookTx
	}
	// Reviews, tickets and contact messages record events and queue mail.
	reviewData interface {
		notifyTx
		CatalogTx
		OrderTx
		ReviewTx
	}
	ticketData interface {
		notifyTx
		OrderTx
		TicketTx
	}
	contactData interface {
		notifyTx
		ContactTx
	}

	// notifyTx is what a change's event and mails read and write (notify.go).
	notifyTx interface {
		BaseTx
		StoreTx
		SharedStoreTx
		CustomerTx
		MailTx
		WebhookTx
	}
	// mailTx queues mail in the outbox.
	mailTx interface {
		BaseTx
		MailTx
	}
)

// What the shared steps of several services read and write.
type (
	// verifiedTx checks a shopper's verified email against the store's rule.
	verifiedTx interface {
		StoreTx
		CustomerTx
	}
	// clockedCatalogTx writes products (ids from the sequences).
	clockedCatalogTx interface {
		BaseTx
		CatalogTx
	}
	// clockedContentTx prices a product at a time (flash deals).
	clockedContentTx interface {
		BaseTx
		ContentTx
	}
	// sessionTx starts shopper sessions and keeps one-time codes.
	sessionTx interface {
		BaseTx
		CustomerTx
	}
	// revokeTx revokes access tokens.
	revokeTx interface {
		BaseTx
		RevocationTx
	}
	// signOutTx ends a shopper's sessions and revokes their tokens.
	signOutTx interface {
		BaseTx
		CustomerTx
		RevocationTx
	}
	// eventTx records a webhook event.
	eventTx interface {
		BaseTx
		WebhookTx
	}
	// stockTx gives an order's reserved stock back.
	stockTx interface {
		CatalogTx
		PaymentTx
	}
	// cancelTx cancels an order: its stock, its coupon use, its session.
	cancelTx interface {
		CatalogTx
		CouponTx
		OrderTx
		PaymentTx
	}
	// decisionTx applies a store's decision on a shopper's request.
	decisionTx interface {
		cancelTx
		RequestTx
		invoiceTx // credit notes
	}
	// storeRequestTx files a request the store makes itself.
	storeRequestTx interface {
		BaseTx
		OrderTx
		RequestTx
	}
	// settleLateTx records a payment that came after its order ended.
	settleLateTx interface {
		OrderTx
		PaymentTx
		invoiceTx
	}
	// settleInvalidTx cancels an order whose payment failed its checks.
	settleInvalidTx interface {
		notifyTx
		cancelTx
	}
	// settleTx settles a paid order (and empties the shopper's cart).
	settleTx interface {
		notifyTx
		CartTx
		OrderTx
		PaymentTx
	}
)
