-- 0019: invoice numbers (issue 35). They come from the counters table in the
-- transaction that marks an order paid, under the store's lock, so they are
-- unique already; this index makes a duplicate a failed commit rather than
-- two invoices with one number, whatever a future writer does. Orders keep
-- their document as JSON: no other change (credit notes and tax live in it).
CREATE UNIQUE INDEX orders_invoice_number ON orders (store_id, (doc ->> 'invoice_number'))
	WHERE doc ->> 'invoice_number' IS NOT NULL;
