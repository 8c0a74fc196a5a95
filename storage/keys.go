package storage

import (
	"encoding/binary"
	"time"
)

// Every bucket, with the layout of its keys and values: the one place a
// bucket is declared and created. Tenant buckets key everything by store id
// first (sid); keys are built with keyOf (typed parts, below), never by hand.
// "0" after a part means a NUL-terminated string (str0); "|" joins parts.
var (
	bMeta            = []byte("meta")             // name -> value (schema_version, doc_version, secrets)
	bSeq             = []byte("seq")              // sid|name -> uint64 (NextID)
	bStores          = []byte("stores")           // id -> store
	bStoreKeys       = []byte("store_keys")       // sha256(api key) -> id
	bStoreSubdomains = []byte("store_subdomains") // subdomain -> id
	bAdmins          = []byte("admins")           // id -> admin user
	bAdminEmails     = []byte("admin_emails")     // email -> id

	// Catalog.
	bCategories     = []byte("categories")       // sid|id -> category
	bCategorySlugs  = []byte("category_slugs")   // sid|slug -> id
	bProducts       = []byte("products")         // sid|id -> product
	bProductDocs    = []byte("product_docs")     // sid|id -> app.Doc (public form, docVersion)
	bProductSlugs   = []byte("product_slugs")    // sid|slug -> id
	bIdxProducts    = []byte("idx_products")     // sid|sort|value|id -> index entry (active products)
	bIdxCatProducts = []byte("idx_cat_products") // sid|cid|sort|value|id -> index entry
	bIdxSearch      = []byte("idx_search")       // sid|word0|id -> rating key (words of active products' names; search.go)
	bSearchWords    = []byte("idx_search_words") // sid|word -> how many keys idx_search has for the word (8 bytes)
	// The admin's product list (catalog_admin.go): inactive and low-stock
	// products in the sorts of idx_products, and every product's search words.
	bIdxAdminProducts = []byte("idx_admin_products") // sid|'i' or 'l'|sort|value|id -> index entry
	bAdminSearch      = []byte("admin_search")       // sid|0|id -> words joined by spaces; sid|1|word0|id -> nil
	// Uploaded images (media.go): renditions apart from the product records.
	bMedia     = []byte("media")      // sid|sha256(32)|width(8) -> encoded image
	bMediaRefs = []byte("media_refs") // sid|sha256(32) -> reference count JSON {ext, widths, count}

	// Customers: sessions are refresh-token chains.
	bCustomers      = []byte("customers")             // sid|id -> customer
	bCustomerEmails = []byte("customer_emails")       // sid|normalized email -> id
	bSessions       = []byte("customer_sessions")     // sid|sha256(family) -> session
	bSessionsByCust = []byte("idx_sessions_customer") // sid|cid|sha256(family) -> nil
	bEmailCodes     = []byte("customer_email_codes")  // sid|cid|purpose0 -> code
	// Access-token revocations (store 0: admin tokens): few, short-lived
	// (an access token lifetime), read whole at start-up.
	bRevocations = []byte("token_revocations") // sid|'s'|session0 or sid|'c'|cid -> revocation
	// Addresses and cart lines are keyed under their customer, so another
	// customer's (or store's) id is simply a missing key.
	bAddresses  = []byte("addresses")   // sid|cid|uuid0 -> address
	bCarts      = []byte("carts")       // sid|cid|id -> cart item (cid: a customer, or app.GuestCart.Owner)
	bGuestCarts = []byte("guest_carts") // sid|sha256(token) -> guest cart

	// Orders, payments (sessions appended in sequence, like orders), coupons.
	bOrders          = []byte("orders")              // sid|id -> order
	bIdxOrdersCust   = []byte("idx_orders_customer") // sid|cid|id -> nil
	bIdxOrdersStatus = []byte("idx_orders_status")   // sid|status0|id -> nil
	bPaymentSessions = []byte("payment_sessions")    // sid|seq -> payment session
	bIdempotency     = []byte("idempotency_keys")    // sid|cid|key0 -> idempotency record
	bCoupons         = []byte("coupons")             // sid|id -> coupon
	bCouponCodes     = []byte("coupon_codes")        // sid|CODE -> id (normalized, unique per store)

	// Cancellation and refund requests. The kind is part of every key, so the
	// two kinds share the buckets but not their id sequences.
	bRequests          = []byte("requests")            // sid|kind0|id -> request
	bIdxRequestsOrder  = []byte("idx_requests_order")  // sid|order|kind0|id -> nil
	bIdxRequestsStatus = []byte("idx_requests_status") // sid|kind0|status0|id -> nil

	// Reviews, tickets, contact messages, mail. Ticket indexes are ordered by
	// the per-store ticket number, which grows with time, and hold the ticket id.
	bReviews          = []byte("reviews")              // sid|id -> review
	bReviewOwners     = []byte("review_owners")        // sid|pid|cid -> review id (one review per product per shopper; pid 0: the store)
	bIdxReviewsStatus = []byte("idx_reviews_status")   // sid|status0|id -> nil
	bIdxReviewsPublic = []byte("idx_reviews_public")   // sid|pid|sort|value|id -> JSON of the public view (APPROVED only, docVersion)
	bReviewSummaries  = []byte("review_summaries")     // sid|pid -> summary
	bTickets          = []byte("tickets")              // sid|uuid -> ticket
	bIdxTickets       = []byte("idx_tickets")          // sid|number -> uuid
	bIdxTicketsCust   = []byte("idx_tickets_customer") // sid|cid|number -> uuid
	bIdxTicketsStatus = []byte("idx_tickets_status")   // sid|status0|number -> uuid
	bContact          = []byte("contact_messages")     // sid|id -> message
	bIdxContactRead   = []byte("idx_contact_read")     // sid|unread flag (1 unread, 0 read)|id -> nil
	bOutbox           = []byte("outbox")               // sid|id -> mail

	// The outbox's due list and the outbound webhooks. The due buckets hold
	// the records waiting for their worker, across stores, soonest first:
	// due (whole seconds)|sid|id -> nil.
	bOutboxDue         = []byte("outbox_due")              // due|sid|id -> nil (queued mail only)
	bEvents            = []byte("events")                  // sid|id -> webhook event
	bWebhookEndpoints  = []byte("webhook_endpoints")       // sid|id -> endpoint
	bWebhookDeliveries = []byte("webhook_deliveries")      // sid|id -> delivery
	bIdxDeliveriesEP   = []byte("idx_deliveries_endpoint") // sid|endpoint|id -> nil
	bWebhookDue        = []byte("webhook_due")             // due|sid|id -> nil (pending deliveries only)

	// Blog posts, flash deals and bundles.
	bBlogPosts        = []byte("blog_posts")         // sid|id -> blog post
	bBlogSlugs        = []byte("blog_slugs")         // sid|slug -> id
	bIdxBlogPublished = []byte("idx_blog_published") // sid|published_at|id -> nil (PUBLISHED posts only)
	bFlashDeals       = []byte("flash_deals")        // sid|id -> flash deal
	bIdxDealsEnd      = []byte("idx_deals_end")      // sid|ends_at|id -> nil (every deal; the list skips the inactive)
	bIdxDealsProduct  = []byte("idx_deals_product")  // sid|product_id|id -> nil (cart and checkout pricing)
	bBundles          = []byte("bundles")            // sid|id -> bundle
	bBundleSlugs      = []byte("bundle_slugs")       // sid|slug -> id
	bIdxBundlesActive = []byte("idx_bundles_active") // sid|id -> nil (active bundles)

	// The admin panel: derived order data (written with every order, rebuilt
	// on open when missing: order_search.go), the low-stock index and the
	// global audit log.
	bOrderRows      = []byte("order_rows")       // sid|id -> compact binary order summary (encodeRow)
	bOrderStats     = []byte("order_stats")      // sid|day|currency0 -> paid orders, gross, refunded (3 x int64)
	bIdxProductsLow = []byte("idx_products_low") // sid|pid -> nil (app.Product.CountsAsLowStock)
	bAudit          = []byte("audit")            // id -> audit entry (one global sequence: time order)
	bIdxAuditStore  = []byte("idx_audit_store")  // sid|id -> nil (a store's audit entries)
	bIdxAuditObject = []byte("idx_audit_object") // sid|object0|id -> nil (a store's entries on one object)

	// A store's settings history (the last app.SettingsVersionsKept).
	bSettingsVersions = []byte("settings_versions") // sid|id -> settings version
)

