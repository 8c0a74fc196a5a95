package admin

import "github.com/gofiber/fiber/v2"

func (h *Handler) registerContactRoutes(r fiber.Router) {}
