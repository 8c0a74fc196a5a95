package app

import (
	"strconv"
	"time"
)

// Invoices and credit notes (docs/taxes.md): a paid order gets the next
// number of its store's invoice sequence in the transaction that marks it
// paid, and each refund of an invoiced order the next number of the credit
// note sequence. Both sequences are NextID's (per store, in the
// transaction: a rolled-back payment takes no number, two payments never
// take the same one), so they have no gaps and no duplicates on either
// backend, however many binaries share the database. Orders paid through
// the test sandbox are numbered from sequences of their own, "TEST-" first,
// so that test orders leave no hole in the real ones.

// invoiceTx is what numbering reads and takes: the store's settings (the
// prefixes) and the sequences.
type invoiceTx interface {
	BaseTx
	SharedStoreTx
}

// Sequence names of NextID.
const (
	seqInvoice    = "invoice"
	seqCreditNote = "credit_note"
)

// assignInvoice gives o its invoice number, once.
func assignInvoice(tx invoiceTx, o *Order, now time.Time) error {
	if o.InvoiceNumber != "" {
		return nil
	}
	num, err := docNumber(tx, o, seqInvoice, func(t TaxSettings) string { return t.InvoicePrefix })
	if err != nil {
		return err
	}
	o.InvoiceNumber, o.InvoicedAt = num, UTC(now)
	return nil
}

// docNumber is the next number of a store's sequence seq with its prefix.
func docNumber(tx invoiceTx, o *Order, seq string, prefix func(TaxSettings) string) (string, error) {
	st, err := tx.SharedStore(o.StoreID)
	if err != nil {
		return "", err
	}
	p := prefix(st.Settings().Taxes)
	if o.Test {
		seq, p = "test_"+seq, "TEST-"+p
	}
	n, err := tx.NextID(o.StoreID, seq)
	if err != nil {
		return "", err
	}
	return p + strconv.FormatUint(n, 10), nil
}

// creditRefunds gives an invoiced order a credit note for what it has
// refunded beyond its credit notes so far (the tax in it in proportion,
// RefundTax), and reports whether it added one: the caller writes the
// order. Orders without an invoice get none.
func creditRefunds(tx invoiceTx, o *Order, now time.Time) (bool, error) {
	var credited Money
	for _, c := range o.CreditNotes {
		credited += c.Amount
	}
	amount := o.RefundedAmount - credited
	if o.InvoiceNumber == "" || amount <= 0 {
		return false, nil
	}
	num, err := docNumber(tx, o, seqCreditNote, func(t TaxSettings) string { return t.CreditNotePrefix })
	if err != nil {
		return false, err
	}
	o.CreditNotes = append(o.CreditNotes, CreditNote{Number: num, Invoice: o.InvoiceNumber, Amount: amount,
		TaxLines: creditTax(o, amount), At: UTC(now)})
	return true, nil
}

// creditTax is the tax in a refund of amount (RefundTax); the refund that
// completes the order's takes what the earlier credit notes left, so that
// the credit notes of a fully refunded order sum to its tax exactly.
func creditTax(o *Order, amount Money) []TaxLine {
	lines := RefundTax(o.TaxLines, o.Total, amount)
	if o.RefundedAmount < o.Total {
		return lines
	}
	for i := range lines {
		lines[i].Amount = o.TaxLines[i].Amount
		for _, c := range o.CreditNotes {
			if i < len(c.TaxLines) {
				lines[i].Amount -= c.TaxLines[i].Amount
			}
		}
	}
	return lines
}

// putCredited writes o again when a refund just recorded needs its credit
// note (creditRefunds).
func putCredited(tx interface {
	invoiceTx
	OrderTx
}, o *Order, now time.Time) error {
	added, err := creditRefunds(tx, o, now)
	if err != nil || !added {
		return err
	}
	return tx.PutOrder(o)
}
