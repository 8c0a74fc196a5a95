-- 0014: guest carts (issue 29). A cart without a shopper, reached with an
-- opaque token of which only the SHA-256 is stored (key), as sessions' are.
-- Its lines are rows of cart_items under the cart's owner id
-- (app.GuestCart.Owner: the id with the top bit set, a negative bigint),
-- so no other table changes. used_at orders the sweep of idle carts.
CREATE TABLE guest_carts (
	store_id bigint      NOT NULL,
	key      bytea       NOT NULL,
	id       bigint      NOT NULL,
	used_at  timestamptz NOT NULL,
	doc      json        NOT NULL,
	PRIMARY KEY (store_id, key)
);
CREATE INDEX guest_carts_used ON guest_carts (store_id, used_at);
