package panel

import (
	"encoding/json"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// seller is the invoice's and packing slip's seller block: the shop's name,
// address, email and phone from its settings (identity: store.*).
type seller struct {
	Name, Address, Email, Phone string
}

// printData is what the invoice and packing slip templates get.
type printData struct {
	Order  *app.Order
	Seller seller
}

// storeSeller reads the seller block from the store's configuration; the
// panel's store name stands in for a missing shop name.
func storeSeller(st *app.Store) seller {
	var cfg struct {
		Store struct {
			Name, Address, Email, Phone string
		} `json:"store"`
	}
	_ = json.Unmarshal(st.Config, &cfg) // a config of another shape: no block, only the name
	s := seller{Name: cfg.Store.Name, Address: cfg.Store.Address, Email: cfg.Store.Email, Phone: cfg.Store.Phone}
	if s.Name == "" {
		s.Name = st.Name
	}
	return s
}

// orderPrint serves GET .../orders/{oid}/invoice/ and .../packing-slip/:
// printable pages (print CSS hides the panel around them) with the seller
// block and a Print button.
func (p *panel) orderPrint(page string) pageFunc {
	return func(c *fiber.Ctx, v *view) error {
		o, err := p.pathOrder(c, v)
		if err != nil {
			return err
		}
		title := "Invoice"
		if page == "packing" {
			title = "Packing slip"
		}
		v.Title, v.Tab = title+" · order #"+strconv.FormatUint(o.ID, 10), "orders"
		v.Data = printData{Order: o, Seller: storeSeller(v.Store)}
		return p.render(c, fiber.StatusOK, page, v)
	}
}
