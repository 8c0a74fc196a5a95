-- 0011: each product's light doc beside its full one (issue 13, the catalog
-- page on PostgreSQL). A list writes no heavy member (a product's variants)
-- unless fields=variants asks for it, so a page selects ldoc: pdoc without
-- its heavy members (app.Doc.AppendLight, the form bbolt's light pages copy),
-- about 900 bytes of the bench's 1,260: the server ships, and the binary
-- reads, that much less per page (the server's CPU per 24-product page fell
-- by about a fifth, measured with pgbench).
--
-- Every statement of this binary that writes pdoc writes ldoc with it. A NULL
-- ldoc reads as pdoc (coalesce): a full doc serves a light page just as well
-- (the heavy members are left out when it is written). 0012's Go step fills
-- it for the existing rows, in batches, with the light JSON: one pass over
-- the products for both (a binary of 0011's time had a step of its own). A
-- binary from before 0011 still running beside the upgraded ones (a rolling
-- upgrade) writes pdoc alone: the trigger then clears ldoc, so a page never
-- shows a product's old light doc.
ALTER TABLE products ADD COLUMN ldoc bytea;

CREATE FUNCTION products_clear_ldoc() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	NEW.ldoc := NULL;
	RETURN NEW;
END $$;

-- Fires only when pdoc changed and ldoc did not: a write of this binary whose
-- light doc is unchanged (a variant's SKU edited) clears it too, which costs
-- that product its light read until its next write, never a stale page.
-- (Since 0013 it fires for the writes of earlier binaries only.)
CREATE TRIGGER products_ldoc_follows_pdoc BEFORE UPDATE ON products FOR EACH ROW
	WHEN (NEW.pdoc IS DISTINCT FROM OLD.pdoc AND NEW.ldoc IS NOT DISTINCT FROM OLD.ldoc)
	EXECUTE FUNCTION products_clear_ldoc();
