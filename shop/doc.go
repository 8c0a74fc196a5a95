// Package shop serves each store's shop window: server-rendered HTML pages
// (html/template, assets embedded) for shoppers, on the host that names the
// store (app.ShopHost). It is thin like web and admin: it decodes a request,
// calls the same app services the storefront API calls, and renders; so
// whatever the shop does, a headless front-end can do through the API.
//
// Layout: shop.go (the Shop, routes, store resolution, rendering and
// errors), security.go (cookies, CSRF, headers), assets.go (fingerprinted
// static files), strings.go (every user-facing string), format.go (money,
// dates), one file per page family (home.go, catalog.go, ...), and
// templates/ (layout.html, _partials, one file per page) which a theme
// directory may override file by file (shop.theme_dir).
//
// shop imports app, httpkit and Fiber. It must not import web, admin or
// storage.
package shop
