package admin

import "github.com/gofiber/fiber/v2"

func (h *Handler) registerTicketRoutes(r fiber.Router) {}
