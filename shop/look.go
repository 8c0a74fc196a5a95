package shop

import (
	"cmp"
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"storefront/app"
	"storefront/app/i18n"
)

// look is a store's appearance, from its config: every URL checked
// (safeURL), every colour a real colour, so templates can write them as
// they are. The config keys it reads are documented in docs/shop.md.
type look struct {
	Name        string
	Description string // store.description (the home page's meta description)
	SEOTitle    string // seo.title
	Logo        string
	ThemeColor  string
	// BrandInk is the text colour on ThemeColor: black or white, whichever
	// contrasts more (WCAG AA for any theme colour).
	BrandInk   string
	Currency   string
	Email      string
	Phone      string
	Hero       hero
	Banners    []banner
	Footer     string // footer.text (or footer.about)
	Copyright  string // footer.copyright
	Navigation []navLink
	Announce   []string
	// Featured are the slugs of home.featured (comma-separated), in order.
	Featured []string
	// Sections are the home page's sections in order (home.sections).
	Sections []string
	// Pages are the content pages the config has (pages.about, ...).
	Pages map[string]string
	// Lang is the store's language (config key locale: "en", "de"...);
	// L its catalogue.
	Lang string
	L    *i18n.Catalog
	// TaxNote follows a price: "incl. VAT" or "plus tax" as the store's
	// taxes say ("" without rates; taxNote).
	TaxNote string
	// GridClass is the class of a product grid: product_grid_layout
	// (grid, list) and product_card_layout (default, compact).
	// DetailLayout is product_detail_layout: "stacked" or "" (default).
	GridClass    string
	DetailLayout string
}

type hero struct{ Title, Subtitle, Image, CTALabel, CTAURL string }

type banner struct{ Image, Title, URL string }

type navLink struct{ Label, URL string }

// homeSections are the home page's sections; home.sections chooses and
// orders them (unknown names are skipped).
var homeSections = []string{"hero", "banners", "featured", "deals", "categories", "bundles", "posts"}

// contentPages are the content pages a store may have, by config key
// (pages.about ...) and path (/about/ ...).
var contentPages = []string{"about", "shipping", "terms", "privacy"}

