package storage

import (
	"time"

	"storefront/app"
)

// Blog posts, flash deals and bundles.
//
//	blog_posts:          sid|id -> app.BlogPost
//	blog_slugs:          sid|slug -> id
//	idx_blog_published:  sid|published_at|id -> nil (PUBLISHED posts only)
//	flash_deals:         sid|id -> app.FlashDeal
//	idx_deals_end:       sid|ends_at|id -> nil (every deal; the list skips the inactive)
//	idx_deals_product:   sid|product_id|id -> nil (cart and checkout pricing)
//	bundles:             sid|id -> app.Bundle
//	bundle_slugs:        sid|slug -> id
//	idx_bundles_active:  sid|id -> nil (active bundles)
var (
	bBlogPosts        = []byte("blog_posts")
	bBlogSlugs        = []byte("blog_slugs")
	bIdxBlogPublished = []byte("idx_blog_published")
	bFlashDeals       = []byte("flash_deals")
	bIdxDealsEnd      = []byte("idx_deals_end")
	bIdxDealsProduct  = []byte("idx_deals_product")
	bBundles          = []byte("bundles")
	bBundleSlugs      = []byte("bundle_slugs")
	bIdxBundlesActive = []byte("idx_bundles_active")
)

var _ = registerBuckets(bBlogPosts, bBlogSlugs, bIdxBlogPublished, bFlashDeals, bIdxDealsEnd,
	bIdxDealsProduct, bBundles, bBundleSlugs, bIdxBundlesActive)

// timeKey encodes t (seconds) so that byte order is time order, also before 1970.
func timeKey(t time.Time) []byte { return u64(uint64(t.Unix()) ^ 1<<63) }

func slugConflict() error {
	return &app.Error{Code: app.EConflict, Message: "slug is taken", Fields: map[string]string{"slug": "is taken"}}
}

// ---- blog posts ----

func postIndexKeys(p *app.BlogPost) [][]byte {
	if p.Status != app.PostPublished || p.PublishedAt == nil {
		return nil
	}
	return [][]byte{key(p.StoreID, timeKey(*p.PublishedAt), p.ID)}
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
	if v := slugs.Get(key(p.StoreID, p.Slug)); v != nil && idFromKeyEnd(v) != p.ID {
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
	if err := slugs.Put(key(p.StoreID, p.Slug), u64(p.ID)); err != nil {
		return err
	}
	for _, k := range postIndexKeys(p) {
		if err := t.b(bIdxBlogPublished).Put(k, nil); err != nil {
			return err
		}
	}
	return putJSON(t.b(bBlogPosts), key(p.StoreID, p.ID), p)
}

func (t *Tx) unindexPost(p *app.BlogPost) error {
	if err := t.b(bBlogSlugs).Delete(key(p.StoreID, p.Slug)); err != nil {
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
	if err := getJSON(t.b(bBlogPosts), key(storeID, id), &p, "blog post"); err != nil {
		return nil, err
	}
	return &p, nil
}

// BlogPostBySlug returns one post by slug, whatever its status.
func (t *Tx) BlogPostBySlug(storeID uint64, slug string) (*app.BlogPost, error) {
	v := t.b(bBlogSlugs).Get(key(storeID, slug))
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
	return t.b(bBlogPosts).Delete(key(storeID, id))
}

// ---- flash deals ----

func dealEndKey(d *app.FlashDeal) []byte     { return key(d.StoreID, timeKey(d.EndsAt), d.ID) }
func dealProductKey(d *app.FlashDeal) []byte { return key(d.StoreID, d.ProductID, d.ID) }

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
	return putJSON(t.b(bFlashDeals), key(d.StoreID, d.ID), d)
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
	if err := getJSON(t.b(bFlashDeals), key(storeID, id), &d, "flash deal"); err != nil {
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
		if err := getJSON(records, key(storeID, idFromKeyEnd(k)), &d, "flash deal"); err != nil {
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
	err := walk(t.b(bIdxDealsProduct), key(storeID, productID), nil, false, func(k, _ []byte) (bool, error) {
		var d app.FlashDeal
		if err := getJSON(records, key(storeID, idFromKeyEnd(k)), &d, "flash deal"); err != nil {
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
	return t.b(bFlashDeals).Delete(key(storeID, id))
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
	if v := slugs.Get(key(b.StoreID, b.Slug)); v != nil && idFromKeyEnd(v) != b.ID {
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
	if err := slugs.Put(key(b.StoreID, b.Slug), u64(b.ID)); err != nil {
		return err
	}
	if b.IsActive {
		if err := t.b(bIdxBundlesActive).Put(key(b.StoreID, b.ID), nil); err != nil {
			return err
		}
	}
	return putJSON(t.b(bBundles), key(b.StoreID, b.ID), b)
}

func (t *Tx) unindexBundle(b *app.Bundle) error {
	if err := t.b(bBundleSlugs).Delete(key(b.StoreID, b.Slug)); err != nil {
		return err
	}
	return t.b(bIdxBundlesActive).Delete(key(b.StoreID, b.ID))
}

// Bundle returns one bundle.
func (t *Tx) Bundle(storeID, id uint64) (*app.Bundle, error) {
	var b app.Bundle
	if err := getJSON(t.b(bBundles), key(storeID, id), &b, "bundle"); err != nil {
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
	return t.b(bBundles).Delete(key(storeID, id))
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
		want.put(bBlogSlugs, key(p.StoreID, p.Slug), u64(p.ID))
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
		want.put(bBundleSlugs, key(b.StoreID, b.Slug), u64(b.ID))
		if b.IsActive {
			want.put(bIdxBundlesActive, key(b.StoreID, b.ID), nil)
		}
		return nil
	})
}
