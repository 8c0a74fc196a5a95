package app

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The rules of a store's configuration values: one set, applied by
// MergeConfig to every write (the admin API's PATCH config, the panel's
// forms and its JSON editor alike). A patch is checked on the keys it
// touches, as they are after the merge.

// ThemeColorRE is a theme colour: #rgb or #rrggbb.
var ThemeColorRE = regexp.MustCompile(`^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)

// ThemeKeys are the top-level string keys of the theme: short words.
var ThemeKeys = []string{"template", "business_type", "header_layout", "footer_layout",
	"product_card_layout", "product_grid_layout", "product_detail_layout"}

// Lengths of configuration texts, in characters.
const (
	MaxConfigText  = 2000 // store.*, seo.*
	MaxThemeWord   = 100  // ThemeKeys
	MaxConfigLabel = 100  // navigation labels, payment method and delivery names
	MaxConfigURL   = 2048 // navigation links
)

// checkConfigRules checks the values of the keys patch sets, read from the
// merged configuration.
func checkConfigRules(v *Validation, patch, merged map[string]any) {
	for k := range patch {
		val, ok := merged[k]
		if !ok || val == nil {
			continue
		}
		switch k {
		case "theme_color":
			s, _ := val.(string)
			v.Check(ThemeColorRE.MatchString(s), k, "must be a colour like #1f6feb")
		case "store", "seo":
			m, _ := val.(map[string]any)
			checkTexts(v, k, m)
			if k == "store" {
				checkStoreIdentity(v, m)
			}
		case "navigation":
			checkEntries(v, k, val, func(i string, e map[string]any) {
				label, u := str(e["label"]), str(e["url"])
				v.Check(label != "" && utf8.RuneCountInString(label) <= MaxConfigLabel, i+".label", "needs a label of at most 100 characters")
				v.Check(u != "" && len(u) <= MaxConfigURL && (strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//") || ValidHTTPURL(u)),
					i+".url", "needs a link: a path like /categories/shoes or an http(s) URL")
			})
		case "payment_methods":
			n := checkEntries(v, k, val, func(i string, e map[string]any) {
				name := str(e["name"])
				v.OneOf(i+".code", str(e["code"]), WalletA, WalletB)
				v.Check(name != "" && utf8.RuneCountInString(name) <= MaxConfigLabel, i+".name", "needs a name of at most 100 characters")
			})
			v.Check(n > 0, k, "offer at least one payment method: checkout needs one")
		case "delivery_options":
			n := checkEntries(v, k, val, func(i string, e map[string]any) {
				id, name := str(e["id"]), str(e["name"])
				v.Check(id != "" && len(id) <= 50 && !strings.ContainsAny(id, " \t"), i+".id", "needs an id without spaces (at most 50 characters)")
				v.Check(name != "" && utf8.RuneCountInString(name) <= MaxConfigLabel, i+".name", "needs a name of at most 100 characters")
			})
			v.Check(n > 0, k, "keep at least one delivery option: checkout needs a fee to charge")
		case "taxes":
			checkTaxes(v, val)
		case "locale":
			v.OneOf(k, str(val), Locales...)
		default:
			for _, t := range ThemeKeys {
				if k == t {
					v.Check(utf8.RuneCountInString(str(val)) <= MaxThemeWord, k, "must be at most 100 characters")
				}
			}
		}
	}
}

// checkStoreIdentity checks the store object's email, logo and choices.
func checkStoreIdentity(v *Validation, m map[string]any) {
	if e := str(m["email"]); e != "" {
		v.Check(ValidEmail(e), "store.email", "must be an email address")
	}
	if u := str(m["logo"]); u != "" {
		v.Check(ValidHTTPURL(u), "store.logo", "must be an http(s) URL")
	}
	if s := str(m["logo_display"]); s != "" {
		v.OneOf("store.logo_display", s, "logo_and_name", "logo_only", "name_only")
	}
	if s := str(m["logo_size"]); s != "" {
		v.OneOf("store.logo_size", s, "small", "medium", "large")
	}
	if s := str(m["country"]); s != "" {
		v.Check(CountryRE.MatchString(s), "store.country", "must be an ISO 3166-1 alpha-2 code in upper case, like GB or US")
	}
	if s := str(m["region"]); s != "" {
		v.Check(RegionRE.MatchString(s), "store.region", "must be a region code in upper case, like CA (the part of ISO 3166-2 after the country)")
	}
}

// checkTexts bounds every string of an object of strings.
func checkTexts(v *Validation, k string, m map[string]any) {
	for sk, sv := range m {
		v.Check(utf8.RuneCountInString(str(sv)) <= MaxConfigText, k+"."+sk, "must be at most 2000 characters")
	}
}

// checkEntries runs fn on each object of an array ("key[i]" names it) and
// returns how many there are.
func checkEntries(v *Validation, k string, val any, fn func(name string, e map[string]any)) int {
	arr, _ := val.([]any)
	for i, x := range arr {
		e, _ := x.(map[string]any)
		fn(k+"["+strconv.Itoa(i)+"]", e)
	}
	return len(arr)
}

func str(x any) string {
	s, _ := x.(string)
	return s
}
