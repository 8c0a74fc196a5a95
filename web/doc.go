// Package web is the storefront API over Fiber: routing, the response
// envelope, API key and shopper-token middleware, pagination, field trimming
// and the one mapping from app errors to HTTP statuses. Handlers are thin:
// decode, call app, encode.
//
// web imports app. It must not import storage or admin.
package web
