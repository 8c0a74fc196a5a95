package app

import (
	"errors"
	"fmt"
)

// Error codes. They are the error_code values of decisions.md §2; the web layer
// maps each to its HTTP status in one table.
const (
	EValidation        = "validation_failed"
	EInvalidAPIKey     = "invalid_api_key"
	EStoreInactive     = "store_inactive"
	EUnauthorized      = "unauthorized"
	EInvalidCreds      = "invalid_credentials"
	EEmailNotVerified  = "email_not_verified"
	EForbidden         = "forbidden"
	ENotFound          = "not_found"
	EConflict          = "conflict"
	EInvalidOrderState = "invalid_order_state"
	EPriceChanged      = "price_changed"
	EOutOfStock        = "out_of_stock"
	EPayloadTooLarge   = "payload_too_large"
	ERateLimited       = "rate_limited"
	// EProviderUnavailable: the payment provider could not be reached or used (502).
	EProviderUnavailable = "payment_provider_unavailable"
	// EProviderDeclined: the payment provider refused the call, e.g. a refund (409).
	EProviderDeclined = "payment_provider_declined"
	// ETestPaymentsRefused: a live store (payments_live) refuses the test sandbox (409).
	ETestPaymentsRefused = "test_payments_refused"
	// ENoPaymentMethod: the store accepts no payment method at all (none
	// offered, none configured, or only test ones on a live store) (409).
	ENoPaymentMethod = "no_payment_method"
	EInternal        = "internal"
	// Codes beyond the contract's table (docs/decisions.md, "Errors, envelope, lists and cursors").
	ERequestTimeout  = "request_timeout"           // 408: the request did not arrive in time
	EHeadersTooLarge = "request_headers_too_large" // 431: request line or headers over the limit
	EStorageFull     = "storage_full"              // 507: the disk is full; retry later
	// EStorageUnavailable: the database cannot be reached (lost, restarting);
	// nothing was written, retry after RetryAfter seconds (503).
	EStorageUnavailable = "storage_unavailable"
	// ETOTPRequired: the password was right; the account's second factor
	// (totp_code or recovery_code) is missing (401).
	ETOTPRequired = "totp_required"
)

// Codes lists every error code above (TestCodesComplete reads the const
// block and fails on a code missing here); the HTTP layer's status table is
// tested to name each of them and nothing else.
var Codes = []string{EValidation, EInvalidAPIKey, EStoreInactive, EUnauthorized, EInvalidCreds,
	EEmailNotVerified, EForbidden, ENotFound, EConflict, EInvalidOrderState, EPriceChanged,
	EOutOfStock, EPayloadTooLarge, ERateLimited, EProviderUnavailable, EProviderDeclined,
	ETestPaymentsRefused, ENoPaymentMethod, EInternal, ETOTPRequired, ERequestTimeout, EHeadersTooLarge, EStorageFull, EStorageUnavailable}

// Error is a domain error: a code from the list above, a message safe to show
// to the client, and for validation the per-field messages.
type Error struct {
	Code    string
	Message string
	Fields  map[string]string
	// RetryAfter is the number of seconds a rate-limited client should wait.
	RetryAfter int
}

func (e *Error) Error() string {
	if len(e.Fields) > 0 {
		return fmt.Sprintf("%s: %s %v", e.Code, e.Message, e.Fields)
	}
	return e.Code + ": " + e.Message
}

// Errorf returns an *Error with the code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// NotFound returns the not_found error for a kind of thing ("product").
// It never says whether the thing exists elsewhere.
func NotFound(what string) *Error {
	return &Error{Code: ENotFound, Message: what + " not found"}
}

// Invalid returns a validation_failed error for one field.
func Invalid(field, msg string) *Error {
	return &Error{Code: EValidation, Message: "validation failed", Fields: map[string]string{field: msg}}
}

// ErrorCode returns the code of err: the Code of an *Error in its chain,
// "" for nil, and EInternal for anything else.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EInternal
}

// ErrorMessage returns the client-safe message of err. Foreign errors are
// never shown: they read "internal error".
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "internal error"
}

// IsNotFound reports whether err carries the not_found code.
func IsNotFound(err error) bool { return ErrorCode(err) == ENotFound }
