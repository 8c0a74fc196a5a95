package app

import "strings"

// SetShopHost tells checkout how the shop window chooses stores by host
// (the shop calls it when it starts; without it no shop host is known),
// and reads the key of the orders' own pages for the mails that link them
// (OrderURL; without it they have no link, which the log says).
func (os *OrderService) SetShopHost(h ShopHost) {
	os.shop.Store(&h)
	if _, err := os.loadLinkKey(); err != nil {
		os.s.Log.Error("order links: cannot read the key; order mails go without the link to the order's page", "err", err)
	}
}

// shopCallback reports whether callbackURL returns to the store's own shop
// window: its host is {subdomain}.{shop.domain} or one of the store's
// custom domains, or, for the shop's default store, the server's public
// origin. A store whose callback_origins (or CORS origins) name only its
// headless front-end still takes its own shop's checkout; nothing else is
// added to its allow list.
func (os *OrderService) shopCallback(st *Store, callbackURL string) bool {
	h := os.shop.Load()
	origin := NormalizeOrigin(callbackURL)
	if h == nil || origin == "" {
		return false
	}
	if h.DefaultStore == st.ID && os.s.Opt.PublicURL != "" && origin == NormalizeOrigin(os.s.Opt.PublicURL) {
		return true
	}
	_, host, _ := strings.Cut(origin, "://")
	host = hostName(host)
	if h.Domain != "" && host == st.Subdomain+"."+h.Domain {
		return true
	}
	for _, d := range st.Domains {
		if host == d {
			return true
		}
	}
	return false
}
