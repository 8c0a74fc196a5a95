package shop

import (
	"strings"
	"time"

	"storefront/app"
)

// currencySymbols are the symbols written before an amount; other
// currencies are written after it by code ("12.50 CHF").
var currencySymbols = map[string]string{
	"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "CNY": "¥", "INR": "₹", "KRW": "₩",
	"AUD": "A$", "CAD": "CA$", "NZD": "NZ$", "BRL": "R$", "MXN": "MX$", "TRY": "₺", "UAH": "₴",
	"ILS": "₪", "NGN": "₦", "PHP": "₱", "VND": "₫", "THB": "฿", "BDT": "৳",
}

// formatMoney writes m in currency for a person: "$1,250.00", "1,250.00 CHF".
func formatMoney(m app.Money, currency string) string {
	s := m.String()
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	sym, before := currencySymbols[strings.ToUpper(currency)]
	if before {
		b.WriteString(sym)
	}
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	b.WriteByte('.')
	b.WriteString(frac)
	if !before {
		b.WriteByte(' ')
		b.WriteString(strings.ToUpper(currency))
	}
	return b.String()
}

// formatDate writes t as "27 Nov 2026" (UTC).
func formatDate(t time.Time) string {
	return t.UTC().Format("2 Jan 2006")
}

// formatDateTime writes t as "27 Nov 2026, 18:00 UTC".
func formatDateTime(t time.Time) string {
	return t.UTC().Format("2 Jan 2006, 15:04 UTC")
}
