package i18n

import (
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/currency"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"
)

// numberFormat is a locale's digit grouping and decimal separator, taken
// once from x/text's CLDR formatting of a sample number (number_test.go
// checks that Number and Money agree with x/text's own output).
type numberFormat struct{ group, decimal string }

// moneyFormat is where the currency symbol goes: x/text has the symbols
// but no currency patterns, so this small table (symbolAfter) says it, from
// CLDR's patterns: "¤#,##0.00" (en) or "#,##0.00 ¤" (de, fr, es, ru, uz).
type moneyFormat struct{ after bool }

// symbolAfter are the languages that write the symbol after the amount,
// with a no-break space.
var symbolAfter = map[string]bool{"de": true, "fr": true, "es": true, "ru": true, "uz": true}

func newCatalog(lang string, msgs map[string]string) *Catalog {
	tag := language.MustParse(lang)
	c := &Catalog{Lang: lang, tag: tag, msgs: msgs, print: message.NewPrinter(tag), money: moneyFormat{after: symbolAfter[lang]}}
	c.num = sampleFormat(c.print)
	copy(c.months[:], strings.Split(c.T("date.months"), "|"))
	return c
}

// sampleFormat reads the separators off x/text's "1,234,567.5".
func sampleFormat(p *message.Printer) numberFormat {
	s := p.Sprint(number.Decimal(1234567.5, number.Scale(1)))
	i := strings.Index(s, "234")
	j := strings.Index(s, "567")
	return numberFormat{group: s[i+3 : j], decimal: s[j+3 : len(s)-1]}
}

// Number writes n with the locale's grouping: "1.234" (de).
func (c *Catalog) Number(n int64) string {
	return string(c.appendInt(nil, n))
}

func (c *Catalog) appendInt(b []byte, n int64) []byte {
	if n < 0 {
		b = append(b, '-')
		n = -n
	}
	d := strconv.FormatInt(n, 10)
	for i := range len(d) {
		if i > 0 && (len(d)-i)%3 == 0 {
			b = append(b, c.num.group...)
		}
		b = append(b, d[i])
	}
	return b
}

// Money writes minor units (hundredths) of currency for a person:
// "$1,234.56" (en), "1.234,56 €" (de), "1 234,56 ₽" (ru). A currency
// without minor units in CLDR (JPY) loses a ".00" it does not need.
func (c *Catalog) Money(minor int64, code string) string {
	cur := c.currency(strings.ToUpper(code))
	b := make([]byte, 0, 24)
	if minor < 0 {
		b = append(b, '-')
		minor = -minor
	}
	if !c.money.after {
		b = append(b, cur.sym...)
	}
	b = c.appendInt(b, minor/100)
	if minor%100 != 0 || !cur.whole {
		b = append(b, c.num.decimal...)
		b = append(b, byte('0'+minor%100/10), byte('0'+minor%10))
	}
	if c.money.after {
		b = append(b, "\u00a0"...)
		b = append(b, cur.sym...)
	}
	return string(b)
}

// curInfo is a currency in a language: its symbol (x/text, CLDR: "$",
// "€", "₽"; the code itself for an unknown currency) and whether it has no
// minor units (CLDR: JPY, KRW...).
type curInfo struct {
	sym   string
	whole bool
}

// currency is code's curInfo, worked out once per language and code.
func (c *Catalog) currency(code string) curInfo {
	if v, ok := c.syms.Load(code); ok {
		return v.(curInfo)
	}
	ci := curInfo{sym: code}
	if u, err := currency.ParseISO(code); err == nil {
		ci.sym = c.print.Sprint(currency.Symbol(u))
		scale, _ := currency.Standard.Rounding(u)
		ci.whole = scale == 0
	}
	c.syms.Store(code, ci)
	return ci
}

// Date writes t (UTC) by the catalogue's date.format, a Go layout whose
// "Jan" is the month's name from date.months: "27 Nov 2026" (en),
// "27. Nov. 2026" (de).
func (c *Catalog) Date(t time.Time) string {
	return c.layout(t, c.T("date.format"))
}

// DateTime writes t (UTC) by date.datetime: "27 Nov 2026, 18:00 UTC".
func (c *Catalog) DateTime(t time.Time) string {
	return c.layout(t, c.T("date.datetime"))
}

func (c *Catalog) layout(t time.Time, layout string) string {
	t = t.UTC()
	parts := strings.Split(layout, "Jan")
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteString(c.months[t.Month()-1])
		}
		b.WriteString(t.Format(p))
	}
	return b.String()
}
