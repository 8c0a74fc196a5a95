-- 0018: a custom shop domain names one store. The stores' domains live in
-- their docs; this table holds each once, its primary key the unique index
-- that makes two stores' claims of one domain fail whatever the checks
-- before it missed. A trigger keeps it in step with every write of a store
-- (an earlier binary's too, during a rolling upgrade).
CREATE TABLE store_domains (
	domain   text PRIMARY KEY,
	store_id bigint NOT NULL REFERENCES stores (id) ON DELETE CASCADE
);
CREATE INDEX store_domains_store ON store_domains (store_id);

INSERT INTO store_domains (domain, store_id)
SELECT DISTINCT ON (d) d, s.id
FROM stores s, json_array_elements_text(COALESCE(s.doc -> 'domains', '[]'::json)) AS d
ORDER BY d, s.id;

CREATE FUNCTION store_domains_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM store_domains WHERE store_id = NEW.id;
	INSERT INTO store_domains (domain, store_id)
	SELECT DISTINCT d, NEW.id FROM json_array_elements_text(COALESCE(NEW.doc -> 'domains', '[]'::json)) AS d;
	RETURN NEW;
END $$;

CREATE TRIGGER stores_domains AFTER INSERT OR UPDATE OF doc ON stores
	FOR EACH ROW EXECUTE FUNCTION store_domains_sync();
