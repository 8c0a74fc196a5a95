// Package admin is the admin JSON API under /api/v1/admin/. The
// server-rendered panel under /admin/ is package panel; both call the same
// app services (through httpkit/staff) and neither imports the other.
// Handlers return app errors; the server's one error handler writes them.
//
// admin imports app. It must not import storage, web or panel.
package admin
