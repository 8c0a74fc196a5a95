package shop_test

import (
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"storefront/app"
	"storefront/shop"
	"storefront/testenv"
)

// setCurrency changes a store's currency in storage (no service changes it
// once the store has orders) and drops the cached store.
func setCurrency(t *testing.T, e *testenv.Env, storeID uint64, cur string) {
	t.Helper()
	err := e.DB.Update(func(tx app.Tx) error {
		st, err := tx.Store(storeID)
		if err != nil {
			return err
		}
		st.Currency = cur
		return tx.PutStore(st)
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Svc.Stores.SetActive(storeID, true); err != nil {
		t.Fatal(err)
	}
}

// TestGermanShop: a store whose locale is de speaks German on every page
// (the texts, <html lang>, money as 1.234,56 €, plural forms, the errors a
// shopper meets), and a change of locale is not hidden by the page cache.
func TestGermanShop(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Laden")
	setCurrency(t, e, s.id, "EUR")
	editProduct(t, e, s.id, s.hammer.ID, app.ProductInput{Price: ptrTo(app.Money(123456))})
	b := newBrowser(t, e, s.host)
	// English first: the page cache keeps it
	b.get("/").expect(t, 200, `<html lang="en">`, "Skip to content")
	patchConfig(t, e, s.id, `{"locale":"de"}`)
	b.get("/").expect(t, 200, `<html lang="de">`, "Zum Inhalt springen", "Warenkorb").lacks(t, "Skip to content")
	b.get("/products/").expect(t, 200, "Alle Produkte", "2 Produkte auf dieser Seite", "1.234,56\u00a0€", "20,00\u00a0€")
	b.get("/products/"+s.hammer.Slug+"/").expect(t, 200, `<html lang="de">`, "In den Warenkorb", "1.234,56\u00a0€", "Nur noch 5 vorrätig")
	b.get("/search/?q=zzzzzz").expect(t, 200, "Keine passenden Produkte")
	b.get("/no-such-page/").expect(t, 404, "Seite nicht gefunden")

	add(b, s.hammer.ID, 0, 2).expect(t, 303)
	b.get("/cart/?m=added").expect(t, 200, "In den Warenkorb gelegt.", "Ihr Warenkorb", "2.469,12\u00a0€", "Zur Kasse")
	add(b, s.hammer.ID, 0, 0).expect(t, 400, "Menge: wählen Sie eine Zahl von 1 bis 1000.").lacks(t, "validation failed")
	b.post("/cart/", "/cart/coupon", url.Values{"coupon": {"NOPE"}}).expect(t, 400, "Dieser Code ist kein gültiger Gutschein.")
	b.get("/checkout/").expect(t, 200, "Kasse", "Lieferadresse", "Kostenpflichtig bestellen")
	b.get("/account/login/").expect(t, 200, "Anmelden", "Passwort vergessen?")
	b.post("/account/login/", "/account/login/", url.Values{"email": {"nobody@example.com"}, "password": {"wrong-password"}}).
		expect(t, 401, "E-Mail-Adresse oder Passwort ist falsch.")
}

// TestRussianPlurals: Russian counts take their few and many forms.
func TestRussianPlurals(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Magazin")
	setCurrency(t, e, s.id, "RUB")
	patchConfig(t, e, s.id, `{"locale":"ru"}`)
	b := newBrowser(t, e, s.host)
	b.get("/products/").expect(t, 200, `<html lang="ru">`, "2 товара на этой странице", "12,50\u00a0₽")
	b.get("/products/"+s.hammer.Slug+"/").expect(t, 200, "В корзину", "Осталось 5 шт.")
}

// TestThemeMessages: a theme's messages/<lang>.txt changes the keys it
// names, in its language only.
func TestThemeMessages(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "messages"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "messages", "de.txt"), []byte("product.add = Ab in den Korb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, shop.Config{ThemeDir: dir})
	s := newCartStore(t, e, "Thema")
	b := newBrowser(t, e, s.host)
	b.get("/products/"+s.hammer.Slug+"/").expect(t, 200, "Add to cart")
	patchConfig(t, e, s.id, `{"locale":"de"}`)
	b.get("/products/"+s.hammer.Slug+"/").expect(t, 200, "Ab in den Korb", "Nur noch 5 vorrätig")
}

// TestGermanCheckoutErrors: a checkout field's error is worded in German
// next to the field, its label first.
func TestGermanCheckoutErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t, shop.Config{})
	s := newCartStore(t, e, "Kasse")
	patchConfig(t, e, s.id, `{"locale":"de"}`)
	b := newBrowser(t, e, s.host)
	add(b, s.hammer.ID, 0, 1).expect(t, 303)
	co := b.get("/checkout/").expect(t, 200, "Kasse")
	key := regexp.MustCompile(`name="idempotency_key" value="([0-9a-f]+)"`).FindStringSubmatch(co.Body)
	if key == nil {
		t.Fatal("no idempotency key on the checkout page")
	}
	b.post("/checkout/", "/checkout/", url.Values{"email": {"kein-mail"}, "receiver_name": {""}, "phone": {"+49 30 1"}, "address": {"Weg 1"},
		"idempotency_key": {key[1]}}).expect(t, 400, "Bitte korrigieren Sie die markierten Felder.", "E-Mail muss eine gültige E-Mail-Adresse sein.")
}
