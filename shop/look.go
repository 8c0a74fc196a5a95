package shop

import (
	"encoding/json"
	"regexp"

	"storefront/app"
)

// look is a store's appearance, from its config: every URL checked
// (safeURL), every colour a real colour, so templates can write them as
// they are.
type look struct {
	Name        string
	Description string
	Logo        string
	ThemeColor  string
	Currency    string
	Hero        map[string]string
	Footer      map[string]string
	Navigation  []navLink
	Announce    []string
}

type navLink struct{ Label, URL string }

var colourRE = regexp.MustCompile(`^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)

// lookOf reads st's look from its config.
func lookOf(st *app.Store) look {
	var cfg struct {
		ThemeColor string              `json:"theme_color"`
		Store      map[string]string   `json:"store"`
		Hero       map[string]string   `json:"hero"`
		Footer     map[string]string   `json:"footer"`
		Navigation []map[string]string `json:"navigation"`
		Announce   []map[string]string `json:"announcement_bar"`
	}
	_ = json.Unmarshal(st.Config, &cfg) // a config is checked when saved
	l := look{Name: st.Name, Currency: st.Currency, ThemeColor: "#1f6feb", Hero: cfg.Hero, Footer: cfg.Footer}
	if n := cfg.Store["name"]; n != "" {
		l.Name = n
	}
	l.Description = cfg.Store["description"]
	l.Logo = safeURL(cfg.Store["logo"])
	if colourRE.MatchString(cfg.ThemeColor) {
		l.ThemeColor = cfg.ThemeColor
	}
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
	return l
}
