package web

import "github.com/gofiber/fiber/v2"

func (s *Server) registerAddressRoutes(r fiber.Router) {}
