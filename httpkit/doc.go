// Package httpkit is the small HTTP toolkit that the storefront API (web),
// the admin API (admin) and the pages (shop, panel) share, so that each HTTP notion lives in one place:
// decoding JSON bodies into validation errors, path ids and uuids, the
// success envelope and the list shape, the one table from app error codes to
// HTTP statuses, the header names the API defines, and the client address
// behind trusted proxies.
//
// httpkit imports app and Fiber. It must not import web, admin, panel, shop
// or storage; they import it and still never import each other. Its
// subpackages: pagekit (what every HTML page needs) and staff (what the
// admin API and the panel share).
package httpkit
