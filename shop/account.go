package shop

import "github.com/gofiber/fiber/v2"

// accountMessages are the strings of the account pages.
var accountMessages = map[string]string{}

// registerAccountRoutes adds the account pages.
func (s *Shop) registerAccountRoutes(a *fiber.App) {}
