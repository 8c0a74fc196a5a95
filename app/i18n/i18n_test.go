package i18n_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"storefront/app/i18n"
)

// TestCatalogComplete: every language has every English key, the plural
// forms its language needs for every plural text, no key English lacks,
// and the same format verbs as English.
func TestCatalogComplete(t *testing.T) {
	set := i18n.Builtin()
	en := set.For("en")
	for _, lang := range i18n.Langs {
		c := set.For(lang)
		own := ownKeys(t, lang)
		for _, k := range en.Keys() {
			if !own[k] {
				t.Errorf("%s: key %s missing", lang, k)
			}
		}
		for k := range own {
			if !en.Has(k) && !isPluralForm(en, k) {
				t.Errorf("%s: key %s is not in en.txt", lang, k)
			}
		}
		for _, base := range pluralBases(en) {
			for _, form := range neededForms(c) {
				if !own[base+"."+form] {
					t.Errorf("%s: %s needs its %q form", lang, base, form)
				}
			}
		}
		for k := range own {
			want := verbs(en.T(pluralBase(en, k)))
			if got := verbs(c.T(k)); !slices.Equal(got, want) {
				t.Errorf("%s: %s has verbs %v, English %v", lang, k, got, want)
			}
		}
	}
}

// ownKeys reads lang's file itself (a Catalog falls back to English) and
// checks that its keys are sorted.
func ownKeys(t *testing.T, lang string) map[string]bool {
	f, err := os.Open(filepath.Join("messages", lang+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, prev := map[string]bool{}, ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, _, ok := strings.Cut(sc.Text(), " = ")
		if !ok || strings.HasPrefix(k, "#") {
			continue
		}
		if k < prev {
			t.Errorf("%s.txt: %s after %s: keep keys sorted", lang, k, prev)
		}
		m[k], prev = true, k
	}
	return m
}

// pluralBases are the keys English writes with plural forms (key.other).
func pluralBases(en *i18n.Catalog) []string {
	var out []string
	for _, k := range en.Keys() {
		if b, ok := strings.CutSuffix(k, ".other"); ok {
			out = append(out, b)
		}
	}
	return out
}

var formSuffix = regexp.MustCompile(`\.(zero|one|two|few|many|other)$`)

func isPluralForm(en *i18n.Catalog, k string) bool {
	return formSuffix.MatchString(k) && en.Has(formSuffix.ReplaceAllString(k, "")+".other")
}

// pluralBase maps a plural form of any language to English's "other" form.
func pluralBase(en *i18n.Catalog, k string) string {
	if isPluralForm(en, k) {
		return formSuffix.ReplaceAllString(k, ".other")
	}
	return k
}

// neededForms are the forms c's language gives whole numbers (CLDR),
// plus "other", the fallback.
func neededForms(c *i18n.Catalog) []string {
	seen := map[string]bool{"other": true}
	for n := range 1000 {
		seen[c.PluralForm(n)] = true
	}
	out := make([]string, 0, len(seen))
	for f := range seen {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

var verbRE = regexp.MustCompile(`%[-+# 0]*[0-9.]*[a-zA-Z%]`)

func verbs(s string) []string {
	v := verbRE.FindAllString(s, -1)
	for i := range v {
		if v[i] == "%%" {
			v[i] = "%"
		}
	}
	return v
}

func TestPluralForms(t *testing.T) {
	set := i18n.Builtin()
	cases := []struct {
		lang string
		n    int
		want string
	}{
		{"en", 1, "1 product on this page"}, {"en", 2, "2 products on this page"},
		{"de", 1, "1 Produkt auf dieser Seite"}, {"de", 24, "24 Produkte auf dieser Seite"},
		{"fr", 0, "0 produit sur cette page"}, {"fr", 2, "2 produits sur cette page"},
		{"ru", 1, "1 товар на этой странице"}, {"ru", 3, "3 товара на этой странице"},
		{"ru", 5, "5 товаров на этой странице"}, {"ru", 11, "11 товаров на этой странице"},
		{"ru", 21, "21 товар на этой странице"}, {"ru", 24, "24 товара на этой странице"},
		{"uz", 24, "Bu sahifada 24 ta mahsulot"},
	}
	for _, c := range cases {
		if got := set.For(c.lang).TF("list.count", c.n); got != c.want {
			t.Errorf("%s %d: %q, want %q", c.lang, c.n, got, c.want)
		}
	}
}

func TestMoney(t *testing.T) {
	set := i18n.Builtin()
	const nb = "\u00a0"
	cases := []struct {
		lang, cur string
		minor     int64
		want      string
	}{
		{"en", "USD", 123456, "$1,234.56"},
		{"en", "USD", -123456, "-$1,234.56"},
		{"en", "USD", 0, "$0.00"},
		{"en", "EUR", 5, "€0.05"},
		{"en", "JPY", 125000, "¥1,250"},
		{"en", "JPY", 125050, "¥1,250.50"},
		{"en", "CHF", 1250, "CHF12.50"},
		{"en", "XYZ", 1250, "XYZ12.50"},
		{"de", "EUR", 123456, "1.234,56" + nb + "€"},
		{"de", "EUR", -123456, "-1.234,56" + nb + "€"},
		{"de", "USD", 99, "0,99" + nb + "$"},
		{"de", "JPY", 100000000, "1.000.000" + nb + "¥"},
		{"fr", "EUR", 123456, "1" + nb + "234,56" + nb + "€"},
		{"es", "EUR", 123456, "1.234,56" + nb + "€"},
		{"ru", "RUB", 123456, "1" + nb + "234,56" + nb + "₽"},
		{"ru", "USD", 100, "1,00" + nb + "$"},
		{"uz", "UZS", 1234500, "12" + nb + "345" + nb + "soʻm"},
	}
	for _, c := range cases {
		if got := set.For(c.lang).Money(c.minor, c.cur); got != c.want {
			t.Errorf("%s %s %d: %q, want %q", c.lang, c.cur, c.minor, got, c.want)
		}
	}
}

func TestDates(t *testing.T) {
	set := i18n.Builtin()
	at := time.Date(2026, 11, 27, 18, 5, 0, 0, time.UTC)
	march := time.Date(2026, 3, 2, 9, 0, 0, 0, time.FixedZone("x", 3600))
	cases := []struct {
		lang     string
		at       time.Time
		date, dt string
	}{
		{"en", at, "27 Nov 2026", "27 Nov 2026, 18:05 UTC"},
		{"de", at, "27. Nov. 2026", "27. Nov. 2026, 18:05 UTC"},
		{"de", march, "2. März 2026", "2. März 2026, 08:00 UTC"},
		{"fr", at, "27 nov. 2026", "27 nov. 2026, 18:05 UTC"},
		{"es", at, "27 nov 2026", "27 nov 2026, 18:05 UTC"},
		{"ru", at, "27 нояб. 2026 г.", "27 нояб. 2026 г., 18:05 UTC"},
		{"uz", at, "27-noy, 2026", "27-noy, 2026, 18:05 UTC"},
	}
	for _, c := range cases {
		l := set.For(c.lang)
		if got := l.Date(c.at); got != c.date {
			t.Errorf("%s date: %q, want %q", c.lang, got, c.date)
		}
		if got := l.DateTime(c.at); got != c.dt {
			t.Errorf("%s datetime: %q, want %q", c.lang, got, c.dt)
		}
	}
}

// TestNumberAgreesWithXText: the separators taken once per locale give
// what x/text's own formatter gives.
func TestNumberAgreesWithXText(t *testing.T) {
	set := i18n.Builtin()
	for _, lang := range i18n.Langs {
		for _, n := range []int64{0, 7, 999, 1000, 12345, 1234567, -98765432} {
			if got, want := set.For(lang).Number(n), i18n.XTextNumber(lang, n); got != want {
				t.Errorf("%s %d: %q, x/text %q", lang, n, got, want)
			}
		}
	}
}

// TestOverride: a theme's messages/<lang>.txt replaces the keys it has;
// an unknown key is an error at start.
func TestOverride(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "messages"), 0o755)
	os.WriteFile(filepath.Join(dir, "messages", "de.txt"), []byte("# ours\nproduct.add = Ab in den Korb\n"), 0o644)
	set, err := i18n.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := set.For("de").T("product.add"); got != "Ab in den Korb" {
		t.Errorf("override: %q", got)
	}
	if got := set.For("de").T("cart.title"); got != "Ihr Warenkorb" {
		t.Errorf("the rest: %q", got)
	}
	if got := set.For("en").T("product.add"); got != "Add to cart" {
		t.Errorf("en: %q", got)
	}
	os.WriteFile(filepath.Join(dir, "messages", "fr.txt"), []byte("product.ad = Ajouter\n"), 0o644)
	if _, err := i18n.Load(dir); err == nil || !strings.Contains(err.Error(), "product.ad") {
		t.Errorf("unknown key: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "messages", "fr.txt"), []byte("product.add Ajouter\n"), 0o644)
	if _, err := i18n.Load(dir); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("bad line: %v", err)
	}
}

func BenchmarkMoney(b *testing.B) {
	de := i18n.Builtin().For("de")
	b.ReportAllocs()
	for b.Loop() {
		_ = de.Money(123456, "EUR")
	}
}

// TestDecimalArgs: a float in a text takes the language's decimal
// separator; integers are left as they are (order numbers).
func TestDecimalArgs(t *testing.T) {
	set := i18n.Builtin()
	cases := []struct{ lang, want string }{
		{"en", "4.5 out of 5 from 12 reviews"},
		{"de", "4,5 von 5 aus 12 Bewertungen"},
		{"ru", "4,5 из 5 по 12 отзывам"},
	}
	for _, c := range cases {
		if got := set.For(c.lang).TF("product.reviews.avg", 4.5, 12); got != c.want {
			t.Errorf("%s: %q, want %q", c.lang, got, c.want)
		}
	}
	if got := set.For("de").TF("account.order.title", 1042); got != "Bestellung #1042" {
		t.Errorf("order number: %q", got)
	}
}
