package panel

import (
	"encoding/json"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/app/i18n"
)

// seller is the invoice's and packing slip's seller block: the shop's name,
// address, email and phone from its settings (identity: store.*), and its
// tax id (taxes.tax_id).
type seller struct {
	Name, Address, Email, Phone, TaxID string
}

// printData is what the invoice and packing slip templates get; with
// Credit, the invoice sheet prints that credit note of the order instead.
type printData struct {
	Order  *app.Order
	Seller seller
	Credit *app.CreditNote
	// L is the store's language: the invoice is the shopper's, in the
	// language of the shop (its texts are the invoice.* of app/i18n).
	L sheetLang
}

// sheetLang is a language as the invoice sheet uses it.
type sheetLang struct{ *i18n.Catalog }

// Amount writes m in currency by the language's rules ("1.234,56 €").
func (l sheetLang) Amount(m app.Money, currency string) string { return l.Money(int64(m), currency) }

// langOf is st's language for its invoices.
func langOf(st *app.Store) sheetLang { return sheetLang{i18n.Builtin().For(st.Settings().Lang())} }

// storeSeller reads the seller block from the store's configuration; the
// panel's store name stands in for a missing shop name.
func storeSeller(st *app.Store) seller {
	var cfg struct {
		Store struct {
			Name, Address, Email, Phone string
		} `json:"store"`
		Taxes struct {
			TaxID string `json:"tax_id"`
		} `json:"taxes"`
	}
	_ = json.Unmarshal(st.Config, &cfg) // a config of another shape: no block, only the name
	s := seller{Name: cfg.Store.Name, Address: cfg.Store.Address, Email: cfg.Store.Email, Phone: cfg.Store.Phone, TaxID: cfg.Taxes.TaxID}
	if s.Name == "" {
		s.Name = st.Name
	}
	return s
}

// printTitles name the printable sheets, one and many, by their page.
var printTitles = map[string][2]string{"invoice": {"Invoice", "Invoices"}, "packing": {"Packing slip", "Packing slips"}}

// orderPrint serves GET .../orders/{oid}/invoice/ and .../packing-slip/:
// printable pages (print CSS hides the panel around them) with the seller
// block and a Print button. invoice/?credit_note={number} prints one of the
// order's credit notes (unknown: 404).
func (p *panel) orderPrint(page string) func(c *fiber.Ctx, v *view, o *app.Order) error {
	return func(c *fiber.Ctx, v *view, o *app.Order) error {
		v.Title, v.Tab = printTitles[page][0]+" · order #"+strconv.FormatUint(o.ID, 10), "orders"
		d := printData{Order: o, Seller: storeSeller(v.Store), L: langOf(v.Store)}
		if n := c.Query("credit_note"); n != "" && page == "invoice" {
			if d.Credit = creditNote(o, n); d.Credit == nil {
				return app.NotFound("credit note")
			}
			v.Title = "Credit note " + n + " · order #" + strconv.FormatUint(o.ID, 10)
		}
		v.Data = d
		return p.render(c, fiber.StatusOK, page, v)
	}
}

// creditNote is the order's credit note numbered n, or nil.
func creditNote(o *app.Order, n string) *app.CreditNote {
	for i := range o.CreditNotes {
		if o.CreditNotes[i].Number == n {
			return &o.CreditNotes[i]
		}
	}
	return nil
}
