package storage

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"

	"storefront/app"
)

// Sort codes of the public review index. Every one is walked descending:
// newest is sid|pid|1|id; rating_desc is sid|pid|2|rating|id (5 first, newest
// first within a rating); rating_asc is sid|pid|3|(6-rating)|id (1 first,
// newest first within a rating).
const (
	revNewest     byte = 1
	revRatingDesc byte = 2
	revRatingAsc  byte = 3
)

func reviewSortCode(sort string) byte {
	switch sort {
	case app.SortRatingDesc:
		return revRatingDesc
	case app.SortRatingAsc:
		return revRatingAsc
	default:
		return revNewest
	}
}

func reviewOwnerKey(r *app.Review) []byte  { return keyOf(r.StoreID).id(r.ProductID).id(r.CustomerID) }
func reviewStatusKey(r *app.Review) []byte { return keyOf(r.StoreID).str0(r.Status).id(r.ID) }

// reviewPublicKeys are the public index keys of r: none unless APPROVED.
func reviewPublicKeys(r *app.Review) [][]byte {
	if r.Status != app.ReviewApproved {
		return nil
	}
	rating := byte(min(max(r.Rating, 1), 5))
	return [][]byte{
		keyOf(r.StoreID).id(r.ProductID).code(revNewest).id(r.ID),
		keyOf(r.StoreID).id(r.ProductID).code(revRatingDesc).code(rating).id(r.ID),
		keyOf(r.StoreID).id(r.ProductID).code(revRatingAsc).code(6 - rating).id(r.ID),
	}
}

// CreateReview assigns r.ID and stores r with its indexes; a second review by
// the same customer of the same product (or of the store) is conflict.
func (t *Tx) CreateReview(r *app.Review) error {
	owners := t.b(bReviewOwners)
	ok := reviewOwnerKey(r)
	if owners.Get(ok) != nil {
		return &app.Error{Code: app.EConflict, Message: "you have already reviewed this", Fields: map[string]string{"product_id": "already reviewed"}}
	}
	id, err := t.NextID(r.StoreID, "review")
	if err != nil {
		return err
	}
	r.ID = id
	if err := owners.Put(ok, u64(id)); err != nil {
		return fmt.Errorf("storage: put review owner: %w", err)
	}
	return t.putReview(nil, r)
}

// Review returns one review.
func (t *Tx) Review(storeID, id uint64) (*app.Review, error) {
	var r app.Review
	if err := getJSON(t.b(bReviews), keyOf(storeID).id(id), &r, "review"); err != nil {
		return nil, err
	}
	return &r, nil
}

// PutReview updates r and its status and public indexes.
func (t *Tx) PutReview(r *app.Review) error {
	old, err := t.Review(r.StoreID, r.ID)
	if err != nil {
		return err
	}
	if old.ProductID != r.ProductID || old.CustomerID != r.CustomerID {
		return fmt.Errorf("storage: put review %d: product and customer never change", r.ID)
	}
	return t.putReview(old, r)
}

func (t *Tx) putReview(old, r *app.Review) error {
	status, public := t.b(bIdxReviewsStatus), t.b(bIdxReviewsPublic)
	if old != nil {
		if err := status.Delete(reviewStatusKey(old)); err != nil {
			return err
		}
		for _, k := range reviewPublicKeys(old) {
			if err := public.Delete(k); err != nil {
				return err
			}
		}
	}
	if err := status.Put(reviewStatusKey(r), nil); err != nil {
		return fmt.Errorf("storage: put review index: %w", err)
	}
	if keys := reviewPublicKeys(r); len(keys) > 0 {
		view, err := json.Marshal(r.View())
		if err != nil {
			return fmt.Errorf("storage: encode review view: %w", err)
		}
		for _, k := range keys {
			if err := public.Put(k, view); err != nil {
				return fmt.Errorf("storage: put review index: %w", err)
			}
		}
	}
	return putJSON(t.b(bReviews), keyOf(r.StoreID).id(r.ID), r)
}

// Reviews pages a store's reviews newest first, all or of one status.
func (t *Tx) Reviews(storeID uint64, status string, lp app.ListParams) (app.Page[*app.Review], error) {
	if status == "" {
		return page(t.b(bReviews), tenant(storeID), lp, true, decodeJSONRecord[app.Review]("review"))
	}
	return page(t.b(bIdxReviewsStatus), keyOf(storeID).str0(status), lp, true, recordByIndex[app.Review](t.b(bReviews), storeID, "review"))
}

// CustomerReviews returns a customer's reviews, newest first, at most
// limit: a walk of the store's keys in the owners index (sid|pid|cid, keys
// only), then the reviews it names.
func (t *Tx) CustomerReviews(storeID, customerID uint64, limit int) ([]*app.Review, error) {
	var ids []uint64
	prefix := tenant(storeID)
	cur := t.b(bReviewOwners).Cursor()
	for k, v := cur.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = cur.Next() {
		if idFromKeyEnd(k) == customerID && len(v) == 8 {
			ids = append(ids, idFromKeyEnd(v))
		}
	}
	slices.SortFunc(ids, func(a, b uint64) int { return cmp.Compare(b, a) })
	out := make([]*app.Review, 0, min(len(ids), limit))
	for _, id := range ids[:min(len(ids), limit)] {
		r, err := t.Review(storeID, id)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// ApprovedReviews pages the public views of a product's (0: the store's)
// approved reviews from the index of lp.Sort: a seek and limit+1 reads at
// any depth, and the views are copied, never decoded.
func (t *Tx) ApprovedReviews(storeID, productID uint64, lp app.ListParams) (app.Page[json.RawMessage], error) {
	prefix := keyOf(storeID).id(productID).code(reviewSortCode(lp.Sort))
	return page(t.b(bIdxReviewsPublic), prefix, lp, true, func(_, v []byte) (json.RawMessage, bool, error) {
		return bytes.Clone(v), true, nil
	})
}

// ReviewSummary returns the summary of a product (0: the store).
func (t *Tx) ReviewSummary(storeID, productID uint64) (app.ReviewSummary, error) {
	var s app.ReviewSummary
	raw := t.b(bReviewSummaries).Get(keyOf(storeID).id(productID))
	if raw == nil {
		return s, nil
	}
	return s, getJSONBytes(raw, &s, "review summary")
}

// PutReviewSummary stores the summary of a product (0: the store).
func (t *Tx) PutReviewSummary(storeID, productID uint64, s app.ReviewSummary) error {
	return putJSON(t.b(bReviewSummaries), keyOf(storeID).id(productID), s)
}
