package postgres

import (
	"time"

	"storefront/app"
)

// ---- blog posts ----

// PutBlogPost creates (ID 0) or updates a post; its slug is unique per store.
func (t *Tx) PutBlogPost(p *app.BlogPost) error {
	if p.ID != 0 {
		if _, err := t.BlogPost(p.StoreID, p.ID); err != nil {
			return err
		}
	}
	other, ok, err := t.id64(p.StoreID, "blog post", `SELECT id FROM blog_posts WHERE store_id = $1 AND slug = $2`, i64(p.StoreID), bs(p.Slug))
	if err != nil {
		return err
	}
	if ok && other != p.ID {
		return slugConflict()
	}
	if p.ID == 0 {
		id, err := t.NextID(p.StoreID, "blog_post")
		if err != nil {
			return err
		}
		p.ID = id
	}
	var published *time.Time // the index of published posts holds PUBLISHED ones only
	if p.Status == app.PostPublished && p.PublishedAt != nil {
		published = p.PublishedAt
	}
	raw, err := encode(p)
	if err != nil {
		return err
	}
	return t.exec(p.StoreID, "put blog post", `INSERT INTO blog_posts (store_id, id, slug, published_at, doc) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (store_id, id) DO UPDATE SET slug = excluded.slug, published_at = excluded.published_at, doc = excluded.doc`,
		i64(p.StoreID), i64(p.ID), bs(p.Slug), published, raw)
}

// BlogPost returns one post.
func (t *Tx) BlogPost(storeID, id uint64) (*app.BlogPost, error) {
	var p app.BlogPost
	if err := t.get(storeID, &p, "blog post", `SELECT doc FROM blog_posts WHERE store_id = $1 AND id = $2`, i64(storeID), i64(id)); err != nil {
		return nil, err
	}
	return &p, nil
}

// BlogPostBySlug returns one post by slug, whatever its status.
func (t *Tx) BlogPostBySlug(storeID uint64, slug string) (*app.BlogPost, error) {
	var p app.BlogPost
	if err := t.get(storeID, &p, "blog post", `SELECT doc FROM blog_posts WHERE store_id = $1 AND slug = $2`, i64(storeID), bs(slug)); err != nil {
		return nil, err
	}
	return &p, nil
}

// BlogPosts pages every post by id, newest first.
func (t *Tx) BlogPosts(storeID uint64, lp app.ListParams) (app.Page[*app.BlogPost], error) {
	return docList[app.BlogPost](t, storeID, "blog posts", `FROM blog_posts WHERE store_id = $1`, []any{i64(storeID)}, byID(true), lp)
}

// PublishedPosts pages the published posts, newest published_at first.
func (t *Tx) PublishedPosts(storeID uint64, lp app.ListParams) (app.Page[*app.BlogPost], error) {
	ks := keyset{cols: []col{{"published_at", kTime}, {"id", kU64}}, desc: true}
	return docList[app.BlogPost](t, storeID, "blog posts", `FROM blog_posts WHERE store_id = $1 AND published_at IS NOT NULL`,
		[]any{i64(storeID)}, ks, lp)
}

// DeleteBlogPost removes a post.
func (t *Tx) DeleteBlogPost(storeID, id uint64) error {
	n, err := t.execN(storeID, "delete blog post", `DELETE FROM blog_posts WHERE store_id = $1 AND id = $2`, i64(storeID), i64(id))
	if err != nil {
		return err
	}
	if n == 0 {
		return app.NotFound("blog post")
	}
	return nil
}

// ---- flash deals ----

// PutFlashDeal creates (ID 0) or updates a deal.
func (t *Tx) PutFlashDeal(d *app.FlashDeal) error {
	if d.ID == 0 {
		id, err := t.NextID(d.StoreID, "flash_deal")
		if err != nil {
			return err
		}
		d.ID = id
	} else if _, err := t.FlashDeal(d.StoreID, d.ID); err != nil {
		return err
	}
	raw, err := encode(d)
	if err != nil {
		return err
	}
	if err := t.changedCached(d.StoreID); err != nil {
		return err
	}
	return t.exec(d.StoreID, "put flash deal", `INSERT INTO flash_deals (store_id, id, product_id, ends_at, doc) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (store_id, id) DO UPDATE SET product_id = excluded.product_id, ends_at = excluded.ends_at, doc = excluded.doc`,
		i64(d.StoreID), i64(d.ID), i64(d.ProductID), d.EndsAt, raw)
}

// FlashDeal returns one deal.
func (t *Tx) FlashDeal(storeID, id uint64) (*app.FlashDeal, error) {
	var d app.FlashDeal
	if err := t.get(storeID, &d, "flash deal", `SELECT doc FROM flash_deals WHERE store_id = $1 AND id = $2`, i64(storeID), i64(id)); err != nil {
		return nil, err
	}
	return &d, nil
}

// FlashDeals pages every deal by id, newest first.
func (t *Tx) FlashDeals(storeID uint64, lp app.ListParams) (app.Page[*app.FlashDeal], error) {
	return docList[app.FlashDeal](t, storeID, "flash deals", `FROM flash_deals WHERE store_id = $1`, []any{i64(storeID)}, byID(true), lp)
}

