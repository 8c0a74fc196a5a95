// Package panel is the server-rendered admin panel under /admin/: its login,
// two-factor and session pages and every store's pages, with templates and
// static files embedded and rendered through the page kit (httpkit/pagekit).
// It calls the same app services as the admin JSON API (package admin),
// through httpkit/staff; neither imports the other. Page handlers return app
// errors; authed and store turn them into the error page.
//
// panel imports app and httpkit. It must not import storage, web, admin or shop.
package panel
