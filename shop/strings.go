package shop

import "fmt"

// messages holds every user-facing string of the shop, by key, so that a
// store can be translated later: templates write {{t "key"}} (or
// {{tf "key" args}} for a format), Go code msg("key"). English is the
// only language for now. Keys are grouped by page, one prefix each; each
// page family keeps its strings in a map of its own (catalogMessages in
// catalog.go, ...), merged here.
var messages = mergeMessages(layoutMessages, catalogMessages, cartMessages, accountMessages, contentMessages)

func mergeMessages(maps ...map[string]string) map[string]string {
	all := map[string]string{}
	for _, m := range maps {
		for k, v := range m {
			if _, dup := all[k]; dup {
				panic("shop: message key " + k + " defined twice")
			}
			all[k] = v
		}
	}
	return all
}

// layoutMessages are the strings of the layout, home and error pages.
var layoutMessages = map[string]string{
	// layout
	"layout.skip":        "Skip to content",
	"layout.nav":         "Main",
	"layout.search":      "Search products",
	"layout.search.btn":  "Search",
	"layout.cart":        "Cart",
	"layout.account":     "Account",
	"layout.login":       "Sign in",
	"layout.products":    "All products",
	"layout.blog":        "Blog",
	"layout.contact":     "Contact",
	"layout.footer":      "Footer",
	"layout.poweredby":   "Powered by Storefront",
	"layout.breadcrumbs": "Breadcrumbs",
	"layout.menu":        "Menu",
	"layout.tools":       "Account and cart",
	"layout.announce":    "Announcements",

	// home
	"home.title":        "Home",
	"home.categories":   "Shop by category",
	"home.new":          "New arrivals",
	"home.deals":        "Flash deals",
	"home.deal.ends":    "Ends %s",
	"home.bundles":      "Bundles",
	"home.posts":        "From the blog",
	"home.viewall":      "View all products",
	"home.featured":     "Featured",
	"home.deal.save":    "Deal price",
	"home.bundle.items": "%d items",
	"home.banners":      "Promotions",
	"layout.pages":      "About the shop",

	// errors
	"notfound.title":   "Page not found",
	"notfound.text":    "We could not find that page. It may have moved, or the link may be wrong.",
	"notfound.home":    "Back to the shop",
	"error.title":      "Something went wrong",
	"error.internal":   "Something went wrong on our side. Please try again in a moment.",
	"error.csrf":       "Your session expired. Please go back, reload the page and try again.",
	"error.back":       "Back to the shop",
	"form.errors":      "Please correct the highlighted fields.",
	"form.expired":     "Your session expired; please check and send again.",
	"product.price":    "Price",
	"product.was":      "Was",
	"product.instock":  "In stock",
	"product.outstock": "Out of stock",
}

// msg returns the string of key (the key itself when there is none, so a
// missing string shows rather than vanishes; a test checks every key used).
func msg(key string) string {
	if s, ok := messages[key]; ok {
		return s
	}
	return key
}

// msgf formats the string of key with args.
func msgf(key string, args ...any) string {
	return fmt.Sprintf(msg(key), args...)
}
