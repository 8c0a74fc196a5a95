package app

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"
)

// Pictures given by URL (issue 36.8): an image URL that the admin API, the
// panel or a CSV import writes into a product, category, post, bundle or
// the store's config is fetched once, when it is saved, into the media
// store, and the record keeps the stored picture's URL, served with its
// renditions like an upload; the shop never loads a picture from another
// host. The fetch is synchronous: a save that names a picture that cannot
// be fetched is refused with the reason (docs/decisions.md, "Pictures given
// by URL").

// ImageFetcher fetches a picture given by URL into an upload's renditions:
// app/imaging.Fetcher over app/webhook's client (the webhooks' address
// rules, a timeout, at most 10 MB, the shared decode budget). Errors:
// validation_failed naming field, rate_limited.
type ImageFetcher interface {
	FetchImage(ctx context.Context, field, url string) (*Media, error)
}

// Bounds of the fetches of one request.
const (
	// ImageFetchers is how many pictures one request fetches at once.
	ImageFetchers = 4
	// ImageFetchBudget bounds the time one request spends fetching.
	ImageFetchBudget = 60 * time.Second
	// MaxImportImages bounds the distinct new picture URLs of one CSV import.
	MaxImportImages = 200
)

// fetched is the outcome of one URL's fetch: the stored picture's URL, or
// why not (a validation_failed field message in msg, or err).
type fetched struct {
	url, msg string
	err      error
}

// remoteImage reports whether u is a picture to fetch: an http(s) URL that
// does not name one of the store's stored pictures (whether such a URL
// names a stored one is the record's validation).
func remoteImage(storeID uint64, u string) bool {
	if !ValidHTTPURL(u) {
		return false // the record's validation says so
	}
	ref, ok := ParseMediaURL(u)
	return !ok || ref.StoreID != storeID
}

// fetchImages fetches the distinct remote pictures of urls, ImageFetchers
// at a time within ImageFetchBudget, and stores each: by URL, what became
// of it. Nothing is fetched when no fetcher is set (cs.Images nil: the URLs
// stay as they are).
func (cs *CatalogService) fetchImages(storeID uint64, urls []string) map[string]fetched {
	out := map[string]fetched{}
	if cs.Images == nil {
		return out
	}
	var todo []string
	for _, u := range urls {
		if _, seen := out[u]; !seen && remoteImage(storeID, u) {
			out[u] = fetched{}
			todo = append(todo, u)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), ImageFetchBudget)
	defer cancel()
	var mu sync.Mutex
	var wg sync.WaitGroup
	slots := make(chan struct{}, ImageFetchers)
	for _, u := range todo {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			f := cs.fetchImage(ctx, storeID, u)
			mu.Lock()
			out[u] = f
			mu.Unlock()
		}()
	}
	wg.Wait()
	return out
}

// fetchImage fetches and stores one picture.
func (cs *CatalogService) fetchImage(ctx context.Context, storeID uint64, u string) fetched {
	if ctx.Err() != nil {
		return fetched{msg: u + ": not fetched: the request's " + ImageFetchBudget.String() + " for fetching pictures ran out"}
	}
	m, err := cs.Images.FetchImage(ctx, "image", u)
	var ae *Error
	if errors.As(err, &ae) && ae.Code == EValidation {
		return fetched{msg: ae.Fields["image"]}
	}
	if err != nil {
		return fetched{err: err}
	}
	stored, err := cs.StoreMedia(storeID, *m)
	return fetched{url: stored, err: err}
}

// LocalImages returns urls with each picture given by another URL replaced
// by its stored copy (fetchImages); two URLs of the same picture become one.
// Errors: validation_failed with field[i] for each picture that cannot be
// fetched, rate_limited, storage errors.
func (cs *CatalogService) LocalImages(storeID uint64, field string, urls []string) ([]string, error) {
	got := cs.fetchImages(storeID, urls)
	if len(got) == 0 {
		return urls, nil
	}
	out := make([]string, 0, len(urls))
	var v Validation
	for i, u := range urls {
		f, ok := got[u]
		switch {
		case !ok:
			out = append(out, u)
		case f.err != nil:
			return nil, f.err
		case f.msg != "":
			v.Add(field+"["+itoa(i)+"]", f.msg)
		case !slices.Contains(out, f.url):
			out = append(out, f.url)
		}
	}
	return out, v.Err()
}

