package storage

import (
	"time"

	"storefront/app"
)

func slugConflict() error {
	return &app.Error{Code: app.EConflict, Message: "slug is taken", Fields: map[string]string{"slug": "is taken"}}
}

// ---- blog posts ----

func postIndexKeys(p *app.BlogPost) [][]byte {
	if p.Status != app.PostPublished || p.PublishedAt == nil {
		return nil
	}
	return [][]byte{keyOf(p.StoreID).at(*p.PublishedAt).id(p.ID)}
}

// PutBlogPost creates (ID 0) or updates a post with its slug and index.
func (t *Tx) PutBlogPost(p *app.BlogPost) error {
	var old *app.BlogPost
	if p.ID != 0 {
		var err error
		if old, err = t.BlogPost(p.StoreID, p.ID); err != nil {
			return err
		}
	}
	slugs := t.b(bBlogSlugs)
	if v := slugs.Get(keyOf(p.StoreID).last(p.Slug)); v != nil && idFromKeyEnd(v) != p.ID {
		return slugConflict()
	}
	if p.ID == 0 {
		id, err := t.NextID(p.StoreID, "blog_post")
		if err != nil {
			return err
		}
		p.ID = id
	}
	if old != nil {
		if err := t.unindexPost(old); err != nil {
			return err
		}
	}
	if err := slugs.Put(keyOf(p.StoreID).last(p.Slug), u64(p.ID)); err != nil {
		return err
	}
	for _, k := range postIndexKeys(p) {
		if err := t.b(bIdxBlogPublished).Put(k, nil); err != nil {
			return err
		}
	}
	return putJSON(t.b(bBlogPosts), keyOf(p.StoreID).id(p.ID), p)
}

