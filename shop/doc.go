// Package shop serves each store's shop window: server-rendered HTML pages
// (html/template, assets embedded) for shoppers, on the host that names the
// store (app.ShopHost). It is thin like web and admin: it decodes a request,
// calls the same app services the storefront API calls, and renders; so
// whatever the shop does, a headless front-end can do through the API.
//
// Layout: shop.go (the Shop, routes, store resolution, rendering and
// errors), security.go (cookies, CSRF, headers), assets.go (fingerprinted
// static files), errtext.go (the errors a shopper meets, in words), one
// file per page family (home.go, catalog.go, ...), and templates/
// (layout.html, _partials, one file per page) which a theme directory may
// override file by file (shop.theme_dir).
//
// Every user-facing string comes from the message catalogue (app/i18n, one
// file per language): templates write {{t "key"}} (or {{tf "key" args}}
// for a format, with plural forms by the first integer), Go code
// rq.L.T("key") and rq.L.TF("key", args...). rq.L is the store's language
// (config key locale) with the owner's overrides from
// <theme_dir>/messages/<lang>.txt; money and dates take its formats. Keys
// are grouped by page, one prefix each.
//
// shop imports app, app/i18n, httpkit and Fiber. It must not import web,
// admin or storage.
package shop
