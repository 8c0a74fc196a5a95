package app

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"
)

// Price is what one unit of a product or variant costs at an instant, as
// every surface shows it: the API's product reads (price, deal_price,
// deal_ends_at), the shop's pages and JSON-LD, the cart, the quote, the
// checkout and the order (Unit). PriceAt computes it; nothing else does.
//
// The tax display (prices with or without tax, and the "incl. VAT" /
// "plus tax" the shop prints beside them) is to be added here, as fields set
// by PriceAt from the store's tax settings, so that it too is computed once.
type Price struct {
	Regular   Money // the catalog price of the product or variant
	CompareAt Money // the product's compare-at price (0: none)
	// OnDeal is set while a flash deal runs on the unit: Deal is its price
	// (below Regular) and DealEnds when it stops.
	OnDeal   bool
	Deal     Money
	DealEnds time.Time
}

// Unit is the price one unit is sold at: the deal's while it runs.
func (p Price) Unit() Money {
	if p.OnDeal {
		return p.Deal
	}
	return p.Regular
}

// Was is the price shown struck through beside Unit: the regular price
// during a deal, else the compare-at price when it is above the price (0:
// none).
func (p Price) Was() Money {
	switch {
	case p.OnDeal:
		return p.Regular
	case p.CompareAt > p.Regular:
		return p.CompareAt
	}
	return 0
}

// PriceAt is the price of a product (variantID 0) or of one of its variants
// at now under the product's flash deals (any of them, running or not).
func PriceAt(p *Product, variantID uint64, deals []*FlashDeal, now time.Time) Price {
	pr := Price{Regular: p.UnitPrice(variantID), CompareAt: p.CompareAtPrice}
	return pr.under(variantID, deals, now)
}

// under applies the lowest deal running at now that covers the variant (a
// deal of variant 0 covers them all) and is below the regular price.
func (p Price) under(variantID uint64, deals []*FlashDeal, now time.Time) Price {
	p.OnDeal, p.Deal, p.DealEnds = false, 0, time.Time{}
	for _, d := range deals {
		if d.ActiveAt(now) && (d.VariantID == 0 || d.VariantID == variantID) && d.DealPrice < p.Unit() {
			p.OnDeal, p.Deal, p.DealEnds = true, d.DealPrice, UTC(d.EndsAt)
		}
	}
	return p
}

// DealPrice is the unit price of a product or variant whose catalog price is
// price under the flash deals of the product (PriceAt's Unit).
func DealPrice(price Money, variantID uint64, deals []*FlashDeal, now time.Time) Money {
	return Price{Regular: price}.under(variantID, deals, now).Unit()
}

// LiveDeals is a store's flash deals as they stand from one instant until
// Until, when one starts or ends: what the product reads add to each
// product (AppendDeal). It is shared between requests and never changed.
type LiveDeals struct {
	deals map[uint64][]*FlashDeal // product id -> its deals not ended yet
	at    time.Time
	// Until is when a deal next starts or ends (zero: none will): what is
	// built from this view (a cached detail, a shop page) expires then.
	Until time.Time
}

// newLiveDeals is the view at now of deals (those ended are left out).
func newLiveDeals(deals []*FlashDeal, now time.Time) *LiveDeals {
	l := &LiveDeals{at: now}
	for _, d := range deals {
		if !now.Before(d.EndsAt) {
			continue
		}
		if l.deals == nil {
			l.deals = map[uint64][]*FlashDeal{}
		}
		l.deals[d.ProductID] = append(l.deals[d.ProductID], d)
		next := d.EndsAt
		if now.Before(d.StartsAt) {
			next = d.StartsAt
		}
		if l.Until.IsZero() || next.Before(l.Until) {
			l.Until = next
		}
	}
	return l
}

// validAt reports whether the view still stands at now.
func (l *LiveDeals) validAt(now time.Time) bool {
	return !now.Before(l.at) && (l.Until.IsZero() || now.Before(l.Until))
}

// Expires is the earlier of t and Until: when something built at this view
// and good until t must go.
func (l *LiveDeals) Expires(t time.Time) time.Time {
	if !l.Until.IsZero() && l.Until.Before(t) {
		return l.Until
	}
	return t
}

// PriceOf is PriceAt of the product at the view's instant.
func (l *LiveDeals) PriceOf(p *Product, variantID uint64) Price {
	return PriceAt(p, variantID, l.deals[p.ID], l.at)
}

var nullDeal = []byte(`"deal_price":null,"deal_ends_at":null}`)

// AppendDeal completes the product object dst[start:] (as Doc.AppendJSON
// wrote it from d, id first) with deal_price and deal_ends_at, when fs
// names them (nil: every light field): the product's flash deal running at
// the view's instant, null when none runs.
func (l *LiveDeals) AppendDeal(dst []byte, start int, d Doc, fs FieldSet) ([]byte, error) {
	return l.Fields(fs).Append(dst, start, d)
}

// DealFields writes the deal members one field set names (a page's docs
// share it: the set is looked at once).
type DealFields struct {
	l                   *LiveDeals
	wantPrice, wantEnds bool
}

// Fields is the writer of the deal members fs names.
func (l *LiveDeals) Fields(fs FieldSet) DealFields {
	return DealFields{l: l, wantPrice: fs.Has("deal_price"), wantEnds: fs.Has("deal_ends_at")}
}