func (t *Tx) unindexPost(p *app.BlogPost) error {
	if err := t.b(bBlogSlugs).Delete(keyOf(p.StoreID).last(p.Slug)); err != nil {
		return err
	}
	for _, k := range postIndexKeys(p) {
		if err := t.b(bIdxBlogPublished).Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// BlogPost returns one post.
func (t *Tx) BlogPost(storeID, id uint64) (*app.BlogPost, error) {
	var p app.BlogPost
	if err := getJSON(t.b(bBlogPosts), keyOf(storeID).id(id), &p, "blog post"); err != nil {
		return nil, err
	}
	return &p, nil
}

// BlogPostBySlug returns one post by slug, whatever its status.
func (t *Tx) BlogPostBySlug(storeID uint64, slug string) (*app.BlogPost, error) {
	v := t.b(bBlogSlugs).Get(keyOf(storeID).last(slug))
	if v == nil {
		return nil, app.NotFound("blog post")
	}
	return t.BlogPost(storeID, idFromKeyEnd(v))
}

// BlogPosts pages every post by id, newest first.
func (t *Tx) BlogPosts(storeID uint64, lp app.ListParams) (app.Page[*app.BlogPost], error) {
	return page(t.b(bBlogPosts), tenant(storeID), lp, true, decodeJSONRecord[app.BlogPost]("blog post"))
}

// PublishedPosts pages the published posts, newest published_at first.
func (t *Tx) PublishedPosts(storeID uint64, lp app.ListParams) (app.Page[*app.BlogPost], error) {
	return page(t.b(bIdxBlogPublished), tenant(storeID), lp, true, recordByIndex[app.BlogPost](t.b(bBlogPosts), storeID, "blog post"))
}

// DeleteBlogPost removes a post, its slug and index key.
func (t *Tx) DeleteBlogPost(storeID, id uint64) error {
	p, err := t.BlogPost(storeID, id)
	if err != nil {
		return err
	}
	if err := t.unindexPost(p); err != nil {
		return err
	}
	return t.b(bBlogPosts).Delete(keyOf(storeID).id(id))
}

// ---- flash deals ----

func dealEndKey(d *app.FlashDeal) []byte     { return keyOf(d.StoreID).at(d.EndsAt).id(d.ID) }
func dealProductKey(d *app.FlashDeal) []byte { return keyOf(d.StoreID).id(d.ProductID).id(d.ID) }

// PutFlashDeal creates (ID 0) or updates a deal with its index keys.
func (t *Tx) PutFlashDeal(d *app.FlashDeal) error {
	if d.ID == 0 {
		id, err := t.NextID(d.StoreID, "flash_deal")
		if err != nil {
			return err
		}
		d.ID = id
	} else {
		old, err := t.FlashDeal(d.StoreID, d.ID)
		if err != nil {
			return err
		}
		if err := t.unindexDeal(old); err != nil {
			return err
		}
	}
	if err := t.b(bIdxDealsEnd).Put(dealEndKey(d), nil); err != nil {
		return err
	}
	if err := t.b(bIdxDealsProduct).Put(dealProductKey(d), nil); err != nil {
		return err
	}
	return putJSON(t.b(bFlashDeals), keyOf(d.StoreID).id(d.ID), d)
}

func (t *Tx) unindexDeal(d *app.FlashDeal) error {
	if err := t.b(bIdxDealsEnd).Delete(dealEndKey(d)); err != nil {
		return err
	}
	return t.b(bIdxDealsProduct).Delete(dealProductKey(d))
}

// FlashDeal returns one deal.
func (t *Tx) FlashDeal(storeID, id uint64) (*app.FlashDeal, error) {
	var d app.FlashDeal
	if err := getJSON(t.b(bFlashDeals), keyOf(storeID).id(id), &d, "flash deal"); err != nil {
		return nil, err
	}
	return &d, nil
}

// FlashDeals pages every deal by id, newest first.
func (t *Tx) FlashDeals(storeID uint64, lp app.ListParams) (app.Page[*app.FlashDeal], error) {
	return page(t.b(bFlashDeals), tenant(storeID), lp, true, decodeJSONRecord[app.FlashDeal]("flash deal"))
}

// ActiveFlashDeals pages the deals running at now by ends_at, soonest first.
// The first page seeks straight past the deals that have ended.
func (t *Tx) ActiveFlashDeals(storeID uint64, now time.Time, lp app.ListParams, keep func(*app.FlashDeal) (bool, error)) (app.Page[*app.FlashDeal], error) {
	if lp.After == nil {
		lp.After = &app.Cursor{Sort: lp.Sort, Key: timeKey(now)}
	}
	records := t.b(bFlashDeals)
	return page(t.b(bIdxDealsEnd), tenant(storeID), lp, false, func(k, _ []byte) (*app.FlashDeal, bool, error) {
		var d app.FlashDeal
		if err := getJSON(records, keyOf(storeID).id(idFromKeyEnd(k)), &d, "flash deal"); err != nil {
			return nil, false, err
		}
		if !d.ActiveAt(now) {
			return nil, false, nil
		}
		ok, err := keep(&d)
		return &d, ok, err
	})
}

// ProductFlashDeals lists every deal of one product.
func (t *Tx) ProductFlashDeals(storeID, productID uint64) ([]*app.FlashDeal, error) {
	var out []*app.FlashDeal
	records := t.b(bFlashDeals)
	err := walk(t.b(bIdxDealsProduct), keyOf(storeID).id(productID), nil, false, func(k, _ []byte) (bool, error) {
		var d app.FlashDeal
		if err := getJSON(records, keyOf(storeID).id(idFromKeyEnd(k)), &d, "flash deal"); err != nil {
			return false, err
		}
		out = append(out, &d)
		return true, nil
	})
	return out, err
}

// DeleteFlashDeal removes a deal and its index keys.
func (t *Tx) DeleteFlashDeal(storeID, id uint64) error {
	d, err := t.FlashDeal(storeID, id)
	if err != nil {
		return err
	}
	if err := t.unindexDeal(d); err != nil {
		return err
	}
	return t.b(bFlashDeals).Delete(keyOf(storeID).id(id))
}

// ---- bundles ----

// PutBundle creates (ID 0) or updates a bundle with its slug and index.
func (t *Tx) PutBundle(b *app.Bundle) error {
	var old *app.Bundle
	if b.ID != 0 {
		var err error
		if old, err = t.Bundle(b.StoreID, b.ID); err != nil {
			return err
		}
	}
	slugs := t.b(bBundleSlugs)
	if v := slugs.Get(keyOf(b.StoreID).last(b.Slug)); v != nil && idFromKeyEnd(v) != b.ID {
		return slugConflict()
	}
	if b.ID == 0 {
		id, err := t.NextID(b.StoreID, "bundle")
		if err != nil {
			return err
		}
		b.ID = id
	}
	if old != nil {
		if err := t.unindexBundle(old); err != nil {
			return err
		}
	}
	if err := slugs.Put(keyOf(b.StoreID).last(b.Slug), u64(b.ID)); err != nil {
		return err
	}
	if b.IsActive {
		if err := t.b(bIdxBundlesActive).Put(keyOf(b.StoreID).id(b.ID), nil); err != nil {
			return err
		}
	}
	return putJSON(t.b(bBundles), keyOf(b.StoreID).id(b.ID), b)
}

func (t *Tx) unindexBundle(b *app.Bundle) error {
	if err := t.b(bBundleSlugs).Delete(keyOf(b.StoreID).last(b.Slug)); err != nil {
		return err
	}
	return t.b(bIdxBundlesActive).Delete(keyOf(b.StoreID).id(b.ID))
}

// Bundle returns one bundle.
func (t *Tx) Bundle(storeID, id uint64) (*app.Bundle, error) {
	var b app.Bundle
	if err := getJSON(t.b(bBundles), keyOf(storeID).id(id), &b, "bundle"); err != nil {
		return nil, err
	}
	return &b, nil
}

// Bundles pages every bundle by id, newest first.
func (t *Tx) Bundles(storeID uint64, lp app.ListParams) (app.Page[*app.Bundle], error) {
	return page(t.b(bBundles), tenant(storeID), lp, true, decodeJSONRecord[app.Bundle]("bundle"))
}

// ActiveBundles pages the active bundles, newest first.
func (t *Tx) ActiveBundles(storeID uint64, lp app.ListParams, keep func(*app.Bundle) (bool, error)) (app.Page[*app.Bundle], error) {
	load := recordByIndex[app.Bundle](t.b(bBundles), storeID, "bundle")
	return page(t.b(bIdxBundlesActive), tenant(storeID), lp, true, func(k, v []byte) (*app.Bundle, bool, error) {
		b, _, err := load(k, v)
		if err != nil {
			return nil, false, err
		}
		ok, err := keep(b)
		return b, ok, err
	})
}

// DeleteBundle removes a bundle, its slug and index key.
func (t *Tx) DeleteBundle(storeID, id uint64) error {
	b, err := t.Bundle(storeID, id)
	if err != nil {
		return err
	}
	if err := t.unindexBundle(b); err != nil {
		return err
	}
	return t.b(bBundles).Delete(keyOf(storeID).id(id))
}

// ---- verification ----

var _ = registerVerifier(verifyContent, bBlogSlugs, bIdxBlogPublished, bIdxDealsEnd, bIdxDealsProduct,
	bBundleSlugs, bIdxBundlesActive)

// verifyContent puts the slug and index keys of every post, deal and bundle.
func verifyContent(t *Tx, want expectKeys) error {
	err := t.b(bBlogPosts).ForEach(func(_, v []byte) error {
		var p app.BlogPost
		if err := getJSONBytes(v, &p, "blog post"); err != nil {
			return err
		}
		want.put(bBlogSlugs, keyOf(p.StoreID).last(p.Slug), u64(p.ID))
		for _, k := range postIndexKeys(&p) {
			want.put(bIdxBlogPublished, k, nil)
		}
		return nil
	})
	if err != nil {
		return err
	}
	err = t.b(bFlashDeals).ForEach(func(_, v []byte) error {
		var d app.FlashDeal
		if err := getJSONBytes(v, &d, "flash deal"); err != nil {
			return err
		}
		want.put(bIdxDealsEnd, dealEndKey(&d), nil)
		want.put(bIdxDealsProduct, dealProductKey(&d), nil)
		return nil
	})
	if err != nil {
		return err
	}
	return t.b(bBundles).ForEach(func(_, v []byte) error {
		var b app.Bundle
		if err := getJSONBytes(v, &b, "bundle"); err != nil {
			return err
		}
		want.put(bBundleSlugs, keyOf(b.StoreID).last(b.Slug), u64(b.ID))
		if b.IsActive {
			want.put(bIdxBundlesActive, keyOf(b.StoreID).id(b.ID), nil)
		}
		return nil
	})
}
