package admin

import "github.com/gofiber/fiber/v2"

func (h *Handler) registerOutboxRoutes(r fiber.Router) {}
