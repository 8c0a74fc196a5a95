package app

import (
	"context"
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

// LocalImage is LocalImages for one picture ("" stays "").
func (cs *CatalogService) LocalImage(storeID uint64, field, u string) (string, error) {
	if strings.TrimSpace(u) == "" {
		return u, nil
	}
	out, err := cs.LocalImages(storeID, field, []string{u})
	var ae *Error
	if errors.As(err, &ae) && ae.Code == EValidation {
		return "", Invalid(field, ae.Fields[field+"[0]"])
	}
	if err != nil {
		return "", err
	}
	return out[0], nil
}

// localImportImages fetches the pictures of an import's images column
// (fetchImages: each distinct URL once, at most MaxImportImages new ones)
// and writes each row's stored URLs into its cell. A picture that cannot be
// fetched is a row error of its row (the header is row 1).
func (cs *CatalogService) localImportImages(storeID uint64, head map[string]int, rows [][]string) ([]RowError, error) {
	col, ok := head["images"]
	if !ok || cs.Images == nil {
		return nil, nil
	}
	var all []string
	seen := map[string]bool{}
	for _, rec := range rows {
		if col < len(rec) {
			for _, u := range strings.Fields(rec[col]) {
				if !seen[u] && remoteImage(storeID, u) {
					seen[u] = true
					all = append(all, u)
				}
			}
		}
	}
	if len(all) > MaxImportImages {
		return nil, Invalid("file", "the file names "+itoa(len(all))+" pictures to fetch; at most "+itoa(MaxImportImages)+" per import: split it")
	}
	got := cs.fetchImages(storeID, all)
	var rerrs []RowError
	for i, rec := range rows {
		if col >= len(rec) {
			continue
		}
		var out, msgs []string
		for _, u := range strings.Fields(rec[col]) {
			f, ok := got[u]
			switch {
			case !ok:
				out = append(out, u)
			case f.err != nil:
				return nil, f.err
			case f.msg != "":
				msgs = append(msgs, f.msg)
			case !slices.Contains(out, f.url):
				out = append(out, f.url)
			}
		}
		if len(msgs) > 0 {
			rerrs = append(rerrs, RowError{Row: i + 2, Column: "images", Message: strings.Join(msgs, "; ")})
		}
		rec[col] = strings.Join(out, " ")
	}
	return rerrs, nil
}