// allBuckets are created on open.
var allBuckets = [][]byte{
	bMeta, bSeq, bStores, bStoreKeys, bStoreSubdomains, bAdmins, bAdminEmails,
	bCategories, bCategorySlugs, bProducts, bProductDocs, bProductSlugs, bIdxProducts, bIdxCatProducts, bIdxSearch, bSearchWords,
	bIdxAdminProducts, bAdminSearch,
	bCustomers, bCustomerEmails, bSessions, bSessionsByCust, bEmailCodes, bRevocations, bAddresses, bCarts, bGuestCarts,
	bOrders, bIdxOrdersCust, bIdxOrdersStatus, bPaymentSessions, bIdempotency, bCoupons, bCouponCodes,
	bRequests, bIdxRequestsOrder, bIdxRequestsStatus,
	bReviews, bReviewOwners, bIdxReviewsStatus, bIdxReviewsPublic, bReviewSummaries,
	bTickets, bIdxTickets, bIdxTicketsCust, bIdxTicketsStatus, bContact, bIdxContactRead, bOutbox,
	bOutboxDue, bEvents, bWebhookEndpoints, bWebhookDeliveries, bIdxDeliveriesEP, bWebhookDue,
	bBlogPosts, bBlogSlugs, bIdxBlogPublished, bFlashDeals, bIdxDealsEnd, bIdxDealsProduct,
	bBundles, bBundleSlugs, bIdxBundlesActive,
	bMedia, bMediaRefs,
	bOrderRows, bOrderStats, bIdxProductsLow, bAudit, bIdxAuditStore, bIdxAuditObject,
	bSettingsVersions,
}

