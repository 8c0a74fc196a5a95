package storage

import (
	"encoding/binary"

	"storefront/app"
)

// The tax part of an order's compact form (orderTaxed, schema 5), after the
// rest:
//
//	strings country, region; byte prices_include_tax; varint tax_total
//	tax lines: uvarint 0 (null) or 1+count, then per line strings name,
//	  rate, varint amount
//	string delivery_tax_rate
//	per item: string tax_rate, varint tax
//	string invoice_number, time invoiced_at
//	credit notes: uvarint 0 (null) or 1+count, then per note strings
//	  number, invoice, varint amount, tax lines, time at
//
// An order without tax or invoice (every order before schema 5) has no flag
// and no such part.
const orderTaxed = 1 << 4

// taxed reports whether o has anything of the tax part.
func taxed(o *app.Order) bool {
	if o.Country != "" || o.Region != "" || o.PricesIncludeTax || o.TaxTotal != 0 || o.TaxLines != nil || o.DeliveryTaxRate != "" ||
		o.InvoiceNumber != "" || !o.InvoicedAt.IsZero() || o.CreditNotes != nil {
		return true
	}
	for _, it := range o.Items {
		if it.TaxRate != "" || it.Tax != 0 {
			return true
		}
	}
	return false
}

// appendOrderTax appends the tax part of o.
func appendOrderTax(b []byte, o *app.Order) []byte {
	b = appendString(b, o.Country)
	b = appendString(b, o.Region)
	pit := byte(0)
	if o.PricesIncludeTax {
		pit = 1
	}
	b = append(b, pit)
	b = binary.AppendVarint(b, int64(o.TaxTotal))
	b = appendTaxLines(b, o.TaxLines)
	b = appendString(b, o.DeliveryTaxRate)
	for _, it := range o.Items {
		b = appendString(b, it.TaxRate)
		b = binary.AppendVarint(b, int64(it.Tax))
	}
	b = appendString(b, o.InvoiceNumber)
	b = appendTime(b, o.InvoicedAt)
	b = appendCount(b, o.CreditNotes == nil, len(o.CreditNotes))
	for _, n := range o.CreditNotes {
		b = appendString(b, n.Number)
		b = appendString(b, n.Invoice)
		b = binary.AppendVarint(b, int64(n.Amount))
		b = appendTaxLines(b, n.TaxLines)
		b = appendTime(b, n.At)
	}
	return b
}

func appendTaxLines(b []byte, lines []app.TaxLine) []byte {
	b = appendCount(b, lines == nil, len(lines))
	for _, l := range lines {
		b = appendString(b, l.Name)
		b = appendString(b, l.Rate)
		b = binary.AppendVarint(b, int64(l.Amount))
	}
	return b
}

// readOrderTax reads the tax part into o.
func readOrderTax(d *compactReader, o *app.Order) {
	o.Country, o.Region = d.str(), d.str()
	switch d.bytes(1) {
	case "\x01":
		o.PricesIncludeTax = true
	case "\x00":
	default:
		d.fail()
	}
	o.TaxTotal = app.Money(d.varint())
	o.TaxLines = readTaxLines(d)
	o.DeliveryTaxRate = d.str()
	for i := range o.Items {
		o.Items[i].TaxRate, o.Items[i].Tax = d.str(), app.Money(d.varint())
	}
	o.InvoiceNumber, o.InvoicedAt = d.str(), d.time()
	if n, ok := d.count(5); ok {
		o.CreditNotes = make([]app.CreditNote, n)
		for i := range o.CreditNotes {
			c := &o.CreditNotes[i]
			c.Number, c.Invoice, c.Amount = d.str(), d.str(), app.Money(d.varint())
			c.TaxLines, c.At = readTaxLines(d), d.time()
		}
	}
}

func readTaxLines(d *compactReader) []app.TaxLine {
	n, ok := d.count(3)
	if !ok {
		return nil
	}
	lines := make([]app.TaxLine, n)
	for i := range lines {
		lines[i].Name, lines[i].Rate, lines[i].Amount = d.str(), d.str(), app.Money(d.varint())
	}
	return lines
}

// orderTaxSize is about the size of o's tax part.
func orderTaxSize(o *app.Order) int {
	n := 32 + len(o.Country) + len(o.InvoiceNumber) + len(o.TaxLines)*24 + len(o.Items)*8
	for _, c := range o.CreditNotes {
		n += 32 + len(c.Number) + len(c.Invoice) + len(c.TaxLines)*24
	}
	return n
}
