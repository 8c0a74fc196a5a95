-- 0012: each product's light doc also as the JSON object a page writes
-- (issue 13, the catalog page on PostgreSQL). A page with no fields= writes
-- every light member of each doc whole, so it needs none of ldoc's binary
-- header (the members' names and offsets, for trimming to a field set): it
-- selects ljson, app.Doc.AppendJSON(pdoc, no fields), a plain doc the binary
-- copies into the response as it is. The bench product's ldoc is 906 bytes,
-- its ljson 653: a 24-product page is about 16 KB on the wire from the server
-- instead of 22 (two 8 KB sends and reads instead of three).
--
-- Every statement of this binary that writes pdoc writes ljson with it. A
-- NULL ljson reads as ldoc, then pdoc (coalesce; a page may mix the forms,
-- each doc says which it is). The Go step fills it for the existing rows in
-- batches, and 0011's ldoc with it. A binary from before 0012 still running
-- beside the upgraded ones writes pdoc (and ldoc) without ljson: the trigger
-- then clears ljson, so a page never shows a product's old JSON.
ALTER TABLE products ADD COLUMN ljson bytea;

CREATE FUNCTION products_clear_ljson() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	NEW.ljson := NULL;
	RETURN NEW;
END $$;

-- As 0011's: fires only when pdoc changed and ljson did not.
CREATE TRIGGER products_ljson_follows_pdoc BEFORE UPDATE ON products FOR EACH ROW
	WHEN (NEW.pdoc IS DISTINCT FROM OLD.pdoc AND NEW.ljson IS NOT DISTINCT FROM OLD.ljson)
	EXECUTE FUNCTION products_clear_ljson();
