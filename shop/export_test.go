package shop

import "storefront/app/i18n"

// What the external tests (package shop_test) reach inside the package.

// english is the English catalogue, for code that runs outside a request.
func english() *i18n.Catalog { return i18n.Builtin().For("en") }

// SafeURL is safeURL.
var SafeURL = safeURL

// DecodeListForm is decodeListForm, answering the error fields only.
func DecodeListForm(get func(string) string, defSort string) (sort string, errs map[string]string) {
	f, _, errs := decodeListForm(english(), get, defSort)
	return f.Sort, errs
}

// DecodeContactForm is decodeContactForm's values.
func DecodeContactForm(body string) []string {
	f, _ := decodeContactForm([]byte(body))
	return []string{f.Name, f.Email, f.Phone, f.Subject, f.Message}
}

// DecodeReviewForm is decodeReviewForm's values.
func DecodeReviewForm(body string) []string {
	f, _ := decodeReviewForm([]byte(body))
	return []string{f.Rating, f.Title, f.Content}
}

// SetSitemapMax sets how many URLs a sitemap file holds until the test ends.
func SetSitemapMax(n int) (restore func()) {
	old := sitemapMax
	sitemapMax = n
	return func() { sitemapMax = old }
}

// InkOn is inkOn.
var InkOn = inkOn

// HasMessage says whether the English catalogue has key (or its plural forms).
func HasMessage(key string) bool { return english().Has(key) || english().Has(key+".other") }
