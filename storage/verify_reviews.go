package storage

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"

	"storefront/app"
)

// VerifyReviewsTicketsContact checks the indexes of reviews, tickets and
// contact messages against their records, and every review summary against
// the approved reviews it counts. Like Verify, it reads the whole database;
// tests run it after mutating.
func (db *DB) VerifyReviewsTicketsContact() error {
	return db.View(func(atx app.Tx) error {
		t := atx.(*Tx)
		want := map[string]map[string][]byte{}
		for _, b := range [][]byte{bReviewOwners, bIdxReviewsStatus, bIdxReviewsPublic, bReviewSummaries,
			bIdxTickets, bIdxTicketsCust, bIdxTicketsStatus, bIdxContactRead} {
			want[string(b)] = map[string][]byte{}
		}
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
				sk := string(key(r.StoreID, r.ProductID))
				if sums[sk] == nil {
					sums[sk] = &app.ReviewSummary{}
				}
				sums[sk].Add(r.Rating, 1)
			}
			return nil
		})
		if err != nil {
			return err
		}
		// A summary may exist with zero counts (every review un-approved).
		err = t.b(bReviewSummaries).ForEach(func(k, v []byte) error {
			if sums[string(k)] == nil {
				sums[string(k)] = &app.ReviewSummary{}
			}
			return nil
		})
		if err != nil {
			return err
		}
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
		err = t.b(bTickets).ForEach(func(_, v []byte) error {
			var tk app.Ticket
			if err := getJSONBytes(v, &tk, "ticket"); err != nil {
				return err
			}
			want[string(bIdxTickets)][string(key(tk.StoreID, tk.Number))] = []byte(tk.ID)
			want[string(bIdxTicketsCust)][string(key(tk.StoreID, tk.CustomerID, tk.Number))] = []byte(tk.ID)
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
		for name, keys := range want {
			seen := 0
			err := t.b([]byte(name)).ForEach(func(k, v []byte) error {
				wv, ok := keys[string(k)]
				if !ok {
					return fmt.Errorf("verify: %s has a stray key %x", name, k)
				}
				if name == string(bReviewSummaries) {
					var got app.ReviewSummary
					if err := json.Unmarshal(v, &got); err != nil {
						return err
					}
					v, _ = json.Marshal(got)
				}
				if !bytes.Equal(wv, v) && !(len(wv) == 0 && len(v) == 0) {
					return fmt.Errorf("verify: %s key %x has value %s, want %s", name, k, v, wv)
				}
				seen++
				return nil
			})
			if err != nil {
				return err
			}
			if seen != len(keys) {
				return fmt.Errorf("verify: %s has %d keys, want %d", name, seen, len(keys))
			}
		}
		return nil
	})
}
