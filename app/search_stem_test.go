package app_test

import (
	"strings"
	"testing"

	"storefront/app"
)

// TestStemmers: per store language, the words of a group share a stem (the
// words are typed as a shopper or an owner would: FoldText folds them), the
// pairs do not, and every stem begins with its word's first letter (the
// typo walk and the relevance lean on it).
func TestStemmers(t *testing.T) {
	cases := []struct {
		lang   string
		same   [][]string
		differ [][2]string
	}{
		{"en", [][]string{{"boot", "boots"}, {"battery", "batteries"}, {"hike", "hiking", "hiked"}}, [][2]string{{"boot", "boat"}}},
		{"de", [][]string{
			{"Schuh", "Schuhe", "Schuhen"}, {"Buch", "Bücher"}, {"Haus", "Häuser"}, {"Tasche", "Taschen"},
			{"Auto", "Autos"}, {"Stiefel", "Stiefeln"}, {"Kind", "Kinder", "Kindern"}, {"Lampe", "Lampen"},
		}, [][2]string{{"Hose", "Haus"}, {"Kopfhörer", "Kopf"}, {"Bus", "Busse"}}},
		{"fr", [][]string{
			{"robe", "robes"}, {"cheval", "chevaux"}, {"bateau", "bateaux"}, {"bijou", "bijoux"},
			{"grand", "grande", "grandes", "grands"}, {"chaussure", "chaussures"}, {"métal", "métaux"},
		}, [][2]string{{"robe", "rose"}, {"chat", "chaton"}}},
		{"es", [][]string{
			{"zapato", "zapatos"}, {"bota", "botas"}, {"camión", "camiones"}, {"luz", "luces"},
			{"rojo", "roja", "rojos", "rojas"}, {"reloj", "relojes"}, {"lámpara", "lámparas"},
		}, [][2]string{{"bota", "bolsa"}, {"mesa", "misa"}}},
		{"ru", [][]string{
			{"наушник", "наушники", "наушников", "наушниками"}, {"книга", "книги", "книгу", "книгами", "книгой"},
			{"красный", "красная", "красные", "красного"}, {"стол", "столы", "столов"}, {"Ёлка", "елки", "ёлку"},
			{"обувь", "обуви"}, {"лампа", "лампы", "ламп"},
		}, [][2]string{{"стол", "стул"}, {"книга", "кино"}}},
		{"uz", [][]string{
			{"kitob", "kitoblar", "kitobni", "kitoblarni", "kitobning"}, {"telefon", "telefonlar", "telefonga"},
			{"maktab", "maktabda", "maktabdan"}, {"poyabzal", "poyabzallar"}, {"bola", "bolalar", "bolaga"},
		}, [][2]string{{"kitob", "kitobxon"}, {"olma", "olmos"}}},
	}
	for _, c := range cases {
		stem := app.StemmerFor(c.lang)
		s := func(w string) string { return stem(app.FoldText(w)) }
		for _, group := range c.same {
			for _, w := range group {
				if a, b := s(group[0]), s(w); a != b {
					t.Errorf("%s: stem(%q) = %q, stem(%q) = %q: want the same", c.lang, group[0], a, w, b)
				}
				if st, f := s(w), app.FoldText(w); !strings.HasPrefix(f, st[:1]) || len([]rune(st)) < 3 {
					t.Errorf("%s: stem(%q) = %q: want 3 letters or more, beginning as the word does", c.lang, w, st)
				}
			}
		}
		for _, p := range c.differ {
			if a, b := s(p[0]), s(p[1]); a == b {
				t.Errorf("%s: stem(%q) = stem(%q) = %q: want different", c.lang, p[0], p[1], a)
			}
		}
		for _, w := range []string{"x42s", "abc", "12345", "a"} {
			if got := stem(w); got != w {
				t.Errorf("%s: stem(%q) = %q: short words and words with digits stay", c.lang, w, got)
			}
		}
	}
	if app.StemmerFor("xx")("boots") != "boot" || app.StemmerFor("")("boots") != "boot" {
		t.Error("a language without a stemmer searches in English")
	}
}
