package webhook

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
)

// maxRedirects is how many redirects Get follows (a CDN's image URL often
// answers with one); each dial is checked like the first.
const maxRedirects = 3

// ErrTooLarge is returned by Get for a body over its limit.
var ErrTooLarge = errors.New("webhook: the body is larger than allowed")

// Get fetches u with the webhooks' rules (the dial-time address check
// unless private targets are allowed, no proxy, the Sender's timeouts)
// and returns at most max bytes of its body. It follows up to three
// redirects to http(s) URLs. Errors say what went wrong in words a store
// owner reads: ErrPrivateTarget, ErrTooLarge, an answer other than 200, a
// timeout, a host that cannot be reached.
func (s *Sender) Get(ctx context.Context, u string, max int64) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, errors.New("is not a URL")
	}
	req.Header.Set("Accept", "image/*")
	resp, err := s.fetcher.Do(req)
	if err != nil {
		return nil, getError(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("the server answered %s", resp.Status)
	}
	if resp.ContentLength > max {
		return nil, worded{"it is larger than allowed", ErrTooLarge}
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return nil, getError(err)
	}
	if int64(len(data)) > max {
		return nil, ErrTooLarge
	}
	return data, nil
}

// worded is an error with a message for people that still is its cause
// for errors.Is.
type worded struct {
	msg string
	err error
}

func (w worded) Error() string { return w.msg }
func (w worded) Unwrap() error { return w.err }

// getError words a failed fetch.
func getError(err error) error {
	var ue *url.Error
	switch {
	case errors.Is(err, ErrPrivateTarget):
		return worded{"its host is a loopback, private or other special-purpose address (webhooks.allow_private_targets is off)", ErrPrivateTarget}
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded):
		return errors.New("the server did not answer in time")
	case errors.As(err, &ue) && strings.Contains(ue.Err.Error(), "redirect"):
		return ue.Err
	}
	return fmt.Errorf("the server could not be reached (%v)", unwrapURL(err))
}

func unwrapURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// checkRedirect follows up to maxRedirects redirects to http(s) URLs.
func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > maxRedirects {
		return errors.New("too many redirects")
	}
	if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
		return errors.New("a redirect to a URL that is not http(s)")
	}
	return nil
}
