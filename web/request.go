package web

import "github.com/gofiber/fiber/v2"

func (s *Server) registerRequestRoutes(r fiber.Router) {}
