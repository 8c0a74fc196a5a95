package storage

import (
	"encoding/binary"
	"encoding/json"
	"fmt"

	"storefront/app"
)

var _ = registerVerifier(verifyReviewsTicketsContact, bReviewOwners, bIdxReviewsStatus, bIdxReviewsPublic,
	bReviewSummaries, bIdxTickets, bIdxTicketsCust, bIdxTicketsStatus, bIdxContactRead)

func init() {
	// summaries are JSON; compare them re-encoded
	verifyNormalize[string(bReviewSummaries)] = func(v []byte) []byte {
		var s app.ReviewSummary
		if json.Unmarshal(v, &s) != nil {
			return v
		}
		out, _ := json.Marshal(s)
		return out
	}
}

// verifyReviewsTicketsContact puts the index keys of reviews, tickets and
// contact messages, and checks every review summary, and every product's
// rating counters, against the approved reviews they count.
func verifyReviewsTicketsContact(t *Tx, want expectKeys) error {
	sums, err := expectReviews(t, want)
	if err != nil {
		return err
	}
	if err := expectReviewSummaries(t, want, sums); err != nil {
		return err
	}
	return expectTicketsContact(t, want)
}

// expectReviews adds each review's owner, status and public index entries to
// want and returns the review summaries its approved reviews add up to, by
// sid|pid.
func expectReviews(t *Tx, want expectKeys) (map[string]*app.ReviewSummary, error) {
	sums := map[string]*app.ReviewSummary{}
	err := t.b(bReviews).ForEach(func(_, v []byte) error {
		var r app.Review
		if err := getJSONBytes(v, &r, "review"); err != nil {
			return err
		}
		want[string(bReviewOwners)][string(reviewOwnerKey(&r))] = u64(r.ID)
		want[string(bIdxReviewsStatus)][string(reviewStatusKey(&r))] = nil
		view, _ := json.Marshal(r.View())
		for _, k := range reviewPublicKeys(&r) {
			want[string(bIdxReviewsPublic)][string(k)] = view
		}
		if r.Status == app.ReviewApproved {
			sk := string(keyOf(r.StoreID).id(r.ProductID))
			if sums[sk] == nil {
				sums[sk] = &app.ReviewSummary{}
			}
			sums[sk].Add(r.Rating, 1)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// A summary may exist with zero counts (every review un-approved).
	err = t.b(bReviewSummaries).ForEach(func(k, v []byte) error {
		if sums[string(k)] == nil {
			sums[string(k)] = &app.ReviewSummary{}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return sums, nil
}

// expectReviewSummaries adds the summaries to want and checks each product's
// review count and rating sum against them.
func expectReviewSummaries(t *Tx, want expectKeys, sums map[string]*app.ReviewSummary) error {
	for k, s := range sums {
		raw, _ := json.Marshal(s)
		want[string(bReviewSummaries)][k] = raw
		sid, pid := binary.BigEndian.Uint64([]byte(k)), idFromKeyEnd([]byte(k))
		if pid == 0 {
			continue
		}
		p, err := t.Product(sid, pid)
		if app.IsNotFound(err) {
			continue
		}
		if err != nil {
			return err
		}
		var sum int64
		for i, c := range s.Counts {
			sum += c * int64(i+1)
		}
		if p.ReviewCount != s.Total() || p.RatingSum != sum {
			return fmt.Errorf("verify: product %d/%d has %d reviews summing %d, its approved reviews %d summing %d",
				sid, pid, p.ReviewCount, p.RatingSum, s.Total(), sum)
		}
	}
	return nil
}

// expectTicketsContact adds the ticket and contact message indexes to want.
func expectTicketsContact(t *Tx, want expectKeys) error {
	err := t.b(bTickets).ForEach(func(_, v []byte) error {
		var tk app.Ticket
		if err := getJSONBytes(v, &tk, "ticket"); err != nil {
			return err
		}
		want[string(bIdxTickets)][string(keyOf(tk.StoreID).id(tk.Number))] = []byte(tk.ID)
		want[string(bIdxTicketsCust)][string(keyOf(tk.StoreID).id(tk.CustomerID).id(tk.Number))] = []byte(tk.ID)
		want[string(bIdxTicketsStatus)][string(ticketStatusKey(&tk))] = []byte(tk.ID)
		return nil
	})
	if err != nil {
		return err
	}
	err = t.b(bContact).ForEach(func(_, v []byte) error {
		var m app.ContactMessage
		if err := getJSONBytes(v, &m, "contact message"); err != nil {
			return err
		}
		want[string(bIdxContactRead)][string(contactReadKey(&m))] = nil
		return nil
	})
	if err != nil {
		return err
	}
	return nil
}
