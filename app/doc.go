// Package app is Storefront's domain: entities and their validation, the pure
// rules (pricing, order moves, review rules), the services that apply them, the
// storage interfaces (DB, Tx) that a backend implements, the Error type every
// layer speaks, the cursor type and the pre-encoded Doc.
//
// app imports only the standard library. It must not import web, admin or
// storage, nor any HTTP or database package.
package app
