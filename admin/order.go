package admin

import "github.com/gofiber/fiber/v2"

func (h *Handler) registerOrderRoutes(r fiber.Router) {}
