package shop

import "github.com/gofiber/fiber/v2"

// cartMessages are the strings of the cart and checkout pages.
var cartMessages = map[string]string{}

// registerCartRoutes adds the cart and checkout pages.
func (s *Shop) registerCartRoutes(a *fiber.App) {}
