package app

import (
	"encoding/json"
	"math/bits"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Taxes as pure functions (docs/taxes.md): ComputeTax reads the store's tax
// settings (config key "taxes"), the destination and the priced lines, and
// returns the tax of each line, of the delivery and per rate. Amounts are
// integer minor units; each line's tax is rounded half up on its own, after
// its share of the discount; inclusive prices have the tax extracted from
// them, exclusive ones have it added on top (by the caller: Priced.Total).

// TaxRate is one rate of the store's settings: rate is a decimal percentage
// ("20", "7.25"); an empty country, region or class matches anything.
type TaxRate struct {
	Name    string `json:"name"`
	Rate    string `json:"rate"`
	Country string `json:"country"`
	Region  string `json:"region"`
	Class   string `json:"class"`
}

// TaxSettings is the config key "taxes". InvoicePrefix and CreditNotePrefix
// lead the numbers of invoices and credit notes ("INV-" gives "INV-1");
// TaxID is the seller's VAT or sales-tax number printed on them.
type TaxSettings struct {
	PricesIncludeTax bool      `json:"prices_include_tax"`
	Rates            []TaxRate `json:"rates"`
	TaxDelivery      bool      `json:"tax_delivery"`
	InvoicePrefix    string    `json:"invoice_prefix"`
	CreditNotePrefix string    `json:"credit_note_prefix"`
	TaxID            string    `json:"tax_id"`
}

// TaxLine is the tax of one rate in an order: its name, its rate and the
// amount (summed over the lines it applies to).
type TaxLine struct {
	Name   string `json:"name"`
	Rate   string `json:"rate"`
	Amount Money  `json:"amount"`
}

// TaxableLine is one priced line: its total before the discount and the tax
// class of its product or variant ("" is the standard class).
type TaxableLine struct {
	Amount Money
	Class  string
}

// TaxInput is what ComputeTax looks at.
type TaxInput struct {
	Settings        TaxSettings
	Country, Region string // the destination (upper case)
	Lines           []TaxableLine
	Discount        Money // the order's, shared between lines in proportion to their amounts
	DeliveryFee     Money
}

// LineTax is the tax of one line: the rate applied ("" when none matched)
// and the amount.
type LineTax struct {
	Rate string
	Tax  Money
}

// TaxResult is the tax of an order.
type TaxResult struct {
	Lines    []LineTax // one per input line
	Delivery LineTax
	TaxLines []TaxLine // per rate matched, in the order of the settings
	Total    Money
}

// rateScale is the unit of a parsed rate: 1/10000 of a percent.
const rateScale = 1_000_000 // 100%

// ComputeTax is the tax of an order. No rates: no tax (zero, no tax lines).
func ComputeTax(in TaxInput) TaxResult {
	res := TaxResult{Lines: make([]LineTax, len(in.Lines)), TaxLines: []TaxLine{}}
	if len(in.Settings.Rates) == 0 {
		return res
	}
	amounts := make([]Money, len(in.Lines))
	var sum Money
	for i, l := range in.Lines {
		amounts[i], sum = l.Amount, sum+l.Amount
	}
	shareDiscount(amounts, sum, min(in.Discount, sum))
	n := len(in.Settings.Rates)
	perRate, matched, parsed, shown := make([]Money, n), make([]bool, n), make([]int64, n), make([]string, n)
	for i, r := range in.Settings.Rates {
		parsed[i], _ = ParseTaxRate(r.Rate)
		shown[i] = FormatTaxRate(parsed[i])
	}
	tax := func(base Money, class string) LineTax {
		i := MatchTaxRate(in.Settings.Rates, in.Country, in.Region, class)
		if i < 0 || base <= 0 {
			return LineTax{}
		}
		t := taxOf(base, parsed[i], in.Settings.PricesIncludeTax)
		perRate[i] += t
		matched[i] = true
		return LineTax{Rate: shown[i], Tax: t}
	}
	for i, l := range in.Lines {
		res.Lines[i] = tax(amounts[i], l.Class)
		res.Total += res.Lines[i].Tax
	}
	if in.Settings.TaxDelivery {
		res.Delivery = tax(in.DeliveryFee, "")
		res.Total += res.Delivery.Tax
	}
	for i, r := range in.Settings.Rates {
		if matched[i] {
			res.TaxLines = append(res.TaxLines, TaxLine{Name: r.Name, Rate: shown[i], Amount: perRate[i]})
		}
	}
	return res
}

// taxOf is the tax of base at rate r (rateScale units), rounded half up:
// added on top, or extracted from base when it includes the tax.
func taxOf(base Money, r int64, inclusive bool) Money {
	if inclusive {
		return mulDivRound(base, r, rateScale+r)
	}
	return mulDivRound(base, r, rateScale)
}

// shareDiscount takes discount off amounts (summing to sum) in proportion to
// each, half up, the last line taking what rounding left so the shares sum
// to discount exactly.
func shareDiscount(amounts []Money, sum, discount Money) {
	if discount <= 0 || sum <= 0 {
		return
	}
	left := discount
	for i := range amounts {
		share := left
		if i < len(amounts)-1 {
			share = min(mulDivRound(discount, int64(amounts[i]), int64(sum)), left)
		}
		amounts[i] -= share
		left -= share
	}
}

// mulDivRound is a*b/c rounded half up, for a, b >= 0, c > 0 and a result
// that fits (b <= c, or small operands): the product is taken in 128 bits.
func mulDivRound(a Money, b, c int64) Money {
	if a <= 0 || b <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	q, r := bits.Div64(hi, lo, uint64(c))
	if 2*r >= uint64(c) {
		q++
	}
	return Money(q)
}

// MatchTaxRate is the index of the rate that applies to a line of class
// sent to country and region, or -1: among the rates whose country, region
// and class are empty or equal, the most specific (class weighs most, then
// region, then country); the first listed wins a tie.
func MatchTaxRate(rates []TaxRate, country, region, class string) int {
	best, bestScore := -1, -1
	for i, r := range rates {
		score := matchScore(r.Country, country, 1) + matchScore(r.Region, region, 2) + matchScore(r.Class, class, 4)
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

// matchScore is weight when a rate's field (want) names got, 0 when it is
// empty (any), and far below zero when it names another.
func matchScore(want, got string, weight int) int {
	switch want {
	case "":
		return 0
	case got:
		return weight
	}
	return -1 << 10
}

// RefundTax is the tax contained in a refund of amount from an order whose
// total is total and whose tax is lines: each rate's share in proportion,
// half up. A full refund gives back the lines as they are.
func RefundTax(lines []TaxLine, total, amount Money) []TaxLine {
	out := make([]TaxLine, 0, len(lines))
	for _, l := range lines {
		a := l.Amount
		if amount < total && total > 0 {
			a = mulDivRound(l.Amount, int64(amount), int64(total))
		}
		out = append(out, TaxLine{Name: l.Name, Rate: l.Rate, Amount: a})
	}
	return out
}

// ParseTaxRate parses a percentage ("20", "7.25": 1 to 3 digits, at most
// 4 decimals, at most 100) into 1/10000 of a percent.
func ParseTaxRate(s string) (int64, bool) {
	whole, frac, dot := strings.Cut(s, ".")
	if len(whole) < 1 || len(whole) > 3 || (dot && (len(frac) < 1 || len(frac) > 4)) {
		return 0, false
	}
	var r int64
	for _, c := range whole + (frac + "0000")[:4] {
		if c < '0' || c > '9' {
			return 0, false
		}
		r = r*10 + int64(c-'0')
	}
	return r, r <= rateScale
}

// FormatTaxRate is r as a percentage without trailing zeros ("7.25", "20").
func FormatTaxRate(r int64) string {
	s := strconv.FormatInt(r/10000, 10)
	if f := r % 10000; f != 0 {
		s += "." + strings.TrimRight(strconv.FormatInt(10000+f, 10)[1:], "0")
	}
	return s
}

// applyTax applies the store's tax settings (q.Tax) to an order priced by
// PriceOrder: each item gets its rate and tax, the order its tax lines and
// tax total and, when prices exclude tax, a total with the tax added.
// Errors: the total over MaxMoney.
func (pr *Priced) applyTax(q Quote) error {
	in := TaxInput{Settings: q.Tax, Country: q.Country, Region: q.Region, Discount: pr.Discount, DeliveryFee: pr.DeliveryFee,
		Lines: make([]TaxableLine, len(pr.Items))}
	for i, it := range pr.Items {
		in.Lines[i] = TaxableLine{Amount: it.LineTotal}
		if i < len(q.Lines) && q.Lines[i].Product != nil {
			in.Lines[i].Class = TaxClassOf(q.Lines[i].Product, q.Lines[i].VariantID)
		}
	}
	res := ComputeTax(in)
	for i := range pr.Items {
		pr.Items[i].TaxRate, pr.Items[i].Tax = res.Lines[i].Rate, res.Lines[i].Tax
	}
	pr.DeliveryTaxRate, pr.TaxLines, pr.TaxTotal = res.Delivery.Rate, res.TaxLines, res.Total
	pr.PricesIncludeTax = q.Tax.PricesIncludeTax && len(q.Tax.Rates) > 0
	if !q.Tax.PricesIncludeTax {
		pr.Total += res.Total
	}
	if pr.Total > MaxMoney {
		return overMax()
	}
	return nil
}

// TaxClassOf is the tax class of a product's line: the variant's when it has
// one, else the product's.
func TaxClassOf(p *Product, variantID uint64) string {
	if v := p.Variant(variantID); v != nil && v.TaxClass != "" {
		return v.TaxClass
	}
	return p.TaxClass
}

// StoreHome is the store's place (store.country, store.region in the
// config): where its prices are taxed when a checkout names no country.
type StoreHome struct {
	Country string `json:"country"`
	Region  string `json:"region"`
}

// taxQuote sets the tax settings and the destination of q: country and
// region as sent (upper case), or the store's when no country is sent.
func (st Settings) taxQuote(q *Quote, country, region string) {
	q.Tax = st.Taxes
	q.Country, q.Region = st.Home.Country, st.Home.Region
	if country != "" {
		q.Country, q.Region = country, region
	}
}

// orderTax is the tax part of an order priced from q.
func (pr Priced) orderTax(q Quote) OrderTax {
	return OrderTax{Country: q.Country, Region: q.Region, PricesIncludeTax: pr.PricesIncludeTax, TaxTotal: pr.TaxTotal,
		TaxLines: pr.TaxLines, DeliveryTaxRate: pr.DeliveryTaxRate}
}

// CountryRE is an ISO 3166-1 alpha-2 country code; RegionRE a region
// (a state or province: the part of ISO 3166-2 after the country's "-").
var (
	CountryRE = regexp.MustCompile(`^[A-Z]{2}$`)
	RegionRE  = regexp.MustCompile(`^[A-Z0-9]{1,3}$`)
)

// checkDestination checks an optional country and region sent with a
// checkout, a quote or an address.
func checkDestination(v *Validation, country, region string) {
	v.Check(country == "" || CountryRE.MatchString(country), "country", "must be an ISO 3166-1 alpha-2 code in upper case, like GB or US")
	v.Check(region == "" || RegionRE.MatchString(region), "region", "must be a region code in upper case, like CA (the part of ISO 3166-2 after the country)")
	v.Check(region == "" || country != "", "region", "needs a country")
}

// QuoteTax is the tax of a quote on the wire: the destination, whether the
// prices include tax (false without rates), the tax per rate and in all.
type QuoteTax struct {
	Country          string    `json:"country"`
	PricesIncludeTax bool      `json:"prices_include_tax"`
	TaxTotal         Money     `json:"tax_total"`
	TaxLines         []TaxLine `json:"tax_lines"`
}

// quoteTax is the tax part of a quote priced from q.
func (pr Priced) quoteTax(q Quote) QuoteTax {
	return QuoteTax{Country: q.Country, PricesIncludeTax: pr.PricesIncludeTax, TaxTotal: pr.TaxTotal, TaxLines: pr.TaxLines}
}

// checkQuoteDestination checks the country and region of a quote.
func checkQuoteDestination(in QuoteInput) error {
	var v Validation
	checkDestination(&v, in.Country, in.Region)
	return v.Err()
}

// Limits of the tax settings.
const (
	MaxTaxRates    = 50
	MaxTaxClass    = 30
	MaxTaxPrefix   = 20
	MaxTaxIDLength = 50
)

var taxClassRE = regexp.MustCompile(`^[a-z0-9_-]{1,30}$`)

// checkTaxes checks the config key "taxes" (TaxSettings).
func checkTaxes(v *Validation, val any) {
	m, ok := val.(map[string]any)
	if !ok {
		v.Add("taxes", "must be an object: prices_include_tax, rates, tax_delivery, invoice_prefix, credit_note_prefix, tax_id")
		return
	}
	for _, k := range []string{"prices_include_tax", "tax_delivery"} {
		if x, ok := m[k]; ok && x != nil {
			_, isBool := x.(bool)
			v.Check(isBool, "taxes."+k, "must be true or false")
		}
	}
	for _, k := range []string{"invoice_prefix", "credit_note_prefix"} {
		s := str(m[k])
		v.Check(len(s) <= MaxTaxPrefix && !strings.ContainsAny(s, " \t\n"), "taxes."+k, "must be at most 20 characters without spaces")
	}
	v.Check(utf8.RuneCountInString(str(m["tax_id"])) <= MaxTaxIDLength, "taxes.tax_id", "must be at most 50 characters")
	if x, ok := m["rates"]; ok && x != nil {
		_, isList := x.([]any)
		v.Check(isList, "taxes.rates", "must be a list of {name, rate, country, region, class}")
	}
	seen := map[string]bool{}
	n := checkEntries(v, "taxes.rates", m["rates"], func(i string, e map[string]any) {
		checkTaxRate(v, i, e)
		key := str(e["country"]) + "|" + str(e["region"]) + "|" + str(e["class"])
		v.Check(!seen[key], i, "another rate has the same country, region and class: which applies would be unclear")
		seen[key] = true
	})
	v.Check(n <= MaxTaxRates, "taxes.rates", "at most 50 rates")
}

// checkTaxRate checks one rate of the settings, named i.
func checkTaxRate(v *Validation, i string, e map[string]any) {
	name, country, region, class := str(e["name"]), str(e["country"]), str(e["region"]), str(e["class"])
	v.Check(name != "" && utf8.RuneCountInString(name) <= MaxConfigLabel, i+".name", "needs a name of at most 100 characters (VAT, Sales tax)")
	_, ok := ParseTaxRate(str(e["rate"]))
	v.Check(ok, i+".rate", `must be a percentage from 0 to 100 as a string, at most 4 decimals ("20", "7.25")`)
	v.Check(country == "" || CountryRE.MatchString(country), i+".country", "must be an ISO 3166-1 alpha-2 code in upper case, like GB, or empty for any")
	v.Check(region == "" || RegionRE.MatchString(region), i+".region", "must be a region code in upper case, like CA, or empty for any")
	v.Check(region == "" || country != "", i+".region", "needs a country")
	v.Check(class == "" || taxClassRE.MatchString(class), i+".class", "must be a word of lower-case letters, digits, - or _ (at most 30), or empty for any")
}

// checkTaxClass checks the tax class of a product or variant.
func checkTaxClass(v *Validation, field, class string) {
	v.Check(class == "" || taxClassRE.MatchString(class), field, "must be a word of lower-case letters, digits, - or _ (at most 30), like reduced; empty for the standard class")
}

// defaultCountry gives a new address without a country the store's.
func defaultCountry(tx SharedStoreTx, a *Address) error {
	if a.Country != "" {
		return nil
	}
	st, err := tx.SharedStore(a.StoreID)
	if err != nil {
		return err
	}
	a.Country = st.Settings().Home.Country
	return nil
}

// normalTaxes is the stored form of a checked taxes object: every member
// present (rates [] when none), each rate with its five.
func normalTaxes(val any) TaxSettings {
	var t TaxSettings
	b, _ := json.Marshal(val)
	_ = json.Unmarshal(b, &t)
	if t.Rates == nil {
		t.Rates = []TaxRate{}
	}
	return t
}