// localImportImages fetches the pictures of an import: the URLs of its
// images column and the variants' own (variants column: "image" of each
// variant), each distinct URL once, at most MaxImportImages new ones; each
// row's cells then name the stored pictures. A picture that cannot be
// fetched is an error of its row and column (the header is row 1).
func (cs *CatalogService) localImportImages(storeID uint64, head map[string]int, rows [][]string) ([]RowError, error) {
	if cs.Images == nil {
		return nil, nil
	}
	var all []string
	seen := map[string]bool{}
	for _, rec := range rows {
		for _, u := range importPictures(head, rec) {
			if !seen[u] && remoteImage(storeID, u) {
				seen[u] = true
				all = append(all, u)
			}
		}
	}
	if len(all) > MaxImportImages {
		return nil, Invalid("file", "the file names "+itoa(len(all))+" pictures to fetch; at most "+itoa(MaxImportImages)+" per import: split it")
	}
	got := cs.fetchImages(storeID, all)
	var rerrs []RowError
	for i, rec := range rows {
		for _, col := range []string{"images", "variants"} {
			msgs, err := rewriteImportCell(head, rec, col, got)
			if err != nil {
				return nil, err
			}
			if len(msgs) > 0 {
				rerrs = append(rerrs, RowError{Row: i + 2, Column: col, Message: strings.Join(msgs, "; ")})
			}
		}
	}
	return rerrs, nil
}

// importPictures are the picture URLs of a row: its images cell's, and the
// "image" of each variant of its variants cell (when it parses).
func importPictures(head map[string]int, rec []string) []string {
	var out []string
	if i, ok := head["images"]; ok && i < len(rec) {
		out = strings.Fields(rec[i])
	}
	if i, ok := head["variants"]; ok && i < len(rec) {
		for _, v := range variantCell(rec[i]) {
			if s, _ := v["image"].(string); s != "" {
				out = append(out, strings.TrimSpace(s))
			}
		}
	}
	return out
}

// variantCell parses a variants cell as JSON objects (nil when it does not
// parse: the row's validation says so), numbers kept as written.
func variantCell(s string) []map[string]any {
	var vs []map[string]any
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	if strings.TrimSpace(s) == "" || d.Decode(&vs) != nil {
		return nil
	}
	return vs
}

// rewriteImportCell points the pictures of a row's cell col at their stored
// copies in got, and returns why the ones that could not be fetched were not.
func rewriteImportCell(head map[string]int, rec []string, col string, got map[string]fetched) ([]string, error) {
	i, ok := head[col]
	if !ok || i >= len(rec) {
		return nil, nil
	}
	var msgs []string
	local := func(u string) (string, error) {
		f, ok := got[u]
		switch {
		case !ok:
			return u, nil
		case f.err != nil:
			return "", f.err
		case f.msg != "":
			msgs = append(msgs, f.msg)
			return "", nil
		}
		return f.url, nil
	}
	if col == "images" {
		var out []string
		for _, u := range strings.Fields(rec[i]) {
			nu, err := local(u)
			if err != nil {
				return nil, err
			}
			if nu != "" && !slices.Contains(out, nu) {
				out = append(out, nu)
			}
		}
		rec[i] = strings.Join(out, " ")
		return msgs, nil
	}
	return msgs, rewriteVariantCell(rec, i, local)
}

// rewriteVariantCell replaces each variant's "image" of rec[i] by local's.
func rewriteVariantCell(rec []string, i int, local func(string) (string, error)) error {
	vs := variantCell(rec[i])
	changed := false
	for _, v := range vs {
		s, _ := v["image"].(string)
		if s == "" {
			continue
		}
		nu, err := local(strings.TrimSpace(s))
		if err != nil {
			return err
		}
		if nu != "" && nu != s {
			v["image"], changed = nu, true
		}
	}
	if changed {
		b, err := json.Marshal(vs)
		if err != nil {
			return err
		}
		rec[i] = string(b)
	}
	return nil
}

