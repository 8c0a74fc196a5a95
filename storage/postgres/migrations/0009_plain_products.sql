-- 0009: product rows stored plain (issue 13, the catalog page on PostgreSQL).
-- A product row (record + public doc, about 2.3 KB for a shop's usual
-- product) is over PostgreSQL's 2 KB TOAST threshold, so both JSON columns
-- were stored pglz-compressed inline and every catalog page decompressed its
-- 24 docs (a quarter of the server's CPU per page). With the target at its
-- maximum a row is compressed only when it would not fit in a page anyway.
-- The setting applies to rows written from now on; the UPDATE rewrites the
-- rows stored compressed (a cast builds a new, plain value: copying the
-- column would keep the compressed bytes). It is a one-time rewrite of every
-- such row (about 18 s per 100,000 products on a busy two-core machine), run
-- under the migration lock; rows already plain are not touched.
ALTER TABLE products SET (toast_tuple_target = 8160);
UPDATE products SET doc = doc::text::json, pdoc = pdoc || ''::bytea
	WHERE pg_column_size(pdoc) < octet_length(pdoc) OR pg_column_size(doc) < octet_length(doc::text);
