package app

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"
	"time"
)

// docHashes are the hashes of sample stored documents per DocVersion.
var docHashes = map[int]string{
	1: "351e6298988883f2ac23f48b061dcdebf91d4516656261706e2703de149812e4",
}

// TestDocVersion fails when what storage keeps pre-encoded (Product.Doc in
// its binary form, Review.View's JSON) changes while DocVersion stays: old
// records would keep the old form. Raise DocVersion (every backend then
// re-encodes its docs at start) and record the new hash here.
func TestDocVersion(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	p := &Product{ID: 7, StoreID: 1, Name: "Shirt", Slug: "shirt", Description: "d", Price: 1999, CompareAtPrice: 2500,
		Currency: "USD", Images: []string{"a.png"}, CategoryID: 3, Stock: 4, IsActive: true, RatingSum: 9, ReviewCount: 2,
		Variants:  []Variant{{ID: 1, Name: "L", SKU: "s-l", Price: 1999, Stock: 4, Attributes: map[string]string{"size": "L"}}},
		CreatedAt: at, UpdatedAt: at}
	doc, err := p.Doc(&Category{ID: 3, Name: "Tops"})
	if err != nil {
		t.Fatal(err)
	}
	r := &Review{ID: 5, StoreID: 1, ProductID: 7, CustomerID: 2, CustomerName: "Ann B.", Rating: 4, Title: "t", Content: "c",
		Images: []string{}, IsVerifiedPurchase: true, Status: ReviewApproved, CreatedAt: at, UpdatedAt: at}
	view, err := json.Marshal(r.View())
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256(append(append([]byte(doc), 0), view...))
	if got := hex.EncodeToString(h[:]); got != docHashes[DocVersion] {
		t.Fatalf("the stored document encoding changed (hash %s) but DocVersion is still %d: raise DocVersion and record the hash", got, DocVersion)
	}
}
