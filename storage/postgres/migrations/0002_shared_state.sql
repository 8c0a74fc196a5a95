-- 0002: state every process of a cluster must see that is not a tenant
-- record (admin panel sessions, ...): a value with an owner and an expiry.
CREATE TABLE shared_state (
	kind    text        NOT NULL,
	key     bytea       NOT NULL,
	owner   bigint      NOT NULL,
	value   bytea       NOT NULL,
	expires timestamptz NOT NULL,
	PRIMARY KEY (kind, key)
);
CREATE INDEX shared_state_owner ON shared_state (kind, owner);
CREATE INDEX shared_state_expires ON shared_state (kind, expires);
