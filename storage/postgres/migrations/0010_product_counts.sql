-- 0010: how many products a store has, by category and active flag, kept
-- by triggers (the admin's product list at 100k products). The list's total
-- was a count(*) per page: 15-20 ms at 100k products, more than the page.
-- Triggers keep the counts whatever writes the rows (PutProduct, the
-- importer of migrate-data, a DELETE); a stock update does not name the
-- counted columns, so checkout does not fire them. Every product write
-- holds its store's lock, so two transactions never wait on each other's
-- count rows in a different order. The migration locks the table against
-- writes of binaries still running the older version until it commits.
LOCK TABLE products IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE product_counts (
	store_id    bigint  NOT NULL,
	category_id bigint  NOT NULL,
	active      boolean NOT NULL,
	n           bigint  NOT NULL,
	PRIMARY KEY (store_id, category_id, active)
);

INSERT INTO product_counts (store_id, category_id, active, n)
	SELECT store_id, category_id, active, count(*) FROM products GROUP BY 1, 2, 3;

CREATE FUNCTION product_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' THEN
		UPDATE product_counts SET n = n - 1
			WHERE store_id = OLD.store_id AND category_id = OLD.category_id AND active = OLD.active;
	END IF;
	IF TG_OP <> 'DELETE' THEN
		INSERT INTO product_counts (store_id, category_id, active, n)
			VALUES (NEW.store_id, NEW.category_id, NEW.active, 1)
			ON CONFLICT (store_id, category_id, active) DO UPDATE SET n = product_counts.n + 1;
	END IF;
	RETURN NULL;
END
$$;

CREATE TRIGGER product_counts_insert_delete AFTER INSERT OR DELETE ON products
	FOR EACH ROW EXECUTE FUNCTION product_counts_apply();
CREATE TRIGGER product_counts_update AFTER UPDATE OF store_id, category_id, active ON products
	FOR EACH ROW WHEN (OLD.store_id <> NEW.store_id OR OLD.category_id <> NEW.category_id OR OLD.active <> NEW.active)
	EXECUTE FUNCTION product_counts_apply();
