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

// MaxFetches bounds the pictures being downloaded at once by the whole
// process (each holds up to MaxBytes before its decode takes its share of
// the Budget): at most 80 MB of downloads, whatever the number of requests.
const MaxFetches = 8

// fetchSlots holds the downloads in flight.
var fetchSlots = make(chan struct{}, MaxFetches)

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
// what went wrong (unreachable, refused address, not 200, too large in
// bytes or pixels, not an image); rate_limited when the Budget or the
// download slots stay full.
func (f Fetcher) FetchImage(ctx context.Context, field, url string) (*app.Media, error) {
	select {
	case fetchSlots <- struct{}{}:
	case <-ctx.Done():
		return nil, &app.Error{Code: app.ERateLimited, Message: "the server is fetching other pictures: retry in a minute", RetryAfter: 60}
	}
	data, err := f.Get(ctx, url, MaxBytes)
	<-fetchSlots
	if err != nil {
		if errors.Is(err, ErrTooLarge) || (f.TooLarge != nil && errors.Is(err, f.TooLarge)) {
			return nil, app.Invalid(field, url+": the picture is larger than 10 MB")
		}
		return nil, app.Invalid(field, url+": cannot be fetched: "+err.Error())
	}
	res, err := Process(field, data)
	if err != nil {
		var ae *app.Error
		if errors.As(err, &ae) && (ae.Code == app.EValidation || ae.Code == app.EPayloadTooLarge) {
			msg := ae.Fields[field]
			if msg == "" {
				msg = ae.Message
			}
			return nil, app.Invalid(field, url+": "+msg) // a picture too big to process is the URL's problem
		}
		return nil, err
	}
	return &app.Media{Hash: res.Hash, Ext: res.Ext, Files: res.Files}, nil
}
