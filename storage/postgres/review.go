package postgres

import (
	"encoding/json"
	"fmt"

	"storefront/app"
)

// CreateReview assigns r.ID and stores r; a second review by the same
// customer of the same product (or of the store) is conflict.
func (t *Tx) CreateReview(r *app.Review) error {
	taken, err := t.exists(r.StoreID, "review", `SELECT 1 FROM reviews WHERE store_id = $1 AND product_id = $2 AND customer_id = $3`,
		i64(r.StoreID), i64(r.ProductID), i64(r.CustomerID))
	if err != nil {
		return err
	}
	if taken {
		return &app.Error{Code: app.EConflict, Message: "you have already reviewed this", Fields: map[string]string{"product_id": "already reviewed"}}
	}
	id, err := t.NextID(r.StoreID, "review")
	if err != nil {
		return err
	}
	r.ID = id
	return t.putReview(r)
}

// Review returns one review.
func (t *Tx) Review(storeID, id uint64) (*app.Review, error) {
	var r app.Review
	if err := t.get(storeID, &r, "review", `SELECT doc FROM reviews WHERE store_id = $1 AND id = $2`, i64(storeID), i64(id)); err != nil {
		return nil, err
	}
	return &r, nil
}

// PutReview updates r; its product and customer never change.
func (t *Tx) PutReview(r *app.Review) error {
	old, err := t.Review(r.StoreID, r.ID)
	if err != nil {
		return err
	}
	if old.ProductID != r.ProductID || old.CustomerID != r.CustomerID {
		return fmt.Errorf("postgres: put review %d: product and customer never change", r.ID)
	}
	return t.putReview(r)
}

// putReview writes r with its public view while it is approved.
func (t *Tx) putReview(r *app.Review) error {
	var view []byte
	if r.Status == app.ReviewApproved {
		var err error
		if view, err = json.Marshal(r.View()); err != nil {
			return fmt.Errorf("postgres: encode review view: %w", err)
		}
	}
	raw, err := encode(r)
	if err != nil {
		return err
	}
	return t.exec(r.StoreID, "put review", `INSERT INTO reviews (store_id, id, product_id, customer_id, status, rating, view, doc)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
		ON CONFLICT (store_id, id) DO UPDATE SET status = excluded.status, rating = excluded.rating, view = excluded.view, doc = excluded.doc`,
		i64(r.StoreID), i64(r.ID), i64(r.ProductID), i64(r.CustomerID), r.Status, int16(min(max(r.Rating, 1), 5)), view, raw)
}

// Reviews pages a store's reviews newest first, all or of one status.
func (t *Tx) Reviews(storeID uint64, status string, lp app.ListParams) (app.Page[*app.Review], error) {
	if status == "" {
		return docList[app.Review](t, storeID, "reviews", `FROM reviews WHERE store_id = $1`, []any{i64(storeID)}, byID(true), lp)
	}
	if !text(status) {
		return app.Page[*app.Review]{Items: []*app.Review{}}, nil
	}
	return docList[app.Review](t, storeID, "reviews", `FROM reviews WHERE store_id = $1 AND status = $2`,
		[]any{i64(storeID), status}, byID(true), lp)
}

// CustomerReviews returns a customer's reviews, newest first, at most limit.
func (t *Tx) CustomerReviews(storeID, customerID uint64, limit int) ([]*app.Review, error) {
	pg, err := docList[app.Review](t, storeID, "reviews", `FROM reviews WHERE store_id = $1 AND customer_id = $2`,
		[]any{i64(storeID), i64(customerID)}, byID(true), app.ListParams{Sort: app.SortNewest, Limit: limit})
	return pg.Items, err
}

// reviewKeys is the keyset of a public review sort: newest first, within a
// rating for the rating sorts (bbolt: sid|pid|code|value|id, walked down).
func reviewKeys(sort string) keyset {
	id := col{"id", kU64}
	switch sort {
	case app.SortRatingDesc:
		return keyset{cols: []col{{"rating", kByte}, id}, desc: true}
	case app.SortRatingAsc:
		return keyset{cols: []col{{"(6 - rating)", kByte}, id}, desc: true}
	default:
		return keyset{cols: []col{id}, desc: true}
	}
}

// ApprovedReviews pages the public views of a product's (0: the store's)
// approved reviews in lp.Sort; the views are returned as stored.
func (t *Tx) ApprovedReviews(storeID, productID uint64, lp app.ListParams) (app.Page[json.RawMessage], error) {
	ks := reviewKeys(lp.Sort)
	l := list{sel: "view, " + ks.keyCols(), from: `FROM reviews WHERE store_id = $1 AND product_id = $2 AND view IS NOT NULL`,
		args: []any{i64(storeID), i64(productID)}, keys: ks}
	return page(t, storeID, "reviews", l, lp, func(vals []any) (json.RawMessage, bool, error) {
		return json.RawMessage(vals[0].([]byte)), true, nil
	})
}

// ReviewSummary returns the summary of a product (0: the store).
func (t *Tx) ReviewSummary(storeID, productID uint64) (app.ReviewSummary, error) {
	var s app.ReviewSummary
	err := t.get(storeID, &s, "review summary", `SELECT doc FROM review_summaries WHERE store_id = $1 AND product_id = $2`, i64(storeID), i64(productID))
	if app.IsNotFound(err) {
		return app.ReviewSummary{}, nil
	}
	return s, err
}

// PutReviewSummary stores the summary of a product (0: the store).
func (t *Tx) PutReviewSummary(storeID, productID uint64, s app.ReviewSummary) error {
	raw, err := encode(s)
	if err != nil {
		return err
	}
	return t.exec(storeID, "put review summary", `INSERT INTO review_summaries (store_id, product_id, doc) VALUES ($1, $2, $3)
		ON CONFLICT (store_id, product_id) DO UPDATE SET doc = excluded.doc`, i64(storeID), i64(productID), raw)
}
