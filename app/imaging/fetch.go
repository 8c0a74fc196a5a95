package imaging

import (
	"context"
	"errors"
	"time"

	"storefront/app"
)

// FetchTimeout bounds one picture's fetch: connecting, the answer and its
// body (the Getter's client enforces it).
const FetchTimeout = 10 * time.Second

// Getter fetches a URL's body, at most max bytes (app/webhook's Sender.Get:
// the webhooks' address rules, timeouts and no proxy).
type Getter func(ctx context.Context, url string, max int64) ([]byte, error)

// ErrTooLarge is what a Getter returns for a body over max (any error
// wrapping it reads as "larger than 10 MB").
var ErrTooLarge = errors.New("larger than allowed")

// Fetcher is the app.ImageFetcher of the server: a picture given by URL is
// fetched once, at most MaxBytes, and processed like an upload (Process:
// the shared decode Budget, renditions, metadata dropped).
type Fetcher struct {
	Get Getter
	// TooLarge is the Getter's error for a body over max (besides ErrTooLarge).
	TooLarge error
}

// FetchImage fetches the picture at url into an upload's renditions. field
// names the URL in errors: validation_failed with field's message saying
// what went wrong (unreachable, refused address, not 200, too large, not an
// image); rate_limited when the Budget stays full.
func (f Fetcher) FetchImage(ctx context.Context, field, url string) (*app.Media, error) {
	data, err := f.Get(ctx, url, MaxBytes)
	if err != nil {
		if errors.Is(err, ErrTooLarge) || (f.TooLarge != nil && errors.Is(err, f.TooLarge)) {
			return nil, app.Invalid(field, url+": the picture is larger than 10 MB")
		}
		return nil, app.Invalid(field, url+": cannot be fetched: "+err.Error())
	}
	res, err := Process(field, data)
	if err != nil {
		var ae *app.Error
		if errors.As(err, &ae) && ae.Code == app.EValidation {
			return nil, app.Invalid(field, url+": "+ae.Fields[field])
		}
		return nil, err
	}
	return &app.Media{Hash: res.Hash, Ext: res.Ext, Files: res.Files}, nil
}
