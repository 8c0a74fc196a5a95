// Package pagekit is what every server-rendered HTML page needs, in one
// place for the three sets of pages: the shop (shop), the admin panel
// (panel) and the sandbox payment page (web). It holds
//
//   - template sets parsed once from an embedded FS, a theme directory's
//     file of the same name replacing the embedded one (Templates);
//   - sending a page gzipped, with an ETag that answers If-None-Match with
//     304 (Send);
//   - fingerprinted static files, served gzipped and immutable (Assets);
//   - the Content-Security-Policy and the other security headers (CSP,
//     SetSecurityHeaders);
//   - the one CSRF scheme: a token that is an HMAC of what it is bound to,
//     a session or a browser's seed cookie with the host (CSRF);
//   - the form decoder whose errors are per field (Field, DecodeForm,
//     Problem.Fields);
//   - flash notices (Flash) and the error page's wording (Problem).
//
// pagekit imports app for its error type only, and Fiber; it knows nothing
// of shops, stores or panels, and no app service.
package pagekit