// localImages is the catalog's LocalImages, for the services that keep
// pictures besides the catalog (called once they are all made).
func (s *Services) localImages(storeID uint64, field string, urls []string) ([]string, error) {
	return s.Catalog.LocalImages(storeID, field, urls)
}

// pictures is LocalImages for the services that keep pictures besides the
// catalog (nil: URLs stay as they are given).
type pictures func(storeID uint64, field string, urls []string) ([]string, error)

// list replaces the pictures given by URL of *urls (nil: not sent).
func (p pictures) list(storeID uint64, field string, urls **[]string) error {
	if p == nil || *urls == nil {
		return nil
	}
	out, err := p(storeID, field, **urls)
	if err != nil {
		return err
	}
	*urls = &out
	return nil
}

// one replaces the picture given by URL *u (nil or "": not a picture); a
// failure is field's problem.
func (p pictures) one(storeID uint64, field string, u **string) error {
	if p == nil || *u == nil || strings.TrimSpace(**u) == "" {
		return nil
	}
	out, err := p(storeID, field, []string{strings.TrimSpace(**u)})
	var ae *Error
	if errors.As(err, &ae) && ae.Code == EValidation {
		return Invalid(field, ae.Fields[field+"[0]"])
	}
	if err != nil {
		return err
	}
	*u = &out[0]
	return nil
}

// config replaces the pictures given by URL of a config patch: store.logo,
// hero.image and each banners[i].image (a patch that is not a JSON object is
// MergeConfig's to refuse).
func (p pictures) config(storeID uint64, patch []byte) ([]byte, error) {
	var m map[string]any
	if p == nil || json.Unmarshal(patch, &m) != nil {
		return patch, nil
	}
	var v Validation
	var hard error // not a problem of the picture: rate_limited, storage
	changed := false
	fix := func(obj any, key, field string) {
		o, _ := obj.(map[string]any)
		s, ok := o[key].(string)
		if !ok || strings.TrimSpace(s) == "" || hard != nil {
			return
		}
		sp := &s
		if err := p.one(storeID, field, &sp); err != nil {
			if !merge(&v, err) {
				hard = err
			}
			return
		}
		if *sp != s {
			o[key], changed = *sp, true
		}
	}
	fix(m["store"], "logo", "store.logo")
	fix(m["hero"], "image", "hero.image")
	banners, _ := m["banners"].([]any)
	for i, b := range banners {
		fix(b, "image", "banners["+itoa(i)+"].image")
	}
	if hard != nil {
		return nil, hard
	}
	if err := v.Err(); err != nil || !changed {
		return patch, err
	}
	return json.Marshal(m)
}

// localProductPictures fetches the pictures given by URL of a product's
// input: its images and its variants' own (variants[i].image), each
// distinct URL once. Lists over their limits are left to the validation.
func (cs *CatalogService) localProductPictures(storeID uint64, in *ProductInput) error {
	if in.Images != nil && len(*in.Images) <= MaxProductImages {
		if err := pictures(cs.LocalImages).list(storeID, "images", &in.Images); err != nil {
			return err
		}
	}
	if in.Variants == nil || len(*in.Variants) > MaxVariants {
		return nil
	}
	vs := slices.Clone(*in.Variants)
	var urls []string
	for _, vi := range vs {
		if vi.Image != nil {
			urls = append(urls, strings.TrimSpace(*vi.Image))
		}
	}
	got := cs.fetchImages(storeID, urls)
	var v Validation
	for i, vi := range vs {
		if vi.Image == nil {
			continue
		}
		f, ok := got[strings.TrimSpace(*vi.Image)]
		switch {
		case !ok:
		case f.err != nil:
			return f.err
		case f.msg != "":
			v.Add("variants["+itoa(i)+"].image", f.msg)
		default:
			vs[i].Image = &f.url
		}
	}
	in.Variants = &vs
	return v.Err()
}