// Append is LiveDeals.AppendDeal with the field set looked at already.
func (w DealFields) Append(dst []byte, start int, d Doc) ([]byte, error) {
	l, wantPrice, wantEnds := w.l, w.wantPrice, w.wantEnds
	if !wantPrice && !wantEnds {
		return l.variantsOnly(dst, start) // fields= without the product's members
	}
	var pr Price
	if len(l.deals) > 0 {
		id, err := objectID(dst[start:])
		if err != nil {
			return dst, err
		}
		if deals := l.deals[id]; deals != nil {
			if pr.Regular, err = docPrice(d); err != nil {
				return dst, err
			}
			pr = pr.under(0, deals, l.at)
			if dst, err = l.variantDeals(dst, start, deals); err != nil {
				return dst, err
			}
		}
	}
	dst = append(dst[:len(dst)-1], ',') // the object's '}'
	if !pr.OnDeal && wantPrice && wantEnds {
		return append(dst, nullDeal...), nil
	}
	if wantPrice {
		dst = append(dst, `"deal_price":`...)
		dst = appendDealMember(dst, pr.OnDeal, func(b []byte) []byte { return strconv.AppendQuote(b, pr.Deal.String()) })
		dst = append(dst, ',')
	}
	if wantEnds {
		dst = append(dst, `"deal_ends_at":`...)
		dst = appendDealMember(dst, pr.OnDeal, func(b []byte) []byte {
			return append(pr.DealEnds.AppendFormat(append(b, '"'), time.RFC3339Nano), '"')
		})
		dst = append(dst, ',')
	}
	dst[len(dst)-1] = '}'
	return dst, nil
}

// variantsOnly is variantDeals for an object written without the product's
// deal members.
func (l *LiveDeals) variantsOnly(dst []byte, start int) ([]byte, error) {
	if len(l.deals) == 0 {
		return dst, nil
	}
	id, err := objectID(dst[start:])
	if err != nil || l.deals[id] == nil {
		return dst, err
	}
	return l.variantDeals(dst, start, l.deals[id])
}

// variantDeals completes each variant of the product object dst[start:]
// with its deal_price and deal_ends_at when a deal of one variant runs at
// the view's instant (a product's variants then differ in price; without
// such a deal the variants are left as stored and the product's members say
// it all). Rare, so decoded rather than written in place.
func (l *LiveDeals) variantDeals(dst []byte, start int, deals []*FlashDeal) ([]byte, error) {
	running := false
	for _, d := range deals {
		running = running || d.VariantID != 0 && d.ActiveAt(l.at)
	}
	if !running {
		return dst, nil
	}
	from, to, err := memberSpan(dst[start:], "variants")
	if err != nil || from < 0 {
		return dst, err
	}
	var variants []json.RawMessage
	if err := json.Unmarshal(dst[start+from:start+to], &variants); err != nil {
		return dst, err
	}
	out := []byte{'['}
	for i, raw := range variants {
		var v struct {
			ID    uint64 `json:"id"`
			Price Money  `json:"price"`
		}
		if err := json.Unmarshal(raw, &v); err != nil || len(raw) < 2 {
			return dst, errBadDoc
		}
		pr := Price{Regular: v.Price}.under(v.ID, deals, l.at)
		if i > 0 {
			out = append(out, ',')
		}
		out = append(append(out, raw[:len(raw)-1]...), `,"deal_price":`...)
		out = appendDealMember(out, pr.OnDeal, func(b []byte) []byte { return strconv.AppendQuote(b, pr.Deal.String()) })
		out = append(out, `,"deal_ends_at":`...)
		out = appendDealMember(out, pr.OnDeal, func(b []byte) []byte {
			return append(pr.DealEnds.AppendFormat(append(b, '"'), time.RFC3339Nano), '"')
		})
		out = append(out, '}')
	}
	out = append(out, ']')
	rest := append(out, dst[start+to:]...)
	return append(dst[:start+from], rest...), nil
}

// memberSpan is where the value of the top-level member name of the JSON
// object obj lies (-1, -1 when it has none).
func memberSpan(obj []byte, name string) (from, to int, err error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if _, err := dec.Token(); err != nil { // {
		return -1, -1, err
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return -1, -1, err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return -1, -1, err
		}
		if key == name {
			end := int(dec.InputOffset())
			return end - len(raw), end, nil
		}
	}
	return -1, -1, nil
}

func appendDealMember(dst []byte, on bool, value func([]byte) []byte) []byte {
	if !on {
		return append(dst, "null"...)
	}
	return value(dst)
}

// objectID reads the id of a product object written id first ({"id":N,...).
func objectID(obj []byte) (uint64, error) {
	const prefix = `{"id":`
	if len(obj) < len(prefix) || string(obj[:len(prefix)]) != prefix {
		return 0, errBadDoc
	}
	var id uint64
	n := 0
	for _, c := range obj[len(prefix):] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + uint64(c-'0')
		n++
	}
	if n == 0 {
		return 0, errBadDoc
	}
	return id, nil
}

// docPrice reads a product doc's price (only for a product with a deal).
func docPrice(d Doc) (Money, error) {
	var v struct {
		Price Money `json:"price"`
	}
	obj := []byte(d)
	if !d.Plain() {
		var err error
		if obj, err = d.AppendJSON(nil, FieldSet{"price": {}}); err != nil {
			return 0, err
		}
	}
	err := json.Unmarshal(obj, &v)
	return v.Price, err
}
