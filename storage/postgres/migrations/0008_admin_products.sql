-- 0008: the admin's product list at 100k products (issue 11). Every sort of
-- the list has an index over every product and over the inactive and the
-- low-stock ones (partial), so a page reads its rows only; the count reads
-- an index. low is app.Product.LowStock (active or not), kept from Go; the
-- admin search's words (name, slug, SKUs: app.AdminSearchWords) are a table
-- like product_words, for every product; the migration's Go step writes the
-- words of existing products. The stock sort has no index: stock changes
-- with every checkout, and an index on it would make those updates non-HOT.
ALTER TABLE products ADD COLUMN low boolean NOT NULL DEFAULT false;
UPDATE products SET low = coalesce((doc->>'low_stock_threshold')::bigint, 0) > 0
	AND stock <= (doc->>'low_stock_threshold')::bigint;
CREATE INDEX products_admin_price ON products (store_id, price, id);
CREATE INDEX products_admin_name ON products (store_id, name_key, id);
CREATE INDEX products_inactive_newest ON products (store_id, id) WHERE NOT active;
CREATE INDEX products_inactive_price ON products (store_id, price, id) WHERE NOT active;
CREATE INDEX products_inactive_name ON products (store_id, name_key, id) WHERE NOT active;
CREATE INDEX products_low_newest ON products (store_id, id) WHERE low;
CREATE INDEX products_low_price ON products (store_id, price, id) WHERE low;
CREATE INDEX products_low_name ON products (store_id, name_key, id) WHERE low;

CREATE TABLE product_admin_words (
	store_id   bigint NOT NULL,
	word       text   COLLATE "C" NOT NULL,
	product_id bigint NOT NULL,
	PRIMARY KEY (store_id, word, product_id)
);
CREATE INDEX product_admin_words_product ON product_admin_words (store_id, product_id);
