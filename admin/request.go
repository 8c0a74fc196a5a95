package admin

import "github.com/gofiber/fiber/v2"

func (h *Handler) registerRequestRoutes(r fiber.Router) {}
