package admin

import (
	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit"
)

func (h *Handler) registerBackupRoutes(r fiber.Router) {
	r.Post("/backups", h.createBackup)
	r.Get("/backups", h.listBackups)
}

type backupView struct {
	File      string `json:"file"`
	SizeBytes int64  `json:"size_bytes"`
}

// createBackup serves POST /api/v1/admin/backups/ (owner): a consistent copy
// of the live database in the backups folder -> data {file, size_bytes}.
func (h *Handler) createBackup(c *fiber.Ctx) error {
	if h.cfg.Backup == nil {
		return app.Errorf(app.ENotFound, "backups are not configured on this server")
	}
	file, size, err := h.cfg.Backup()
	if err != nil {
		return err
	}
	h.svc.Log.Info("backup made from the admin API", "file", file, "size_bytes", size, "admin_id", adminOf(c).ID)
	return httpkit.OK(c, backupView{File: file, SizeBytes: size})
}

// listBackups serves GET /api/v1/admin/backups/ (owner): the backup files,
// newest first, as a complete set.
func (h *Handler) listBackups(c *fiber.Ctx) error {
	if h.cfg.Backups == nil {
		return app.Errorf(app.ENotFound, "backups are not configured on this server")
	}
	files, err := h.cfg.Backups()
	if err != nil {
		return err
	}
	return httpkit.SendAll(c, files, func(f BackupFile) any { return f })
}
