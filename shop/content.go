package shop

import "github.com/gofiber/fiber/v2"

// contentMessages are the strings of the blog, contact and content pages.
var contentMessages = map[string]string{}

// registerContentRoutes adds the blog, the contact form, the content
// pages, the sitemap and robots.txt.
func (s *Shop) registerContentRoutes(a *fiber.App) {}
