-- 0001: the whole schema of storage version 1.
--
-- Every tenant table is keyed by (store_id, id) with per-store ids from
-- counters. A record is kept whole in `doc` (the JSON the bbolt backend
-- stores, so both backends read and write the same documents); the columns
-- beside it are what queries filter, sort and join on, with the indexes that
-- the keyset pages walk. Money is bigint minor units, times timestamptz.
-- Names sort with COLLATE "C": byte order, the order of the bbolt indexes.
-- Identifiers that come from clients (slugs, emails, codes, keys) are bytea:
-- compared byte for byte, and any bytes a lookup brings are simply not found.

CREATE TABLE meta (
	name  text PRIMARY KEY,
	value bytea NOT NULL
);

-- Per-store sequences ("product", "order", ...); store 0 holds the global
-- ones ("store", "admin").
CREATE TABLE counters (
	store_id bigint NOT NULL,
	name     text   NOT NULL,
	value    bigint NOT NULL,
	PRIMARY KEY (store_id, name)
);

CREATE TABLE stores (
	id           bigint PRIMARY KEY,
	subdomain    bytea NOT NULL UNIQUE,
	api_key_hash bytea NOT NULL UNIQUE,
	doc          json  NOT NULL
);

CREATE TABLE admins (
	id    bigint PRIMARY KEY,
	email bytea NOT NULL UNIQUE,
	doc   json NOT NULL
);

CREATE TABLE categories (
	store_id bigint NOT NULL,
	id       bigint NOT NULL,
	slug     bytea  NOT NULL,
	doc      json   NOT NULL,
	PRIMARY KEY (store_id, id),
	UNIQUE (store_id, slug)
);

-- A product's record (doc), its pre-encoded public document (pdoc) and the
-- values of its sort indexes, which hold active products only.
CREATE TABLE products (
	store_id    bigint  NOT NULL,
	id          bigint  NOT NULL,
	slug        bytea   NOT NULL,
	category_id bigint  NOT NULL,
	active      boolean NOT NULL,
	price       bigint  NOT NULL,
	stock       bigint  NOT NULL, -- available stock (variants summed)
	name_key    text    COLLATE "C" NOT NULL, -- app.NormalizeName(name)
	rating_key  bigint  NOT NULL, -- average rating (hundredths) << 32 | review count
	doc         json    NOT NULL,
	pdoc        bytea   NOT NULL,
	PRIMARY KEY (store_id, id),
	UNIQUE (store_id, slug)
);
CREATE INDEX products_newest ON products (store_id, id) WHERE active;
CREATE INDEX products_price ON products (store_id, price, id) WHERE active;
CREATE INDEX products_name ON products (store_id, name_key, id) WHERE active;
CREATE INDEX products_rating ON products (store_id, rating_key, id) WHERE active;
CREATE INDEX products_cat_newest ON products (store_id, category_id, id) WHERE active;
CREATE INDEX products_cat_price ON products (store_id, category_id, price, id) WHERE active;
CREATE INDEX products_cat_name ON products (store_id, category_id, name_key, id) WHERE active;
CREATE INDEX products_cat_rating ON products (store_id, category_id, rating_key, id) WHERE active;
CREATE INDEX products_category ON products (store_id, category_id);

CREATE TABLE customers (
	store_id  bigint NOT NULL,
	id        bigint NOT NULL,
	email_key bytea  NOT NULL, -- app.NormalizeEmail(email)
	doc       json   NOT NULL,
	PRIMARY KEY (store_id, id),
	UNIQUE (store_id, email_key)
);

CREATE TABLE sessions (
	store_id    bigint NOT NULL,
	key         bytea  NOT NULL, -- sha256 of the refresh token family
	customer_id bigint NOT NULL,
	doc         json   NOT NULL,
	PRIMARY KEY (store_id, key)
);
CREATE INDEX sessions_customer ON sessions (store_id, customer_id, key);

CREATE TABLE email_codes (
	store_id    bigint NOT NULL,
	customer_id bigint NOT NULL,
	purpose     bytea  NOT NULL,
	doc         json   NOT NULL,
	PRIMARY KEY (store_id, customer_id, purpose)
);

-- Access-token revocations: kind 's' (one session) or 'c' (every token of a customer).
CREATE TABLE revocations (
	store_id    bigint      NOT NULL,
	kind        char(1)     NOT NULL,
	session     bytea       NOT NULL, -- '' for kind c
	customer_id bigint      NOT NULL,             -- 0 for kind s
	until       timestamptz NOT NULL,
	doc         json        NOT NULL,
	PRIMARY KEY (store_id, kind, session, customer_id)
);

CREATE TABLE addresses (
	store_id    bigint NOT NULL,
	customer_id bigint NOT NULL,
	id          bytea  NOT NULL,
	doc         json   NOT NULL,
	PRIMARY KEY (store_id, customer_id, id)
);

CREATE TABLE cart_items (
	store_id    bigint NOT NULL,
	customer_id bigint NOT NULL,
	id          bigint NOT NULL,
	doc         json   NOT NULL,
	PRIMARY KEY (store_id, customer_id, id)
);

