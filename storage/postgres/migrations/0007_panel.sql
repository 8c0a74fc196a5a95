-- 0007: the admin panel's order desk, dashboard and audit log (issue 11).
-- Orders gain the columns the order search filters on and shows (what the
-- bbolt backend keeps in its order rows); the dashboard sums paid orders per
-- UTC day from a partial index; the audit log is global, ids in time order.
ALTER TABLE orders
	ADD COLUMN payment_status text   COLLATE "C" NOT NULL DEFAULT '',
	ADD COLUMN payment_method text   COLLATE "C" NOT NULL DEFAULT '',
	ADD COLUMN currency       text   COLLATE "C" NOT NULL DEFAULT '',
	ADD COLUMN refunded       bigint NOT NULL DEFAULT 0,
	ADD COLUMN items          bigint NOT NULL DEFAULT 0, -- quantities summed
	ADD COLUMN email          bytea  NOT NULL DEFAULT '',
	ADD COLUMN receiver_name  bytea  NOT NULL DEFAULT '',
	ADD COLUMN phone          bytea  NOT NULL DEFAULT '',
	ADD COLUMN email_key      bytea  NOT NULL DEFAULT '', -- lower-case email
	ADD COLUMN search         bytea  NOT NULL DEFAULT '', -- lower-case email \n name
	ADD COLUMN phone_digits   bytea  NOT NULL DEFAULT '',
	ADD COLUMN test           boolean NOT NULL DEFAULT false; -- a sandbox (test) payment

-- Orders written before this migration (new writes fill the columns from Go,
-- whose lower-casing also covers non-ASCII letters).
UPDATE orders SET
	payment_status = coalesce(doc->>'payment_status', ''),
	payment_method = coalesce(doc->>'payment_method', ''),
	currency = coalesce(doc->>'currency', ''),
	refunded = coalesce(round((doc->>'refunded_amount')::numeric * 100)::bigint, 0),
	items = coalesce((SELECT sum((i->>'quantity')::bigint) FROM json_array_elements(
		CASE WHEN json_typeof(doc->'items') = 'array' THEN doc->'items' ELSE '[]'::json END) i), 0),
	email = convert_to(coalesce(doc->>'email', ''), 'UTF8'),
	receiver_name = convert_to(coalesce(doc->>'receiver_name', ''), 'UTF8'),
	phone = convert_to(coalesce(doc->>'phone', ''), 'UTF8'),
	email_key = convert_to(lower(coalesce(doc->>'email', '')), 'UTF8'),
	search = convert_to(lower(coalesce(doc->>'email', '')) || E'\n' || lower(coalesce(doc->>'receiver_name', '')), 'UTF8'),
	phone_digits = convert_to(regexp_replace(coalesce(doc->>'phone', ''), '[^0-9]', '', 'g'), 'UTF8'),
	test = coalesce((doc->>'test')::boolean, false);

CREATE INDEX orders_paid_day ON orders (store_id, created_at) INCLUDE (currency, total, refunded)
	WHERE payment_status IN ('PAID', 'PARTIALLY_REFUNDED', 'REFUNDED');
-- Products an owner must restock (app.Product.CountsAsLowStock: active, and
-- at or below the product's own low_stock_threshold), kept from Go.
ALTER TABLE products ADD COLUMN low_stock boolean NOT NULL DEFAULT false;
UPDATE products SET low_stock = active AND coalesce((doc->>'low_stock_threshold')::bigint, 0) > 0
	AND stock <= (doc->>'low_stock_threshold')::bigint;
CREATE INDEX products_low_stock ON products (store_id) WHERE low_stock;

CREATE TABLE audit_log (
	id       bigint      PRIMARY KEY,
	store_id bigint      NOT NULL, -- 0: not about one store
	at       timestamptz NOT NULL,
	doc      json        NOT NULL
);
CREATE INDEX audit_log_store ON audit_log (store_id, id);
CREATE INDEX audit_log_at ON audit_log (at);
