-- 0004: the product search index (issue 15): one row per word of an active
-- product's name (app.SearchWords: folded, distinct, in order). COLLATE "C"
-- compares bytes, so the primary key answers LIKE 'prefix%' as a range. The
-- rows of existing products are written by the migration's Go step.
CREATE TABLE product_words (
	store_id   bigint   NOT NULL,
	word       text     COLLATE "C" NOT NULL,
	product_id bigint   NOT NULL,
	pos        smallint NOT NULL, -- the word's place among the name's words (0: first)
	PRIMARY KEY (store_id, word, product_id)
);
CREATE INDEX product_words_product ON product_words (store_id, product_id);
