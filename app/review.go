package app

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Review statuses (decisions.md §4). Only APPROVED reviews are public.
const (
	ReviewPending  = "PENDING"
	ReviewApproved = "APPROVED"
	ReviewRejected = "REJECTED"
)

// ReviewStatuses lists every review status.
var ReviewStatuses = []string{ReviewPending, ReviewApproved, ReviewRejected}

// Review limits.
const (
	MaxReviewTitle   = 200
	MaxReviewContent = 5000
	MaxReviewImages  = 10
)

// Review is a shopper's rating of a product, or of the store itself when
// ProductID is 0.
type Review struct {
	ID                 uint64    `json:"id"`
	StoreID            uint64    `json:"store_id"`
	ProductID          uint64    `json:"product_id"` // 0: a store review
	CustomerID         uint64    `json:"customer_id"`
	CustomerName       string    `json:"customer_name"`
	Rating             int       `json:"rating"`
	Title              string    `json:"title"`
	Content            string    `json:"content"`
	Images             []string  `json:"images"`
	IsVerifiedPurchase bool      `json:"is_verified_purchase"`
	Status             string    `json:"status"`
	CreatedAt          time.Time `json:"created_at"`
	UpdatedAt          time.Time `json:"updated_at"`
}

// ReviewView is a review as the storefront shows it (decisions.md §4).
type ReviewView struct {
	ID                 uint64    `json:"id"`
	ProductID          *uint64   `json:"product_id"`
	Rating             int       `json:"rating"`
	Title              string    `json:"title"`
	Content            string    `json:"content"`
	Images             []string  `json:"images"`
	CustomerName       string    `json:"customer_name"`
	IsVerifiedPurchase bool      `json:"is_verified_purchase"`
	CreatedAt          time.Time `json:"created_at"`
}

// View returns the public wire form of r.
func (r *Review) View() ReviewView {
	v := ReviewView{ID: r.ID, Rating: r.Rating, Title: r.Title, Content: r.Content, Images: r.Images,
		CustomerName: r.CustomerName, IsVerifiedPurchase: r.IsVerifiedPurchase, CreatedAt: UTC(r.CreatedAt)}
	if v.Images == nil {
		v.Images = []string{}
	}
	if r.ProductID != 0 {
		pid := r.ProductID
		v.ProductID = &pid
	}
	return v
}

// ReviewerName is how a customer signs reviews: first name and last initial.
func ReviewerName(c *Customer) string {
	first := strings.TrimSpace(c.FirstName)
	last := strings.TrimSpace(c.LastName)
	if last == "" {
		return first
	}
	r, _ := utf8.DecodeRuneInString(last)
	initial := strings.ToUpper(string(r)) + "."
	if first == "" {
		return initial
	}
	return first + " " + initial
}

// ReviewSummary counts a product's (or the store's) approved reviews per
// rating. It is kept incrementally by moderation, so reading it is one lookup.
type ReviewSummary struct {
	Counts [5]int64 `json:"counts"` // Counts[i]: reviews rated i+1
}

// Add counts one approved review of rating (delta +1) or takes one back (-1).
func (s *ReviewSummary) Add(rating int, delta int64) {
	if rating >= 1 && rating <= 5 {
		s.Counts[rating-1] = max(0, s.Counts[rating-1]+delta)
	}
}

// Total is the number of approved reviews.
func (s ReviewSummary) Total() int64 {
	var n int64
	for _, c := range s.Counts {
		n += c
	}
	return n
}

// SummaryView is the summary sibling of a review list.
type SummaryView struct {
	AverageRating   float64          `json:"average_rating"`
	TotalReviews    int64            `json:"total_reviews"`
	RatingBreakdown map[string]int64 `json:"rating_breakdown"`
}

// View returns the wire form: the average to two decimals and every key "1".."5".
func (s ReviewSummary) View() SummaryView {
	v := SummaryView{RatingBreakdown: make(map[string]int64, 5)}
	var sum int64
	for i, c := range s.Counts {
		v.RatingBreakdown[strconv.Itoa(i+1)] = c
		v.TotalReviews += c
		sum += c * int64(i+1)
	}
	if v.TotalReviews > 0 {
		v.AverageRating = math.Round(float64(sum)*100/float64(v.TotalReviews)) / 100
	}
	return v
}

// ReviewInput is the body of POST reviews/. ProductID nil is a store review.
// Rating is a float so that 4.5 is refused with a clear message.
type ReviewInput struct {
	ProductID *uint64  `json:"product_id"`
	Rating    *float64 `json:"rating"`
	Title     string   `json:"title"`
	Content   string   `json:"content"`
	Images    []string `json:"images"`
}

