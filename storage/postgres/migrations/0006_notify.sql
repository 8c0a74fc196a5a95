-- 0004: the outbox's delivery state and the outbound webhooks (issue 10).
--
-- due is set while a record waits for its worker (a queued mail, a pending
-- delivery) and NULL once it is settled; the partial indexes hold only the
-- waiting ones, soonest first, like the bbolt due buckets.
ALTER TABLE outbox ADD COLUMN due timestamptz;
-- Mail written before delivery states existed reads as queued (app.Mail.State).
UPDATE outbox SET due = COALESCE((doc->>'next_attempt_at')::timestamptz, '0001-01-01T00:00:00Z')
	WHERE COALESCE(doc->>'status', 'queued') = 'queued';
CREATE INDEX outbox_due ON outbox (due, store_id, id) WHERE due IS NOT NULL;

CREATE TABLE webhook_events (
	store_id bigint NOT NULL,
	id       bigint NOT NULL,
	doc      json   NOT NULL,
	PRIMARY KEY (store_id, id)
);

CREATE TABLE webhook_endpoints (
	store_id bigint NOT NULL,
	id       bigint NOT NULL,
	doc      json   NOT NULL,
	PRIMARY KEY (store_id, id)
);

CREATE TABLE webhook_deliveries (
	store_id    bigint NOT NULL,
	id          bigint NOT NULL,
	endpoint_id bigint NOT NULL,
	due         timestamptz, -- set while pending
	doc         json   NOT NULL,
	PRIMARY KEY (store_id, id)
);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (store_id, endpoint_id, id);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (due, store_id, id) WHERE due IS NOT NULL;
