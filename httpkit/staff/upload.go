package staff

import (
	"errors"
	"io"
	"mime/multipart"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/app/imaging"
)

// MaxUploadFiles is how many files one upload request may carry.
const MaxUploadFiles = 10

// ReadUploads reads and processes the multipart `file` parts of a request.
// Errors: validation_failed (no file, not an image), payload_too_large.
func ReadUploads(c *fiber.Ctx) ([]app.Media, error) {
	form, err := c.MultipartForm()
	if err != nil {
		if errors.Is(err, fiber.ErrRequestEntityTooLarge) {
			return nil, err
		}
		return nil, app.Invalid("file", "send the image(s) as multipart/form-data in the field file")
	}
	files := form.File["file"]
	if len(files) == 0 {
		return nil, app.Invalid("file", "no file: send the image(s) in the multipart field file")
	}
	if len(files) > MaxUploadFiles {
		return nil, app.Invalid("file", "at most "+strconv.Itoa(MaxUploadFiles)+" files per request")
	}
	out := make([]app.Media, 0, len(files))
	for i, fh := range files {
		field := "file"
		if len(files) > 1 {
			field = "file[" + strconv.Itoa(i) + "]"
		}
		data, err := readPart(fh, field)
		if err != nil {
			return nil, err
		}
		res, err := imaging.Process(field, data)
		if err != nil {
			return nil, err
		}
		out = append(out, app.Media{Hash: res.Hash, Ext: res.Ext, Files: res.Files})
	}
	return out, nil
}

func readPart(fh *multipart.FileHeader, field string) ([]byte, error) {
	if fh.Size > imaging.MaxBytes {
		return nil, &app.Error{Code: app.EPayloadTooLarge, Message: field + ": an image may be at most 10 MB"}
	}
	f, err := fh.Open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, imaging.MaxBytes+1))
}

// MaxShipCSV bounds a bulk shipping file (500 rows of long tracking links fit).
const MaxShipCSV = 1 << 20

// BulkShipResult is the answer of a bulk shipment: counts and each row.
type BulkShipResult struct {
	Shipped int              `json:"shipped"`
	Errors  int              `json:"errors"`
	Results []app.ShipResult `json:"results"`
}

func NewBulkShipResult(res []app.ShipResult) BulkShipResult {
	out := BulkShipResult{Results: res}
	for _, r := range res {
		if r.Status == "shipped" {
			out.Shipped++
		} else {
			out.Errors++
		}
	}
	return out
}