// validate checks the input and returns the integer rating.
func (in *ReviewInput) validate() (int, error) {
	var v Validation
	rating := 0
	switch {
	case in.Rating == nil:
		v.Add("rating", "is required")
	case *in.Rating != math.Trunc(*in.Rating) || *in.Rating < 1 || *in.Rating > 5:
		v.Add("rating", "must be an integer from 1 to 5")
	default:
		rating = int(*in.Rating)
	}
	v.Check(in.ProductID == nil || *in.ProductID > 0, "product_id", "must be a positive integer (omit it to review the store)")
	in.Title = strings.TrimSpace(in.Title)
	in.Content = strings.TrimSpace(in.Content)
	v.Text("title", in.Title, false, MaxReviewTitle)
	v.Text("content", in.Content, false, MaxReviewContent)
	v.URLs("images", in.Images, MaxReviewImages)
	return rating, v.Err()
}

// ReviewTx is the storage of reviews and their summaries. Public indexes
// (newest, rating_desc, rating_asc per product) hold APPROVED reviews only
// and are kept by CreateReview and PutReview in the same transaction.
type ReviewTx interface {
	// CreateReview assigns r.ID and stores r. A second review of the same
	// product (or of the store) by the same customer is conflict.
	CreateReview(r *Review) error
	// Review returns one review (not_found).
	Review(storeID, id uint64) (*Review, error)
	// PutReview updates r and its indexes (not_found).
	PutReview(r *Review) error
	// Reviews pages a store's reviews for moderation, newest first; status "" is all.
	Reviews(storeID uint64, status string, p ListParams) (Page[*Review], error)
	// CustomerReviews returns a customer's reviews (any status), newest
	// first, at most limit.
	CustomerReviews(storeID, customerID uint64, limit int) ([]*Review, error)
	// ApprovedReviews pages the public views (ReviewView JSON, encoded when the
	// review was approved) of a product's (0: the store's) approved reviews in p.Sort.
	ApprovedReviews(storeID, productID uint64, p ListParams) (Page[json.RawMessage], error)
	// ReviewSummary returns the summary of a product (0: the store); zero counts when none.
	ReviewSummary(storeID, productID uint64) (ReviewSummary, error)
	// PutReviewSummary stores the summary of a product (0: the store).
	PutReviewSummary(storeID, productID uint64, s ReviewSummary) error
}

// ReviewService submits, moderates and lists reviews.
type ReviewService struct {
	db Scope[reviewData]
	s  mailDeps
}

func newReviewService(d mailDeps) *ReviewService {
	return &ReviewService{db: scopeOf(d.DB, func(tx Tx) reviewData { return tx }), s: d}
}

// Submit stores a shopper's review as PENDING and returns it.
// Errors: validation_failed, email_not_verified, not_found (unknown or
// inactive product), conflict (already reviewed).
func (rs *ReviewService) Submit(sh Shopper, in ReviewInput) (*Review, error) {
	rating, err := in.validate()
	if err != nil {
		return nil, err
	}
	var r *Review
	err = rs.db.Update(func(tx reviewData) error {
		if err := RequireVerified(tx, sh.StoreID, sh.CustomerID); err != nil {
			return err
		}
		cust, err := tx.Customer(sh.StoreID, sh.CustomerID)
		if err != nil {
			return err
		}
		var pid uint64
		if in.ProductID != nil {
			p, err := tx.Product(sh.StoreID, *in.ProductID)
			if err != nil {
				return err
			}
			if !p.IsActive {
				return NotFound("product")
			}
			pid = p.ID
		}
		verified, err := hasReceived(tx, sh.StoreID, sh.CustomerID, pid)
		if err != nil {
			return err
		}
		now := UTC(tx.Now())
		r = &Review{StoreID: sh.StoreID, ProductID: pid, CustomerID: sh.CustomerID, CustomerName: ReviewerName(cust),
			Rating: rating, Title: in.Title, Content: in.Content, Images: in.Images, IsVerifiedPurchase: verified,
			Status: ReviewPending, CreatedAt: now, UpdatedAt: now}
		if r.Images == nil {
			r.Images = []string{}
		}
		if err := tx.CreateReview(r); err != nil {
			return err
		}
		return rs.s.Happened(tx, Change{Type: EvReviewCreated, StoreID: sh.StoreID, Review: r})
	})
	if err != nil {
		return nil, err
	}
	rs.s.Kick()
	return r, nil
}

// hasReceived reports whether the customer has a DELIVERED or COMPLETED order
// containing the product; for a store review (productID 0), any such order.
func hasReceived(tx OrderTx, storeID, customerID, productID uint64) (bool, error) {
	lp := ListParams{Sort: SortNewest, Limit: MaxLimit}
	for {
		page, err := tx.CustomerOrders(storeID, customerID, lp)
		if err != nil {
			return false, err
		}
		for _, o := range page.Items {
			if o.Status != OrderDelivered && o.Status != OrderCompleted {
				continue
			}
			if productID == 0 {
				return true, nil
			}
			for _, it := range o.Items {
				if it.ProductID == productID {
					return true, nil
				}
			}
		}
		if page.Next == nil {
			return false, nil
		}
		lp.After = page.Next
	}
}

