package i18n

import (
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"
)

// XTextNumber is x/text's own formatting of n in lang.
func XTextNumber(lang string, n int64) string {
	return message.NewPrinter(language.MustParse(lang)).Sprint(number.Decimal(n))
}
