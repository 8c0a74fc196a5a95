package web

import "github.com/gofiber/fiber/v2"

func (s *Server) registerCheckoutRoutes(r fiber.Router) {}
