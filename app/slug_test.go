package app_test

import (
	"testing"

	"storefront/app"
)

// TestSlugify: a name in any shop language gives a slug of its own, in
// ASCII (a Russian owner need not type one).
func TestSlugify(t *testing.T) {
	for in, want := range map[string]string{
		"Hiking Boot":          "hiking-boot",
		"  Trail -- Pro 2 ":    "trail-pro-2",
		"Кроссовки для бега":   "krossovki-dlya-bega",
		"Щётка, Ёлка":          "shchyotka-yolka",
		"Größe Über":           "groesse-ueber",
		"Crème brûlée":         "creme-brulee",
		"Señal de año":         "senal-de-ano",
		"Oʻzbekiston gʻalla":   "ozbekiston-galla",
		"Qoʻqon doʻppi":        "qoqon-doppi",
		"Ўзбек қўғирчоқ":       "ozbek-qogirchoq",
		"Men's shoes":          "mens-shoes",
		"商品":                   "",
		"Объявление №1 — нов.": "obyavlenie-1-nov",
	} {
		if got := app.Slugify(in); got != want {
			t.Errorf("Slugify(%q) = %q, want %q", in, got, want)
		}
		if want != "" && !app.ValidSlug(want) {
			t.Errorf("%q is not a valid slug", want)
		}
	}
}