CREATE TABLE orders (
	store_id    bigint      NOT NULL,
	id          bigint      NOT NULL,
	customer_id bigint      NOT NULL,
	status      text        COLLATE "C" NOT NULL,
	total       bigint      NOT NULL,
	created_at  timestamptz NOT NULL,
	doc         json        NOT NULL,
	PRIMARY KEY (store_id, id)
);
CREATE INDEX orders_customer ON orders (store_id, customer_id, id);
CREATE INDEX orders_status ON orders (store_id, status, id);

CREATE TABLE payment_sessions (
	store_id bigint NOT NULL,
	seq      bigint NOT NULL,
	doc      json   NOT NULL,
	PRIMARY KEY (store_id, seq)
);

CREATE TABLE idempotency_keys (
	store_id    bigint      NOT NULL,
	customer_id bigint      NOT NULL,
	key         bytea       NOT NULL,
	created_at  timestamptz NOT NULL,
	doc         json        NOT NULL,
	PRIMARY KEY (store_id, customer_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (store_id, created_at);

CREATE TABLE coupons (
	store_id bigint NOT NULL,
	id       bigint NOT NULL,
	code     bytea  NOT NULL, -- app.NormalizeCouponCode(code)
	doc      json   NOT NULL,
	PRIMARY KEY (store_id, id),
	UNIQUE (store_id, code)
);

-- Cancellation and refund requests: the kind is part of the key, each kind
-- has its own id sequence.
CREATE TABLE requests (
	store_id bigint NOT NULL,
	kind     text   COLLATE "C" NOT NULL,
	id       bigint NOT NULL,
	order_id bigint NOT NULL,
	status   text   COLLATE "C" NOT NULL,
	doc      json   NOT NULL,
	PRIMARY KEY (store_id, kind, id)
);
CREATE INDEX requests_order ON requests (store_id, order_id, kind, id);
CREATE INDEX requests_status ON requests (store_id, kind, status, id);

-- Reviews; view is the public JSON, set while the review is approved.
-- (store_id, product_id, customer_id) is unique: one review per shopper.
CREATE TABLE reviews (
	store_id    bigint   NOT NULL,
	id          bigint   NOT NULL,
	product_id  bigint   NOT NULL, -- 0: the store
	customer_id bigint   NOT NULL,
	status      text     COLLATE "C" NOT NULL,
	rating      smallint NOT NULL, -- clamped to 1-5
	view        bytea,
	doc         json     NOT NULL,
	PRIMARY KEY (store_id, id),
	UNIQUE (store_id, product_id, customer_id)
);
CREATE INDEX reviews_status ON reviews (store_id, status, id);
CREATE INDEX reviews_public_newest ON reviews (store_id, product_id, id) WHERE view IS NOT NULL;
CREATE INDEX reviews_public_rating ON reviews (store_id, product_id, rating, id) WHERE view IS NOT NULL;
CREATE INDEX reviews_public_rating_asc ON reviews (store_id, product_id, (6 - rating), id) WHERE view IS NOT NULL;

CREATE TABLE review_summaries (
	store_id   bigint NOT NULL,
	product_id bigint NOT NULL,
	doc        json   NOT NULL,
	PRIMARY KEY (store_id, product_id)
);

CREATE TABLE tickets (
	store_id    bigint NOT NULL,
	id          bytea  NOT NULL,
	number      bigint NOT NULL,
	customer_id bigint NOT NULL,
	status      text   COLLATE "C" NOT NULL,
	doc         json   NOT NULL,
	PRIMARY KEY (store_id, id),
	UNIQUE (store_id, number)
);
CREATE INDEX tickets_customer ON tickets (store_id, customer_id, number);
CREATE INDEX tickets_status ON tickets (store_id, status, number);

CREATE TABLE contact_messages (
	store_id bigint   NOT NULL,
	id       bigint   NOT NULL,
	unread   smallint NOT NULL, -- 1 unread, 0 read: unread first walking down
	doc      json     NOT NULL,
	PRIMARY KEY (store_id, id)
);
CREATE INDEX contact_messages_unread ON contact_messages (store_id, unread, id);

CREATE TABLE outbox (
	store_id bigint NOT NULL,
	id       bigint NOT NULL,
	doc      json   NOT NULL,
	PRIMARY KEY (store_id, id)
);

CREATE TABLE blog_posts (
	store_id     bigint      NOT NULL,
	id           bigint      NOT NULL,
	slug         bytea       NOT NULL,
	published_at timestamptz, -- set only while PUBLISHED
	doc          json        NOT NULL,
	PRIMARY KEY (store_id, id),
	UNIQUE (store_id, slug)
);
CREATE INDEX blog_posts_published ON blog_posts (store_id, published_at, id) WHERE published_at IS NOT NULL;

CREATE TABLE flash_deals (
	store_id   bigint      NOT NULL,
	id         bigint      NOT NULL,
	product_id bigint      NOT NULL,
	ends_at    timestamptz NOT NULL,
	doc        json        NOT NULL,
	PRIMARY KEY (store_id, id)
);
CREATE INDEX flash_deals_end ON flash_deals (store_id, ends_at, id);
CREATE INDEX flash_deals_product ON flash_deals (store_id, product_id, id);

CREATE TABLE bundles (
	store_id bigint  NOT NULL,
	id       bigint  NOT NULL,
	slug     bytea   NOT NULL,
	active   boolean NOT NULL,
	doc      json    NOT NULL,
	PRIMARY KEY (store_id, id),
	UNIQUE (store_id, slug)
);
CREATE INDEX bundles_active ON bundles (store_id, id) WHERE active;
