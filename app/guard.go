package app

import "time"

// RateLimited is the rate_limited error telling the client to wait d.
func RateLimited(message string, d time.Duration) *Error {
	secs := int((d + time.Second - 1) / time.Second)
	if secs < 1 {
		secs = 1
	}
	return &Error{Code: ERateLimited, Message: message, RetryAfter: secs}
}
