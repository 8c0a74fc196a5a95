package admin

import "github.com/gofiber/fiber/v2"

func (h *Handler) registerReviewRoutes(r fiber.Router) {}
