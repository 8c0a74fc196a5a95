// Package admin is the admin side: the JSON API under /api/v1/admin/ and the
// server-rendered panel under /admin/ (templates and assets embedded).
// Handlers return app errors; the server's one error handler writes them.
//
// admin imports app. It must not import storage or web.
package admin