// tkey is a tenant key under construction: the store id, then parts added by
// typed methods, so a part of the wrong type does not compile (the old
// key(parts ...any) panicked at run time). Each method appends in place:
// start every key with keyOf and never extend one saved prefix twice.
type tkey []byte

// keyOf starts a key of store sid (32 bytes of room: most keys need no growth).
func keyOf(sid uint64) tkey { return binary.BigEndian.AppendUint64(make([]byte, 0, 32), sid) }

// id appends a fixed 8-byte big-endian number (ids, sequence numbers).
func (k tkey) id(v uint64) tkey { return binary.BigEndian.AppendUint64(k, v) }

// code appends one byte (a sort code, a flag).
func (k tkey) code(c byte) tkey { return append(k, c) }

// str0 appends a variable-length string part: its bytes without NULs, then
// 0x00, so "ab" sorts before "abc" and no string runs into the next part.
func (k tkey) str0(s string) tkey {
	for i := 0; i < len(s); i++ {
		if s[i] != 0 {
			k = append(k, s[i])
		}
	}
	return append(k, 0)
}

// last appends a string as it is: only as the last part of a key (a slug,
// an email, a code), where nothing follows that it could run into.
func (k tkey) last(s string) tkey { return append(k, s...) }

// raw appends bytes as they are: a fixed-length part (a hash) or the last part.
func (k tkey) raw(b []byte) tkey { return append(k, b...) }

// at appends a time (whole seconds) so that byte order is time order, also
// before 1970.
func (k tkey) at(t time.Time) tkey { return k.id(uint64(t.Unix()) ^ 1<<63) }

// Sort codes of the product indexes.
const (
	sortNewest byte = 1
	sortPrice  byte = 2
	sortName   byte = 3
	sortRating byte = 4
)

// u64 encodes v big-endian (the keys of the untenanted buckets, id values).
func u64(v uint64) []byte { return binary.BigEndian.AppendUint64(make([]byte, 0, 8), v) }

// str0 is a variable-length string part on its own (see tkey.str0).
func str0(s string) []byte { return tkey(make([]byte, 0, len(s)+1)).str0(s) }

// timeKey is a time part on its own (see tkey.at): a cursor's key.
func timeKey(t time.Time) []byte { return tkey(make([]byte, 0, 8)).at(t) }

// tenant is the 8-byte prefix of a store's keys.
func tenant(sid uint64) []byte { return u64(sid) }

// idFromKeyEnd reads the trailing 8-byte id of a key.
func idFromKeyEnd(k []byte) uint64 {
	if len(k) < 8 {
		return 0
	}
	return binary.BigEndian.Uint64(k[len(k)-8:])
}

// productIndexKeys returns a product's keys in the global index
// (sid|sort|value|id) and in its category's (sid|cid|sort|value|id).
func productIndexKeys(sid, pid, cid uint64, price int64, name string, rating uint64) (global, cat [][]byte) {
	vals := []struct {
		code byte
		val  []byte
	}{
		{sortNewest, nil},
		{sortPrice, u64(uint64(price))},
		{sortName, str0(name)},
		{sortRating, u64(rating)},
	}
	for _, v := range vals {
		global = append(global, keyOf(sid).code(v.code).raw(v.val).id(pid))
		if cid != 0 {
			cat = append(cat, keyOf(sid).id(cid).code(v.code).raw(v.val).id(pid))
		}
	}
	return global, cat
}
