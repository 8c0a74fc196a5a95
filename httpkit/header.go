package httpkit

// IdempotencyKeyHeader is the request header that makes a checkout
// repeatable (decisions.md): the same key and body return the first order.
const IdempotencyKeyHeader = "Idempotency-Key"

// CartTokenHeader carries a guest cart's token (issue 29): the cart routes
// take it instead of a shopper's bearer token, and login and register merge
// that cart into the shopper's.
const CartTokenHeader = "X-Cart-Token"

// UploadAuth tells from an upload's headers whether it carries a live staff
// credential, and the store of its admin (web.Server's UploadAuth).
type UploadAuth func(authorization string, cookie func(name string) string) (store uint64, ok bool)

// AnyUpload is the first of fns that allows an upload: the admin API's
// bearer token, then the panel's session cookie.
func AnyUpload(fns ...UploadAuth) UploadAuth {
	return func(authorization string, cookie func(name string) string) (uint64, bool) {
		for _, fn := range fns {
			if store, ok := fn(authorization, cookie); ok {
				return store, true
			}
		}
		return 0, false
	}
}
