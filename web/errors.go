package web

import (
	"errors"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

type errorBody struct {
	Status     bool              `json:"status"`
	StatusCode int               `json:"status_code"`
	Message    string            `json:"message"`
	Data       any               `json:"data"`
	ErrorCode  string            `json:"error_code"`
	Errors     map[string]string `json:"errors,omitempty"`
}

// ErrorHandler writes every error as the envelope. Errors that are not
// app errors are logged with the request id and answered "internal error".
func (s *Server) ErrorHandler(c *fiber.Ctx, err error) error {
	var fe *fiber.Error
	if errors.As(err, &fe) {
		switch fe.Code {
		case fiber.StatusRequestEntityTooLarge:
			err = app.Errorf(app.EPayloadTooLarge, "the request body is too large (1 MiB; uploads 32 MiB)")
		case fiber.StatusNotFound:
			err = app.Errorf(app.ENotFound, "no such endpoint")
		case fiber.StatusMethodNotAllowed:
			err = &app.Error{Code: app.ENotFound, Message: "method not allowed"}
		case fiber.StatusBadRequest, fiber.StatusUnprocessableEntity:
			err = app.Errorf(app.EValidation, "%s", fe.Message)
		case fiber.StatusRequestTimeout:
			err = app.Errorf(app.ERequestTimeout, "the request did not arrive in time")
		case fiber.StatusRequestHeaderFieldsTooLarge:
			err = app.Errorf(app.EHeadersTooLarge, "the request line and headers must fit in %d bytes", HeaderLimit)
		case fiber.StatusBadGateway: // a network error while reading the request
			err = app.Errorf(app.EValidation, "the request could not be read")
		}
	}
	code := app.ErrorCode(err)
	status := httpkit.StatusOf(code)
	if code == app.EInternal {
		s.log.Error("internal error", "request_id", requestID(c), "store_id", storeIDOf(c),
			"method", c.Method(), "path", c.Path(), "err", err.Error())
	}
	c.Set(headerNosniff, "nosniff") // errors of the server itself bypass the middleware
	var ae *app.Error
	body := errorBody{StatusCode: status, Message: app.ErrorMessage(err), ErrorCode: code}
	if errors.As(err, &ae) {
		body.Errors = ae.Fields
	}
	httpkit.RetryAfter(c, err)
	return c.Status(status).JSON(body)
}
