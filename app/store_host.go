package app

import (
	"net"
	"slices"
	"strings"
)

// hostIndex is one immutable snapshot of which store a shop host names.
type hostIndex struct {
	subdomains map[string]*Store // store.Subdomain -> store
	domains    map[string]*Store // custom domain -> store
}

// ShopHost is how the shop chooses a store from the Host header.
type ShopHost struct {
	// Domain is the parent domain of the stores' subdomains
	// ("shops.example.com": store "acme" is "acme.shops.example.com").
	Domain string
	// DefaultStore answers a host that names no store (0: none).
	DefaultStore uint64
}

// ByHost returns the store whose shop host is host (a Host header, port
// allowed): {subdomain}.{h.Domain}, one of a store's custom domains, or else
// h.DefaultStore. A host under h.Domain that names no store, an inactive
// store, or no match without a default store is not_found: never another
// store's shop.
func (ss *StoreService) ByHost(h ShopHost, host string) (*Store, error) {
	idx, err := ss.hostIndex()
	if err != nil {
		return nil, err
	}
	name := hostName(host)
	st := idx.domains[name]
	if st == nil && h.Domain != "" {
		if label, ok := strings.CutSuffix(name, "."+h.Domain); ok {
			if st = idx.subdomains[label]; st == nil {
				return nil, Errorf(ENotFound, "no shop at %s", name)
			}
		}
	}
	if st == nil && h.DefaultStore != 0 {
		for _, s := range idx.subdomains {
			if s.ID == h.DefaultStore {
				st = s
				break
			}
		}
	}
	if st == nil || !st.IsActive {
		return nil, Errorf(ENotFound, "no shop at %s", name)
	}
	return st, nil
}

// hostName is host lower-cased, without its port and trailing dot.
func hostName(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	return strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
}

// hostIndex returns the current snapshot, building it from the stores when
// a change dropped it.
func (ss *StoreService) hostIndex() (*hostIndex, error) {
	if idx := ss.hosts.Load(); idx != nil {
		return idx, nil
	}
	gen := ss.cache.Load().gen
	stores, err := ss.List()
	if err != nil {
		return nil, err
	}
	idx := &hostIndex{subdomains: make(map[string]*Store, len(stores)), domains: map[string]*Store{}}
	for _, st := range stores {
		idx.subdomains[st.Subdomain] = st
		for _, d := range st.Domains {
			idx.domains[d] = st
		}
	}
	ss.mu.Lock()
	if ss.cache.Load().gen == gen {
		ss.hosts.Store(idx)
	}
	ss.mu.Unlock()
	return idx, nil
}

// URL is the address of st's shop window for a server whose public URL is
// publicURL (scheme://host[:port]): its first custom domain, else its
// subdomain of h.Domain (with publicURL's port), else publicURL itself when
// st is the default store; "" when no host names it or it is inactive.
func (h ShopHost) URL(st *Store, publicURL string) string {
	if !st.IsActive {
		return ""
	}
	scheme, rest, ok := strings.Cut(strings.TrimSuffix(publicURL, "/"), "://")
	if !ok {
		scheme, rest = "http", publicURL
	}
	port := ""
	if _, p, err := net.SplitHostPort(rest); err == nil {
		port = ":" + p
	}
	switch {
	case len(st.Domains) > 0:
		return scheme + "://" + st.Domains[0] + "/"
	case h.Domain != "":
		return scheme + "://" + st.Subdomain + "." + h.Domain + port + "/"
	case h.DefaultStore == st.ID:
		return scheme + "://" + rest + "/"
	}
	return ""
}

// SetShopHost tells the stores how the shop chooses them by host: no store
// may claim shop.domain or a name under it as a custom domain (the shop
// calls it when it starts).
func (ss *StoreService) SetShopHost(h ShopHost) { ss.shop.Store(&h) }

// hostRules are the hosts no store may claim as a custom domain: the
// shop's parent domain and every name under it (the stores' subdomains),
// the host of the server's public URL, localhost and IP addresses.
type hostRules struct {
	shopDomain string // ShopHost.Domain
	publicHost string // the host of Options.PublicURL
}

func (ss *StoreService) hostRules() hostRules {
	var hr hostRules
	if h := ss.shop.Load(); h != nil {
		hr.shopDomain = strings.TrimSuffix(strings.ToLower(h.Domain), ".")
	}
	if o := NormalizeOrigin(ss.s.publicURL); o != "" {
		_, host, _ := strings.Cut(o, "://")
		hr.publicHost = hostName(host)
	}
	return hr
}

// check returns why no store may claim d (lower case, no trailing dot) as
// a custom domain, or "" when a store may.
func (hr hostRules) check(d string) string {
	bare := strings.Trim(d, "[]")
	labels := strings.Split(bare, ".")
	last := labels[len(labels)-1]
	switch {
	case net.ParseIP(bare) != nil || (last != "" && strings.Trim(last, "0123456789") == "") || strings.HasPrefix(last, "0x"):
		return "must be a host name, not an IP address"
	case bare == "localhost" || strings.HasSuffix(bare, ".localhost"):
		return "localhost names the visitor's own machine: use a host name of the shop's own"
	case hr.shopDomain != "" && (bare == hr.shopDomain || strings.HasSuffix(bare, "."+hr.shopDomain)):
		return "is the shop's own domain (" + hr.shopDomain + ") or a store's subdomain under it"
	case hr.publicHost != "" && bare == hr.publicHost:
		return "is the server's own host (http.public_url)"
	}
	return ""
}

// OwnHost reports whether host (a Host header, port allowed) is one of st's
// own shop hosts: {subdomain}.{h.Domain}, one of its custom domains, or,
// for the default store, the host of publicURL. A host that reached the
// default store only because it names no store is not: the shop's absolute
// URLs and its page cache never take such a host (ShopHost.URL instead).
func (h ShopHost) OwnHost(st *Store, host, publicURL string) bool {
	name := hostName(host)
	if h.Domain != "" && name == st.Subdomain+"."+strings.ToLower(h.Domain) {
		return true
	}
	if slices.Contains(st.Domains, name) {
		return true
	}
	if h.DefaultStore != st.ID {
		return false
	}
	o := NormalizeOrigin(publicURL)
	_, pub, _ := strings.Cut(o, "://")
	return o != "" && hostName(pub) == name
}

// BaseURL is the scheme and host (no trailing slash) of the absolute URLs
// of st's shop pages reached through host: host itself when it is one of
// st's own (OwnHost), with publicURL's scheme and, but for a custom domain,
// its port; else the address ShopHost.URL gives st; else publicURL. Nothing
// of it comes from a Host header that st does not own.
func (h ShopHost) BaseURL(st *Store, host, publicURL string) string {
	pub := strings.TrimSuffix(publicURL, "/")
	if !h.OwnHost(st, host, publicURL) {
		if u := h.URL(st, publicURL); u != "" {
			return strings.TrimSuffix(u, "/")
		}
		return pub
	}
	scheme, rest, ok := strings.Cut(pub, "://")
	if !ok {
		scheme, rest = "http", pub
	}
	name := hostName(host)
	if strings.Contains(name, ":") {
		name = "[" + name + "]"
	}
	if _, p, err := net.SplitHostPort(rest); err == nil && !slices.Contains(st.Domains, hostName(host)) {
		name += ":" + p
	}
	return scheme + "://" + name
}
