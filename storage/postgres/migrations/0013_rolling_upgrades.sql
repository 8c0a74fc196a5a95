-- 0013: a rolling upgrade corrupts nothing (issue 13). While it runs, a
-- binary from before this migration keeps serving beside the upgraded ones.
--
-- Writers. Every connection of a binary that knows this migration sets
-- storefront.schema for its session when it connects, the newest migration
-- it knows (13 here, more later; migrate.go, onConnect); an earlier binary, a
-- psql session or anything else reads as 0. The triggers below say WHEN (<that> < 13), first, so this
-- binary's own writes do not run them (the test is a built-in function's
-- lookup, evaluated per row). Whatever the setting says, what they do is
-- right for any writer: a pooler that drops the setting costs speed, never a
-- record.

-- Mail. Since mail is queued as data (app.Mail.Data, rendered by the worker
-- that sends it), an earlier binary's worker, which selects by due alone,
-- would send such a mail with an empty subject and bodies. The workers of
-- this binary select by send_at instead: a queued mail's next attempt, NULL
-- once it is settled. due keeps its meaning for the earlier workers, but only
-- for rendered mail: a mail queued as data has due NULL, so they never see it
-- (it waits for an upgraded binary to lead the jobs).
ALTER TABLE outbox ADD COLUMN send_at timestamptz;

-- The mail already queued: both forms wait in send_at, rendered mail also in due.
UPDATE outbox SET send_at = due, due = CASE WHEN json_typeof(doc->'data') = 'object' THEN NULL ELSE due END
	WHERE due IS NOT NULL;
CREATE INDEX outbox_send_at ON outbox (send_at, store_id, id) WHERE send_at IS NOT NULL;

-- An earlier binary writes due and doc, never send_at: its rendered mail
-- (queued, retried, or settled with due NULL, by either worker) gets send_at
-- from due, so an upgraded worker sends what it queued and never again what
-- it marked sent or failed. A mail queued as data keeps due NULL whoever
-- writes it, and send_at while it is queued (from due when a binary of the
-- data form from before 0013 wrote it; from the doc's next attempt when due
-- is gone: that binary's PutMail is an upsert, whose UPDATE takes due from
-- excluded, where this trigger's INSERT run has already cleared it, as when
-- its admin queues a failed mail again). An earlier binary that queues such a
-- mail again (the admin's retry) has read it without its data and written it
-- back blank: the data is put back from the row it replaces, so the mail is
-- still rendered when sent.
CREATE FUNCTION outbox_send_at_follows_due() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF json_typeof(NEW.doc->'data') = 'object' THEN
		NEW.send_at := CASE WHEN coalesce(NEW.doc->>'status', 'queued') = 'queued'
			THEN coalesce(NEW.due, (NEW.doc->>'next_attempt_at')::timestamptz, NEW.send_at, '0001-01-01T00:00:00Z') END;
		NEW.due := NULL;
	ELSIF TG_OP = 'UPDATE' AND json_typeof(OLD.doc->'data') = 'object' AND coalesce(NEW.doc->>'status', 'queued') = 'queued' THEN
		NEW.doc := (NEW.doc::jsonb || jsonb_build_object('data', OLD.doc::jsonb->'data'))::json;
		NEW.send_at := NEW.due;
		NEW.due := NULL;
	ELSE
		NEW.send_at := NEW.due;
	END IF;
	RETURN NEW;
END $$;

CREATE TRIGGER outbox_send_at_follows_due BEFORE INSERT OR UPDATE ON outbox FOR EACH ROW
	WHEN (coalesce(nullif(current_setting('storefront.schema', true), ''), '0')::integer < 13)
	EXECUTE FUNCTION outbox_send_at_follows_due();

-- Light docs. 0011's and 0012's triggers clear ldoc and ljson when pdoc
-- changes and they do not: a binary from before them writes pdoc alone. They
-- also fired on this binary's writes whose light forms did not change (a
-- variant's SKU edited), leaving that product to be read from pdoc until its
-- next write. Now they fire for the other writers only.
DROP TRIGGER products_ldoc_follows_pdoc ON products;
CREATE TRIGGER products_ldoc_follows_pdoc BEFORE UPDATE ON products FOR EACH ROW
	WHEN (coalesce(nullif(current_setting('storefront.schema', true), ''), '0')::integer < 13
		AND NEW.pdoc IS DISTINCT FROM OLD.pdoc AND NEW.ldoc IS NOT DISTINCT FROM OLD.ldoc)
	EXECUTE FUNCTION products_clear_ldoc();

DROP TRIGGER products_ljson_follows_pdoc ON products;
CREATE TRIGGER products_ljson_follows_pdoc BEFORE UPDATE ON products FOR EACH ROW
	WHEN (coalesce(nullif(current_setting('storefront.schema', true), ''), '0')::integer < 13
		AND NEW.pdoc IS DISTINCT FROM OLD.pdoc AND NEW.ljson IS NOT DISTINCT FROM OLD.ljson)
	EXECUTE FUNCTION products_clear_ljson();