var colourRE = regexp.MustCompile(`^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)

// lookCache keeps each store's parsed look until the store changes.
type lookCache struct{ m sync.Map } // store id -> *cachedLook

type cachedLook struct {
	store *app.Store // the version it was read from
	look  *look
}

// lookOf returns st's look, parsed once per version of the store: ByHost
// hands out one *app.Store per version (a change builds new ones).
func (s *Shop) lookOf(st *app.Store) *look {
	if v, ok := s.looks.m.Load(st.ID); ok {
		if cl := v.(*cachedLook); cl.store == st {
			return cl.look
		}
	}
	l := lookOf(st, s.msgs.For(st.Settings().Lang()))
	s.looks.m.Store(st.ID, &cachedLook{store: st, look: l})
	return l
}

// lookConfig is the part of a store's config the look reads.
type lookConfig struct {
	ThemeColor string              `json:"theme_color"`
	Store      map[string]string   `json:"store"`
	SEO        map[string]string   `json:"seo"`
	Hero       map[string]string   `json:"hero"`
	Footer     map[string]string   `json:"footer"`
	Home       map[string]string   `json:"home"`
	Pages      map[string]string   `json:"pages"`
	Banners    []json.RawMessage   `json:"banners"`
	Navigation []map[string]string `json:"navigation"`
	Announce   []map[string]string `json:"announcement_bar"`
	GridLayout string              `json:"product_grid_layout"`
	CardLayout string              `json:"product_card_layout"`
	DetailLay  string              `json:"product_detail_layout"`
}

// lookOf reads st's look from its config.
func lookOf(st *app.Store, lang *i18n.Catalog) *look {
	var cfg lookConfig
	_ = json.Unmarshal(st.Config, &cfg) // a config is checked when saved
	l := &look{Name: cmp.Or(strings.TrimSpace(cfg.Store["name"]), st.Name), Currency: st.Currency, ThemeColor: "#1f6feb",
		Footer: cmp.Or(cfg.Footer["text"], cfg.Footer["about"]), Copyright: cfg.Footer["copyright"],
		Description: cmp.Or(cfg.Store["description"], cfg.SEO["description"]), Email: cfg.Store["email"], Phone: cfg.Store["phone"],
		SEOTitle: cfg.SEO["title"], Logo: picture(cfg.Store["logo"]), Lang: lang.Lang, L: lang, TaxNote: taxNote(st, lang)}
	if colourRE.MatchString(cfg.ThemeColor) {
		l.ThemeColor = strings.ToLower(cfg.ThemeColor)
	}
	l.BrandInk = inkOn(l.ThemeColor)
	l.Hero = hero{Title: cfg.Hero["title"], Subtitle: cfg.Hero["subtitle"], Image: picture(cfg.Hero["image"]),
		CTALabel: cfg.Hero["cta_label"], CTAURL: safeURL(cfg.Hero["cta_url"])}
	l.Banners = banners(cfg.Banners)
	for _, n := range cfg.Navigation {
		if u := safeURL(n["url"]); u != "" && n["label"] != "" {
			l.Navigation = append(l.Navigation, navLink{Label: n["label"], URL: u})
		}
	}
	for _, a := range cfg.Announce {
		if t := a["text"]; t != "" {
			l.Announce = append(l.Announce, t)
		}
	}
	l.GridClass, l.DetailLayout = layouts(cfg)
	l.Featured = commaList(cfg.Home["featured"], 12)
	l.Sections = homeSections
	if secs := commaList(cfg.Home["sections"], len(homeSections)); len(secs) > 0 {
		l.Sections = nil
		for _, n := range secs {
			if slices.Contains(homeSections, n) && !slices.Contains(l.Sections, n) {
				l.Sections = append(l.Sections, n)
			}
		}
	}
	l.Pages = map[string]string{}
	for _, k := range contentPages {
		if body := strings.TrimSpace(cfg.Pages[k]); body != "" {
			l.Pages[k] = body
		}
	}
	return l
}

// layouts reads the layout settings the shop honours (docs/shop.md); an
// unknown value reads as the default.
func layouts(cfg lookConfig) (gridClass, detail string) {
	gridClass = "grid"
	if strings.EqualFold(strings.TrimSpace(cfg.GridLayout), "list") {
		gridClass += " grid-list"
	}
	if strings.EqualFold(strings.TrimSpace(cfg.CardLayout), "compact") {
		gridClass += " cards-compact"
	}
	if strings.EqualFold(strings.TrimSpace(cfg.DetailLay), "stacked") {
		detail = "stacked"
	}
	return gridClass, detail
}

// banners reads the banners array: objects with image, title and url
// (link); entries without a safe image are skipped.
func banners(raw []json.RawMessage) []banner {
	var out []banner
	for _, r := range raw {
		var b map[string]any
		if json.Unmarshal(r, &b) != nil {
			continue
		}
		str := func(k string) string { s, _ := b[k].(string); return s }
		if active, set := b["is_active"].(bool); set && !active {
			continue
		}
		if img := picture(str("image")); img != "" && len(out) < 6 {
			out = append(out, banner{Image: img, Title: str("title"), URL: safeURL(cmp.Or(str("url"), str("link")))})
		}
	}
	return out
}

// commaList splits a comma-separated config value, trimmed, at most n.
func commaList(s string, n int) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" && len(out) < n {
			out = append(out, strings.ToLower(p))
		}
	}
	return out
}

// HasSection reports whether the home page shows section name.
func (l look) HasSection(name string) bool { return slices.Contains(l.Sections, name) }

// inkOn is the text colour (#000 or #fff) with more contrast on colour
// (#rgb or #rrggbb), by the WCAG relative luminance.
func inkOn(colour string) string {
	h := strings.TrimPrefix(colour, "#")
	if len(h) == 3 {
		h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
	}
	var lum float64
	for i, w := range []float64{0.2126, 0.7152, 0.0722} {
		n, _ := strconv.ParseUint(h[2*i:2*i+2], 16, 8)
		c := float64(n) / 255
		if c <= 0.03928 {
			c /= 12.92
		} else {
			c = math.Pow((c+0.055)/1.055, 2.4)
		}
		lum += w * c
	}
	// contrast with black (lum+0.05)/0.05 against white 1.05/(lum+0.05)
	if (lum+0.05)*(lum+0.05) > 0.05*1.05 {
		return "#000"
	}
	return "#fff"
}

// taxNote is what follows a price of st: "incl. {the first rate's name}"
// when prices include tax, "plus tax" when they do not, "" without rates.
func taxNote(st *app.Store, l *i18n.Catalog) string {
	t := st.Settings().Taxes
	switch {
	case len(t.Rates) == 0:
		return ""
	case t.PricesIncludeTax:
		return l.TF("price.tax.incl", t.Rates[0].Name)
	}
	return l.T("price.tax.plus")
}
