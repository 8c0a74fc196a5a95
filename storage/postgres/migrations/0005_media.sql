-- 0004: uploaded product images (app.Media). media holds one row per image
-- with the number of products whose images name it (PutProduct and
-- DeleteProduct keep it in their transaction); media_files holds the
-- renditions' bytes, one row per width. An image whose count falls to zero
-- is deleted with its files.
CREATE TABLE media (
	store_id bigint  NOT NULL,
	hash     bytea   NOT NULL, -- SHA-256 of the upload
	ext      text    NOT NULL,
	widths   integer[] NOT NULL,
	refs     bigint  NOT NULL DEFAULT 0,
	PRIMARY KEY (store_id, hash)
);
CREATE TABLE media_files (
	store_id bigint  NOT NULL,
	hash     bytea   NOT NULL,
	width    integer NOT NULL,
	data     bytea   NOT NULL,
	PRIMARY KEY (store_id, hash, width)
);
