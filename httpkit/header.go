package httpkit

// IdempotencyKeyHeader is the request header that makes a checkout
// repeatable (decisions.md): the same key and body return the first order.
const IdempotencyKeyHeader = "Idempotency-Key"

// CartTokenHeader carries a guest cart's token (issue 29): the cart routes
// take it instead of a shopper's bearer token, and login and register merge
// that cart into the shopper's.
const CartTokenHeader = "X-Cart-Token"
