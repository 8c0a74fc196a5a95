-- 0017: an order's timeline (and the audit log filtered by object) read its
-- store's whole log, docs and all, to keep the entries on one object. The
-- object, generated from the doc (so an earlier binary's inserts carry it
-- too), and an index on it.
ALTER TABLE audit_log ADD COLUMN object text GENERATED ALWAYS AS (doc ->> 'object') STORED;
CREATE INDEX audit_log_object ON audit_log (store_id, object, id);
