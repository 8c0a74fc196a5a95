package shop_test

import (
	"net/http"
	"net/url"
)

// The browser's steps of the cart and checkout tests: following the
// gateway's redirects to other hosts, reading and planting cookies.

// at runs fn with the browser at the host of rawURL (an absolute URL the
// shop redirected to: the sandbox gateway, the payment return) and returns
// the URL's path and query: the requests still go to the test server, as
// a browser whose DNS names it for every host.
func (b *browser) at(rawURL string, fn func(pathQuery string) *page) *page {
	b.t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		b.t.Fatalf("not an absolute URL: %q", rawURL)
	}
	old := b.host
	b.host = u.Host
	defer func() { b.host = old }()
	return fn(u.RequestURI())
}

// visit GETs an absolute URL.
func (b *browser) visit(rawURL string) *page {
	b.t.Helper()
	return b.at(rawURL, func(pq string) *page { return b.get(pq) })
}

// submit POSTs form to an absolute URL (no CSRF token added).
func (b *browser) submit(rawURL string, form url.Values) *page {
	b.t.Helper()
	return b.at(rawURL, func(pq string) *page { return b.do(http.MethodPost, pq, form) })
}

// cookie is the value of the browser's cookie name at its host ("" when
// it has none).
func (b *browser) cookie(name string) string {
	u, _ := url.Parse("http://" + b.host + "/")
	for _, c := range b.c.Jar.Cookies(u) {
		if c.Name == name {
			return c.Value
		}
	}
	return ""
}

// setCookie puts a cookie in the browser's jar for its host.
func (b *browser) setCookie(name, value string) {
	u, _ := url.Parse("http://" + b.host + "/")
	b.c.Jar.SetCookies(u, []*http.Cookie{{Name: name, Value: value, Path: "/"}})
}
