// Package i18n is the shop's message catalogue and the locale's formats:
// one file per language in messages/ (key = text, one key per line, keys
// sorted), English the reference; numbers, money and dates by the locale's
// CLDR rules through golang.org/x/text. It imports only the standard
// library and x/text, so that app (mails, invoice) and shop both use it.
//
// A text may have plural forms: key.one, key.few, key.many, key.other, as
// the language needs (CLDR, golang.org/x/text/feature/plural). TF picks the
// form by its first integer argument.
package i18n

import (
	"bufio"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

//go:embed messages/*.txt
var files embed.FS

// Langs are the languages with a catalogue, English first: the same list
// as app.Locales (a test checks).
var Langs = []string{"en", "de", "fr", "es", "ru", "uz"}

// Catalog is one language: its texts and its formats, built once.
type Catalog struct {
	Lang   string
	tag    language.Tag
	msgs   map[string]string
	months [12]string
	num    numberFormat
	money  moneyFormat
	syms   sync.Map // currency code -> curInfo
	print  *message.Printer
}

// Set is a catalogue per language.
type Set map[string]*Catalog

var (
	builtinOnce sync.Once
	builtin     Set
)

// Builtin is the catalogues as shipped (parsed once; a broken embedded
// file is a programming error and panics).
func Builtin() Set {
	builtinOnce.Do(func() {
		s, err := Load("")
		if err != nil {
			panic(err)
		}
		builtin = s
	})
	return builtin
}

// For is lang's catalogue, English for an unknown or empty lang.
func (s Set) For(lang string) *Catalog {
	if c := s[lang]; c != nil {
		return c
	}
	return s["en"]
}

// Load parses the catalogues, each with the owner's overrides from
// themeDir/messages/<lang>.txt when that file exists (only the keys they
// change; a key English does not have is an error, so a typo shows at
// start). A key a language lacks reads as English.
func Load(themeDir string) (Set, error) {
	en, err := parseFile(files, "messages/en.txt")
	if err != nil {
		return nil, err
	}
	set := Set{}
	for _, lang := range Langs {
		m := en
		if lang != "en" {
			own, err := parseFile(files, "messages/"+lang+".txt")
			if err != nil {
				return nil, err
			}
			m = merged(en, own)
		}
		if m, err = override(m, en, themeDir, lang); err != nil {
			return nil, err
		}
		set[lang] = newCatalog(lang, m)
	}
	return set, nil
}

// override lays themeDir/messages/lang.txt over m.
func override(m, en map[string]string, themeDir, lang string) (map[string]string, error) {
	if themeDir == "" {
		return m, nil
	}
	name := filepath.Join(themeDir, "messages", lang+".txt")
	own, err := parseFile(os.DirFS(filepath.Dir(name)), filepath.Base(name))
	if os.IsNotExist(err) || (err != nil && strings.Contains(err.Error(), "no such file")) {
		return m, nil
	}
	if err != nil {
		return nil, err
	}
	for k := range own {
		if _, ok := en[k]; !ok {
			return nil, fmt.Errorf("i18n: %s: unknown key %q", name, k)
		}
	}
	return merged(m, own), nil
}

func merged(base, over map[string]string) map[string]string {
	m := make(map[string]string, len(base))
	for k, v := range base {
		m[k] = v
	}
	for k, v := range over {
		m[k] = v
	}
	return m
}

// parseFile reads a catalogue file: "key = text" lines; blank lines and
// lines starting with # are skipped; \n in a text is a line break.
func parseFile(fsys fs.FS, name string) (map[string]string, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := Parse(f)
	if err != nil {
		return nil, fmt.Errorf("i18n: %s: %w", name, err)
	}
	return m, nil
}

// Parse reads catalogue lines from r.
func Parse(r io.Reader) (map[string]string, error) {
	m := map[string]string{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		k, v, ok := strings.Cut(line, " = ")
		k = strings.TrimSpace(k)
		if !ok || k == "" || strings.ContainsAny(k, " \t") {
			return nil, fmt.Errorf("line %d: want \"key = text\"", n)
		}
		if _, dup := m[k]; dup {
			return nil, fmt.Errorf("line %d: key %s twice", n, k)
		}
		m[k] = strings.ReplaceAll(v, `\n`, "\n")
	}
	return m, sc.Err()
}

// Keys are the catalogue's keys, sorted.
func (c *Catalog) Keys() []string {
	ks := make([]string, 0, len(c.msgs))
	for k := range c.msgs {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Has says whether key has a text (plural forms count by their own keys).
func (c *Catalog) Has(key string) bool {
	_, ok := c.msgs[key]
	return ok
}

// T is key's text (the key itself when there is none, so that a missing
// text shows rather than vanishes).
func (c *Catalog) T(key string) string {
	if s, ok := c.msgs[key]; ok {
		return s
	}
	if s, ok := c.msgs[key+".other"]; ok {
		return s
	}
	return key
}

// TF formats key's text with args; a key with plural forms takes the
// form of its first integer argument.
func (c *Catalog) TF(key string, args ...any) string {
	f := c.Format(key, args...)
	copied := false
	for i, a := range args {
		if v, ok := a.(float64); ok {
			if !copied { // the caller's slice stays as it was
				args, copied = append([]any(nil), args...), true
			}
			args[i] = localFloat{v, c.num.decimal}
		}
	}
	return fmt.Sprintf(f, args...) // fmt, not the printer: order numbers stay "#1042"
}

// localFloat writes a float with the language's decimal separator
// ("4,5 von 5"): %f, %.1f and %g as fmt does, the point replaced.
type localFloat struct {
	v   float64
	dec string
}

func (lf localFloat) Format(st fmt.State, verb rune) {
	prec, ok := st.Precision()
	if !ok {
		prec = -1
	}
	if verb != 'f' && verb != 'g' && verb != 'e' {
		verb = 'g'
	}
	fmt.Fprint(st, strings.Replace(strconv.FormatFloat(lf.v, byte(verb), prec, 64), ".", lf.dec, 1))
}

// Format is the format TF would use for key and args (its plural form).
func (c *Catalog) Format(key string, args ...any) string {
	if s, ok := c.msgs[key]; ok {
		return s
	}
	return c.pluralText(key, args)
}

// pluralText is the plural form of key for the first integer in args.
func (c *Catalog) pluralText(key string, args []any) string {
	for _, a := range args {
		n, ok := asInt(a)
		if !ok {
			continue
		}
		if s, ok := c.msgs[key+"."+c.PluralForm(n)]; ok {
			return s
		}
		break
	}
	return c.T(key)
}

// PluralForm is the CLDR cardinal form of n in c's language: "one",
// "few", "many", "other" (or "zero", "two").
func (c *Catalog) PluralForm(n int) string {
	if n < 0 {
		n = -n
	}
	return formNames[plural.Cardinal.MatchPlural(c.tag, n%1000000, 0, 0, 0, 0)]
}

var formNames = map[plural.Form]string{plural.Other: "other", plural.Zero: "zero", plural.One: "one",
	plural.Two: "two", plural.Few: "few", plural.Many: "many"}

func asInt(a any) (int, bool) {
	switch v := a.(type) {
	case int:
		return v, true
	case int64:
		return int(v), true
	case int32:
		return int(v), true
	case uint64:
		return int(v % 1000000), true
	case uint:
		return int(v % 1000000), true
	}
	return 0, false
}
