package httpkit

import (
	"errors"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
)

// statusOf maps each error code to its HTTP status (decisions.md §2). It is
// the only such table: the JSON APIs and the panel's pages both use it, and a
// test checks that it names every code of app.Codes.
var statusOf = map[string]int{
	app.EValidation:          fiber.StatusBadRequest,
	app.EInvalidAPIKey:       fiber.StatusUnauthorized,
	app.EStoreInactive:       fiber.StatusForbidden,
	app.EUnauthorized:        fiber.StatusUnauthorized,
	app.EInvalidCreds:        fiber.StatusUnauthorized,
	app.ETOTPRequired:        fiber.StatusUnauthorized,
	app.EEmailNotVerified:    fiber.StatusForbidden,
	app.EForbidden:           fiber.StatusForbidden,
	app.ENotFound:            fiber.StatusNotFound,
	app.EConflict:            fiber.StatusConflict,
	app.EInvalidOrderState:   fiber.StatusConflict,
	app.EPriceChanged:        fiber.StatusConflict,
	app.EOutOfStock:          fiber.StatusConflict,
	app.EPayloadTooLarge:     fiber.StatusRequestEntityTooLarge,
	app.ERateLimited:         fiber.StatusTooManyRequests,
	app.ERequestTimeout:      fiber.StatusRequestTimeout,
	app.EHeadersTooLarge:     fiber.StatusRequestHeaderFieldsTooLarge,
	app.EStorageFull:         fiber.StatusInsufficientStorage,
	app.EStorageUnavailable:  fiber.StatusServiceUnavailable,
	app.EProviderUnavailable: fiber.StatusBadGateway,
	app.EProviderDeclined:    fiber.StatusConflict,
	app.ETestPaymentsRefused: fiber.StatusConflict,
	app.ENoPaymentMethod:     fiber.StatusConflict,
	app.EInternal:            fiber.StatusInternalServerError,
}

// StatusOf returns the HTTP status of an error code; an unknown code is 500.
func StatusOf(code string) int {
	if st, ok := statusOf[code]; ok {
		return st
	}
	return fiber.StatusInternalServerError
}

// StatusOfError returns the HTTP status of err (app.ErrorCode: anything that
// is not an *app.Error is internal, 500).
func StatusOfError(err error) int { return StatusOf(app.ErrorCode(err)) }

// RetryAfter sets Retry-After for an error that says when to come back (a
// 429, a 503 while the database is lost): the API's answers and the
// shop's pages alike.
func RetryAfter(c *fiber.Ctx, err error) {
	var e *app.Error
	if errors.As(err, &e) && e.RetryAfter > 0 {
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(e.RetryAfter))
	}
}
