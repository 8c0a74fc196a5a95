package admin

import "github.com/gofiber/fiber/v2"

// registerPanel mounts the server-rendered panel at /admin/.
func (h *Handler) registerPanel(r fiber.Router) {}