// ActiveFlashDeals pages the deals running at now by ends_at, soonest first.
// The first page starts at now, past the deals that have ended.
func (t *Tx) ActiveFlashDeals(storeID uint64, now time.Time, lp app.ListParams, keep func(*app.FlashDeal) (bool, error)) (app.Page[*app.FlashDeal], error) {
	ks := keyset{cols: []col{{"ends_at", kTime}, {"id", kU64}}}
	l := list{sel: "doc::text, " + ks.keyCols(), from: `FROM flash_deals WHERE store_id = $1`, args: []any{i64(storeID)}, keys: ks,
		chunk: 100, seekTo: appendKey(nil, kTime, now)}
	decode := decodeDoc[app.FlashDeal](t, "flash deal")
	return page(t, storeID, "flash deals", l, lp, func(vals []any) (*app.FlashDeal, bool, error) {
		d, _, err := decode(vals)
		if err != nil || !d.ActiveAt(now) {
			return nil, false, err
		}
		ok, err := keep(d)
		return d, ok, err
	})
}

// ProductFlashDeals lists every deal of one product by id.
// In a write transaction they come from the process's cache (storecache.go).
func (t *Tx) ProductFlashDeals(storeID, productID uint64) ([]*app.FlashDeal, error) {
	out, err := cachedDocs[app.FlashDeal](t, cacheKey{store: storeID, kind: cacheDeals, id: productID}, "flash deals",
		`SELECT doc FROM flash_deals WHERE store_id = $1 AND product_id = $2 ORDER BY id`, i64(storeID), i64(productID))
	if len(out) == 0 {
		out = nil
	}
	return out, err
}

// DeleteFlashDeal removes a deal.
func (t *Tx) DeleteFlashDeal(storeID, id uint64) error {
	if err := t.changedCached(storeID); err != nil {
		return err
	}
	n, err := t.execN(storeID, "delete flash deal", `DELETE FROM flash_deals WHERE store_id = $1 AND id = $2`, i64(storeID), i64(id))
	if err != nil {
		return err
	}
	if n == 0 {
		return app.NotFound("flash deal")
	}
	return nil
}

// ---- bundles ----

// PutBundle creates (ID 0) or updates a bundle; its slug is unique per store.
func (t *Tx) PutBundle(b *app.Bundle) error {
	if b.ID != 0 {
		if _, err := t.Bundle(b.StoreID, b.ID); err != nil {
			return err
		}
	}
	other, ok, err := t.id64(b.StoreID, "bundle", `SELECT id FROM bundles WHERE store_id = $1 AND slug = $2`, i64(b.StoreID), bs(b.Slug))
	if err != nil {
		return err
	}
	if ok && other != b.ID {
		return slugConflict()
	}
	if b.ID == 0 {
		id, err := t.NextID(b.StoreID, "bundle")
		if err != nil {
			return err
		}
		b.ID = id
	}
	raw, err := encode(b)
	if err != nil {
		return err
	}
	return t.exec(b.StoreID, "put bundle", `INSERT INTO bundles (store_id, id, slug, active, doc) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (store_id, id) DO UPDATE SET slug = excluded.slug, active = excluded.active, doc = excluded.doc`,
		i64(b.StoreID), i64(b.ID), bs(b.Slug), b.IsActive, raw)
}

// Bundle returns one bundle.
func (t *Tx) Bundle(storeID, id uint64) (*app.Bundle, error) {
	var b app.Bundle
	if err := t.get(storeID, &b, "bundle", `SELECT doc FROM bundles WHERE store_id = $1 AND id = $2`, i64(storeID), i64(id)); err != nil {
		return nil, err
	}
	return &b, nil
}

// Bundles pages every bundle by id, newest first.
func (t *Tx) Bundles(storeID uint64, lp app.ListParams) (app.Page[*app.Bundle], error) {
	return docList[app.Bundle](t, storeID, "bundles", `FROM bundles WHERE store_id = $1`, []any{i64(storeID)}, byID(true), lp)
}

// ActiveBundles pages the active bundles, newest first.
func (t *Tx) ActiveBundles(storeID uint64, lp app.ListParams, keep func(*app.Bundle) (bool, error)) (app.Page[*app.Bundle], error) {
	ks := byID(true)
	l := list{sel: "doc::text, id", from: `FROM bundles WHERE store_id = $1 AND active`, args: []any{i64(storeID)}, keys: ks, chunk: 100}
	decode := decodeDoc[app.Bundle](t, "bundle")
	return page(t, storeID, "bundles", l, lp, func(vals []any) (*app.Bundle, bool, error) {
		b, _, err := decode(vals)
		if err != nil {
			return nil, false, err
		}
		ok, err := keep(b)
		return b, ok, err
	})
}

// DeleteBundle removes a bundle.
func (t *Tx) DeleteBundle(storeID, id uint64) error {
	n, err := t.execN(storeID, "delete bundle", `DELETE FROM bundles WHERE store_id = $1 AND id = $2`, i64(storeID), i64(id))
	if err != nil {
		return err
	}
	if n == 0 {
		return app.NotFound("bundle")
	}
	return nil
}
