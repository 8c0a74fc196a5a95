package shop

import (
	"encoding/json"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// catalogMessages are the strings of the product lists and the product page.
var catalogMessages = map[string]string{}

// registerCatalogRoutes adds the product lists, search and product pages.
func (s *Shop) registerCatalogRoutes(a *fiber.App) {}

// productCard is a product as a grid shows it.
type productCard struct {
	ID        uint64     `json:"id"`
	Name      string     `json:"name"`
	Slug      string     `json:"slug"`
	Price     app.Money  `json:"price"`
	CompareAt *app.Money `json:"compare_at_price"` // null: none
	InStock   bool       `json:"in_stock"`
	Stock     int64      `json:"stock"`
	Images    []string   `json:"images"`
}

// cardView is a card with the currency its prices are written in.
type cardView struct {
	productCard
	Currency string
}

// Was is the compare-at price when it is above the price (0: none).
func (p productCard) Was() app.Money {
	if p.CompareAt != nil && *p.CompareAt > p.Price {
		return *p.CompareAt
	}
	return 0
}

// Image is the card's first image ("" when it has none).
func (p productCard) Image() string {
	if len(p.Images) == 0 {
		return ""
	}
	return safeURL(p.Images[0])
}

// productCards decodes a page of product docs into cards.
func productCards(docs []app.Doc) ([]productCard, error) {
	cards := make([]productCard, len(docs))
	var buf []byte
	for i, d := range docs {
		var err error
		if buf, err = d.AppendJSON(buf[:0], nil); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(buf, &cards[i]); err != nil {
			return nil, err
		}
	}
	return cards, nil
}
