package shop

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"storefront/app"
	"storefront/app/i18n"
	"storefront/httpkit"
)

// The errors a shopper meets are worded in the store's language: an
// error code the shop words has its text (cart.err.<code>), a field its
// label (field.<name>) and the rule's message its catalogue text
// (fieldTexts), so that "validation failed Quantity: must be between 1 and
// 1000." reads "Quantity: choose a number from 1 to 1000." (in German
// "Menge: wählen Sie eine Zahl von 1 bis 1000.").

// formError is what a page says of a form's error: the text of a domain
// error's code (prefix+code for the codes we word, "cart.err." or
// "account.err.", else the server's; none for a validation error, whose
// fields say it all), with the field messages the form does not show
// beside a field, after the summary form.errors when some are beside
// their fields; the messages beside the fields (label names a field the
// form shows, "" for one it does not; nil: none), each "Label: text.";
// and the status of the answer. An internal error is returned to become
// the error page.
func formError(l *i18n.Catalog, err error, prefix string, label func(field string) string) (string, map[string]string, int, error) {
	code := app.ErrorCode(err)
	if code == app.EInternal {
		return "", nil, 0, err
	}
	var m string
	switch k := prefix + code; {
	case l.Has(k):
		m = l.T(k)
	case code != app.EValidation:
		m = app.ErrorMessage(err)
	}
	beside := map[string]string{}
	if e, ok := err.(*app.Error); ok {
		for _, f := range slices.Sorted(maps.Keys(e.Fields)) {
			lab := ""
			if label != nil {
				lab = label(f)
			}
			switch {
			case lab != "":
				beside[f] = lab + " " + fieldText(l, e.Fields[f]) + "."
			case f != "idempotency_key":
				m += " " + fieldLabel(l, f) + " " + fieldText(l, e.Fields[f]) + "."
			}
		}
	}
	if m = strings.TrimSpace(m); m == "" {
		m = l.T("form.errors")
	} else if len(beside) > 0 && code == app.EValidation {
		m = l.T("form.errors") + " " + m
	}
	return m, beside, httpkit.StatusOf(code), nil
}

// fieldLabel names a field of an app error for a shopper: "Quantity:", or
// "Line 2:" for a field of an order line.
func fieldLabel(l *i18n.Catalog, f string) string {
	var i int
	if _, err := fmt.Sscanf(f, "items[%d]", &i); err == nil {
		return l.TF("field.line", i+1)
	}
	if k := "field." + f; l.Has(k) {
		return l.T(k)
	}
	return f
}

// fieldTexts are the rules' messages (app's wording) a shopper may meet,
// each with its catalogue key; a number in the message is the text's
// argument.
var fieldTexts = []struct {
	re  *regexp.Regexp
	key string
}{
	{regexp.MustCompile(`^is required$`), "err.required"},
	{regexp.MustCompile(`^is required: this product has variants$`), "err.variant.required"},
	{regexp.MustCompile(`^must be between (\d+) and (\d+)$`), "err.between"},
	{regexp.MustCompile(`^must be at most (\d+) characters$`), "err.maxlen"},
	{regexp.MustCompile(`^must be at least (\d+) characters$`), "err.minlen"},
	{regexp.MustCompile(`^must be a valid email address$`), "err.email"},
	{regexp.MustCompile(`^must be the 6-digit code$`), "err.code6"},
	{regexp.MustCompile(`^is wrong or has expired$`), "err.code.expired"},
	{regexp.MustCompile(`^does not match the password$`), "err.password.match"},
	{regexp.MustCompile(`^unknown coupon$`), "err.coupon.unknown"},
	{regexp.MustCompile(`^this coupon is not valid$`), "err.coupon.invalid"},
	{regexp.MustCompile(`^this coupon is not valid yet$`), "err.coupon.early"},
	{regexp.MustCompile(`^this coupon has expired$`), "err.coupon.expired"},
	{regexp.MustCompile(`^this coupon has been used up$`), "err.coupon.used"},
	{regexp.MustCompile(`^this coupon needs a subtotal of at least (\S+)$`), "err.coupon.min"},
	{regexp.MustCompile(`^a line holds at most (\d+) units$`), "err.line.units"},
	{regexp.MustCompile(`^the cart holds at most (\d+) lines$`), "err.cart.lines"},
	{regexp.MustCompile(`^the cart is empty$`), "err.cart.empty"},
	{regexp.MustCompile(`^unknown product$`), "err.product.unknown"},
	{regexp.MustCompile(`^is not a variant of this product$`), "err.variant.foreign"},
	{regexp.MustCompile(`^is not offered by this store$`), "err.delivery.unknown"},
	{regexp.MustCompile(`^must be an integer from 1 to 5$`), "err.rating"},
}

// fieldText words a rule's message in l; one the catalogue does not know
// (rare: a shopper's forms meet the rules above) stays as app wrote it.
func fieldText(l *i18n.Catalog, msg string) string {
	if msg == "" {
		return ""
	}
	for _, ft := range fieldTexts {
		sub := ft.re.FindStringSubmatch(msg)
		if sub == nil {
			continue
		}
		args := make([]any, 0, len(sub)-1)
		for _, a := range sub[1:] {
			if n, err := strconv.Atoi(a); err == nil {
				args = append(args, n)
			} else {
				args = append(args, a)
			}
		}
		return l.TF(ft.key, args...)
	}
	return msg
}

// sentence makes a rule's message a sentence of its own: a capital first
// and a full stop ("This coupon has expired.").
func sentence(s string) string {
	if s = capital(s); s != "" && !strings.ContainsAny(s[len(s)-1:], ".!?") {
		s += "."
	}
	return s
}

// capital is s with a capital first letter: "size" as "Size".
func capital(s string) string {
	if r, n := utf8.DecodeRuneInString(s); n > 0 {
		return string(unicode.ToUpper(r)) + s[n:]
	}
	return s
}
