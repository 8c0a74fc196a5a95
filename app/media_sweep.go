package app

import (
	"encoding/json"
	"errors"
	"maps"
	"slices"
)

// Pictures stored as other hosts' URLs before they were fetched on save
// (issue 36.8) are fetched by a cluster job (main: pictures.fetch, at start
// and daily): FetchStoredPictures. A picture that cannot be fetched stays
// as it was and is tried again on the next run; the shop shows a product's
// stored pictures only (docs/decisions.md, "Pictures given by URL").

// sweepPage is how many records the sweep reads at a time.
const sweepPage = 200

// FetchStoredPictures fetches every store's pictures that are still other
// hosts' URLs (products, categories, posts, bundles, the config's logo,
// hero and banners) into the media store and points the records at them.
// It returns how many records it changed; a record whose pictures cannot be
// fetched is left as it is. Nothing is fetched without a fetcher.
func (s *Services) FetchStoredPictures() (int, error) {
	if s.Catalog.Images == nil {
		return 0, nil
	}
	stores, err := s.Stores.List()
	if err != nil {
		return 0, err
	}
	n := 0
	for _, st := range stores {
		for _, sweep := range []func(uint64) (int, error){s.Catalog.sweepProducts, s.sweepCategories, s.sweepPosts, s.sweepBundles, s.sweepConfig} {
			k, err := sweep(st.ID)
			n += k
			if err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// remoteAny reports whether any of urls is a picture to fetch.
func remoteAny(storeID uint64, urls ...string) bool {
	return slices.ContainsFunc(urls, func(u string) bool { return remoteImage(storeID, u) })
}

// sweepProducts fetches the products' remote pictures (their images and
// their variants' own) and replaces each URL fetched where the product
// still has it (an image's alt text follows it).
func (cs *CatalogService) sweepProducts(storeID uint64) (int, error) {
	n := 0
	lp := ListParams{Limit: sweepPage}
	for {
		page, err := cs.AllProducts(storeID, lp)
		if err != nil {
			return n, err
		}
		for _, p := range page.Items {
			if !remoteAny(storeID, p.MediaURLs()...) {
				continue
			}
			changed, err := cs.replaceImages(p, cs.fetchImages(storeID, p.MediaURLs()))
			if err != nil {
				return n, err
			}
			if changed {
				n++
			}
		}
		if page.Next == nil {
			return n, nil
		}
		lp.After = page.Next
	}
}

// replaceImages points product p at the stored copies of got, in its
// current state.
func (cs *CatalogService) replaceImages(p *Product, got map[string]fetched) (bool, error) {
	changed := false
	err := cs.s.DB.Update(func(tx Tx) error {
		cur, err := tx.Product(p.StoreID, p.ID)
		if err != nil {
			return ignoreNotFound(err)
		}
		images, alts := make([]string, 0, len(cur.Images)), maps.Clone(cur.ImageAlts)
		for _, u := range cur.Images {
			nu := u
			if f := got[u]; f.url != "" {
				nu, changed = f.url, true
				if a, ok := alts[u]; ok {
					delete(alts, u)
					alts[nu] = a
				}
			}
			if !slices.Contains(images, nu) {
				images = append(images, nu)
			}
		}
		for i, v := range cur.Variants { // a variant's own picture
			if f := got[v.Image]; f.url != "" {
				cur.Variants[i].Image, changed = f.url, true
			}
		}
		if !changed {
			return nil
		}
		cur.Images, cur.ImageAlts = images, alts
		return tx.PutProduct(cur)
	})
	return changed, err
}

// sweepCategories saves each category whose image is another host's again
// with it (SaveCategory fetches it).
func (s *Services) sweepCategories(storeID uint64) (int, error) {
	cats, err := s.Catalog.Categories(storeID)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, c := range cats {
		if remoteAny(storeID, c.Image) {
			img := c.Image
			_, err := s.Catalog.SaveCategory(storeID, c.ID, CategoryInput{Image: &img})
			n, err = counted(n, err)
			if err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// counted adds a record the sweep changed, or reads err: a record whose
// pictures were refused (validation_failed) or is gone stays as it is.
func counted(n int, err error) (int, error) {
	if err == nil {
		return n + 1, nil
	}
	var ae *Error
	if errors.As(err, &ae) && (ae.Code == EValidation || ae.Code == ENotFound) {
		return n, nil
	}
	return n, err
}

// sweepPosts saves each post whose cover is another host's again with it.
func (s *Services) sweepPosts(storeID uint64) (int, error) {
	n := 0
	lp := ListParams{Limit: sweepPage}
	for {
		page, err := s.Content.Posts(storeID, lp)
		if err != nil {
			return n, err
		}
		for _, p := range page.Items {
			if remoteAny(storeID, p.CoverImage) {
				img := p.CoverImage
				_, err := s.Content.SavePost(storeID, p.ID, BlogPostInput{CoverImage: &img})
				if n, err = counted(n, err); err != nil {
					return n, err
				}
			}
		}
		if page.Next == nil {
			return n, nil
		}
		lp.After = page.Next
	}
}

// sweepBundles saves each bundle with another host's picture again with its
// pictures.
func (s *Services) sweepBundles(storeID uint64) (int, error) {
	n := 0
	lp := ListParams{Limit: sweepPage}
	for {
		page, err := s.Content.AllBundles(storeID, lp)
		if err != nil {
			return n, err
		}
		for _, b := range page.Items {
			if remoteAny(storeID, b.Images...) {
				imgs := slices.Clone(b.Images)
				_, err := s.Content.SaveBundle(storeID, b.ID, BundleInput{Images: &imgs})
				if n, err = counted(n, err); err != nil {
					return n, err
				}
			}
		}
		if page.Next == nil {
			return n, nil
		}
		lp.After = page.Next
	}
}

// sweepConfig patches the store's logo, hero image and banners with
// themselves when one is another host's (Change fetches them).
func (s *Services) sweepConfig(storeID uint64) (int, error) {
	st, err := s.Stores.Get(storeID)
	if err != nil {
		return 0, ignoreNotFound(err)
	}
	var cfg struct {
		Store   map[string]any   `json:"store"`
		Hero    map[string]any   `json:"hero"`
		Banners []map[string]any `json:"banners"`
	}
	if json.Unmarshal(st.Config, &cfg) != nil {
		return 0, nil
	}
	patch := map[string]any{}
	if logo := str(cfg.Store["logo"]); remoteAny(storeID, logo) {
		patch["store"] = map[string]any{"logo": logo}
	}
	if hero := str(cfg.Hero["image"]); remoteAny(storeID, hero) {
		patch["hero"] = map[string]any{"image": hero}
	}
	for _, b := range cfg.Banners {
		if remoteAny(storeID, str(b["image"])) {
			patch["banners"] = cfg.Banners // an array is replaced whole
		}
	}
	if len(patch) == 0 {
		return 0, nil
	}
	raw, _ := json.Marshal(patch)
	_, err = s.Stores.Change(storeID, StoreChange{Config: raw}, nil)
	return counted(0, err)
}
