package httpkit

// IdempotencyKeyHeader is the request header that makes a checkout
// repeatable (decisions.md): the same key and body return the first order.
const IdempotencyKeyHeader = "Idempotency-Key"