// Approve makes a review public; Reject hides it. Either updates the
// product's rating and the summary when the review enters or leaves
// APPROVED, in the same transaction. Moderating to the current status changes
// nothing. Errors: not_found.
func (rs *ReviewService) Approve(storeID, id uint64) (*Review, error) {
	return rs.moderate(storeID, id, ReviewApproved)
}

// Reject hides a review (see Approve).
func (rs *ReviewService) Reject(storeID, id uint64) (*Review, error) {
	return rs.moderate(storeID, id, ReviewRejected)
}

func (rs *ReviewService) moderate(storeID, id uint64, status string) (*Review, error) {
	var r *Review
	err := rs.db.Update(func(tx reviewData) error {
		var err error
		if r, err = tx.Review(storeID, id); err != nil {
			return err
		}
		if r.Status == status {
			return nil
		}
		var delta int64
		switch {
		case status == ReviewApproved:
			delta = 1
		case r.Status == ReviewApproved:
			delta = -1
		}
		r.Status = status
		r.UpdatedAt = UTC(tx.Now())
		if err := tx.PutReview(r); err != nil {
			return err
		}
		if err := rs.s.Happened(tx, Change{Type: EvReviewModerated, StoreID: storeID, Review: r}); err != nil {
			return err
		}
		if delta == 0 {
			return nil
		}
		sum, err := tx.ReviewSummary(storeID, r.ProductID)
		if err != nil {
			return err
		}
		sum.Add(r.Rating, delta)
		if err := tx.PutReviewSummary(storeID, r.ProductID, sum); err != nil {
			return err
		}
		if r.ProductID == 0 {
			return nil
		}
		p, err := tx.Product(storeID, r.ProductID)
		if IsNotFound(err) {
			return nil // deleted since: only the summary is left
		}
		if err != nil {
			return err
		}
		p.RatingSum = max(0, p.RatingSum+delta*int64(r.Rating))
		p.ReviewCount = max(0, p.ReviewCount+delta)
		return tx.PutProduct(p)
	})
	if err != nil {
		return nil, err
	}
	rs.s.Kick()
	return r, nil
}

// List pages a store's reviews for moderation; status "" is all.
// Errors: validation_failed (unknown status).
func (rs *ReviewService) List(storeID uint64, status string, lp ListParams) (Page[*Review], error) {
	if status != "" {
		var v Validation
		v.OneOf("status", status, ReviewStatuses...)
		if err := v.Err(); err != nil {
			return Page[*Review]{}, err
		}
	}
	return view(rs.db, func(tx reviewData) (Page[*Review], error) { return tx.Reviews(storeID, status, lp) })
}

// ProductReviews returns a page of an active product's approved reviews and
// its summary. Errors: not_found (unknown or inactive slug).
func (rs *ReviewService) ProductReviews(storeID uint64, slug string, lp ListParams) (*Product, Page[json.RawMessage], ReviewSummary, error) {
	var p *Product
	var page Page[json.RawMessage]
	var sum ReviewSummary
	err := rs.db.View(func(tx reviewData) error {
		var err error
		if p, err = tx.ProductBySlug(storeID, slug); err != nil {
			return err
		}
		if !p.IsActive {
			return NotFound("product")
		}
		if sum, err = tx.ReviewSummary(storeID, p.ID); err != nil {
			return err
		}
		page, err = tx.ApprovedReviews(storeID, p.ID, lp)
		return err
	})
	return p, page, sum, err
}

// StoreReviews returns a page of the store's approved store reviews and their summary.
func (rs *ReviewService) StoreReviews(storeID uint64, lp ListParams) (Page[json.RawMessage], ReviewSummary, error) {
	var page Page[json.RawMessage]
	var sum ReviewSummary
	err := rs.db.View(func(tx reviewData) error {
		var err error
		if sum, err = tx.ReviewSummary(storeID, 0); err != nil {
			return err
		}
		page, err = tx.ApprovedReviews(storeID, 0, lp)
		return err
	})
	return page, sum, err
}

// RecentJSON returns the JSON array of a product's newest approved reviews
// (at most n), for product lists that ask for fields=reviews.
func (rs *ReviewService) RecentJSON(storeID, productID uint64, n int) ([]byte, error) {
	if n <= 0 {
		return []byte("[]"), nil
	}
	page, err := view(rs.db, func(tx reviewData) (Page[json.RawMessage], error) {
		return tx.ApprovedReviews(storeID, productID, ListParams{Sort: SortNewest, Limit: n})
	})
	if err != nil {
		return nil, err
	}
	out := []byte{'['}
	for i, v := range page.Items {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, v...)
	}
	return append(out, ']'), nil
}
