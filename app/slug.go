package app

import "strings"

// Slugify makes a URL slug from a name: lower-case ASCII letters and
// digits, words joined by dashes, at most 80 characters. Letters of the
// shop languages are written in Latin first (translit), so a Russian,
// German or French name gives a slug of its own: "Кроссовки для бега"
// -> "krossovki-dlya-bega", "Größe" -> "groesse", "Crème" -> "creme".
func Slugify(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		latin, ok := translit[r]
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		case ok:
			b.WriteString(latin)
			dash = dash && latin == ""
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	out := strings.TrimSuffix(b.String(), "-")
	if len(out) > 80 {
		out = strings.TrimSuffix(out[:80], "-")
	}
	return out
}

// translit writes the lower-case letters of the shop languages (app.Locales)
// in ASCII: German umlauts as ae, oe, ue; other accents dropped; Russian
// and Uzbek Cyrillic by the common passport-style table; the apostrophes
// of Uzbek Latin (oʻ, gʻ) and the Russian hard and soft signs vanish.
var translit = map[rune]string{
	'ä': "ae", 'ö': "oe", 'ü': "ue", 'ß': "ss",
	'à': "a", 'á': "a", 'â': "a", 'ã': "a", 'å': "a", 'ā': "a", 'æ': "ae",
	'ç': "c", 'è': "e", 'é': "e", 'ê': "e", 'ë': "e", 'ē': "e",
	'ì': "i", 'í': "i", 'î': "i", 'ï': "i", 'ī': "i", 'ı': "i", 'ñ': "n",
	'ò': "o", 'ó': "o", 'ô': "o", 'õ': "o", 'ø': "o", 'ō': "o", 'œ': "oe",
	'ù': "u", 'ú': "u", 'û': "u", 'ū': "u", 'ý': "y", 'ÿ': "y", 'ğ': "g", 'ş': "s",
	'ʻ': "", 'ʼ': "", '\'': "", '’': "", '‘': "",
	'а': "a", 'б': "b", 'в': "v", 'г': "g", 'д': "d", 'е': "e", 'ё': "yo", 'ж': "zh",
	'з': "z", 'и': "i", 'й': "y", 'к': "k", 'л': "l", 'м': "m", 'н': "n", 'о': "o",
	'п': "p", 'р': "r", 'с': "s", 'т': "t", 'у': "u", 'ф': "f", 'х': "kh", 'ц': "ts",
	'ч': "ch", 'ш': "sh", 'щ': "shch", 'ъ': "", 'ы': "y", 'ь': "", 'э': "e", 'ю': "yu",
	'я': "ya", 'ў': "o", 'қ': "q", 'ғ': "g", 'ҳ': "h",
}
