package postgres

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"storefront/app"
)

// Uploaded images: one media row per image with its reference count (the
// products whose images name it), and its renditions in media_files. The
// bbolt backend keeps the same two records (buckets media_refs and media).

// mediaRow is the media row; its JSON is the bbolt media_refs record.
type mediaRow struct {
	Ext    string `json:"ext"`
	Widths []int  `json:"widths"`
	Count  int64  `json:"count"`
}

func mediaHash(hash string) ([]byte, bool) {
	h, err := hex.DecodeString(hash)
	return h, err == nil && len(h) == 32
}

func (t *Tx) mediaRow(storeID uint64, h []byte) (*mediaRow, error) {
	if err := t.lock(storeID); err != nil {
		return nil, err
	}
	var r mediaRow
	var widths []int32
	err := t.queryRow(`SELECT ext, widths, refs FROM media WHERE store_id = $1 AND hash = $2`, i64(storeID), h).Scan(&r.Ext, &widths, &r.Count)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, t.fail(fmt.Errorf("postgres: read media: %w", err))
	}
	for _, w := range widths {
		r.Widths = append(r.Widths, int(w))
	}
	return &r, nil
}

// PutMedia stores an image's renditions unless it is stored already.
func (t *Tx) PutMedia(m *app.Media) error {
	h, ok := mediaHash(m.Hash)
	if !ok {
		return app.Invalid("file", "bad image hash")
	}
	if r, err := t.mediaRow(m.StoreID, h); err != nil || r != nil {
		return err
	}
	var widths []int32
	for w, data := range m.Files {
		if err := t.exec(m.StoreID, "put media file", `INSERT INTO media_files (store_id, hash, width, data) VALUES ($1, $2, $3, $4)`,
			i64(m.StoreID), h, int32(w), data); err != nil {
			return err
		}
		widths = append(widths, int32(w))
	}
	slices.Sort(widths)
	return t.exec(m.StoreID, "put media", `INSERT INTO media (store_id, hash, ext, widths, refs) VALUES ($1, $2, $3, $4, 0)`,
		i64(m.StoreID), h, m.Ext, widths)
}

// MediaFile returns one rendition.
func (t *Tx) MediaFile(storeID uint64, hash string, width int) (*app.MediaFile, error) {
	h, ok := mediaHash(hash)
	if !ok {
		return nil, app.NotFound("image")
	}
	if err := t.lock(storeID); err != nil {
		return nil, err
	}
	f := app.MediaFile{Hash: hash, Width: width}
	err := t.queryRow(`SELECT m.ext, f.data FROM media m JOIN media_files f ON f.store_id = m.store_id AND f.hash = m.hash
		WHERE m.store_id = $1 AND m.hash = $2 AND f.width = $3`, i64(storeID), h, int32(width)).Scan(&f.Ext, &f.Data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, app.NotFound("image")
	}
	if err != nil {
		return nil, t.fail(fmt.Errorf("postgres: read media file: %w", err))
	}
	return &f, nil
}

// MediaRefs is how many products use an image (0 when it is not stored).
func (t *Tx) MediaRefs(storeID uint64, hash string) (int64, error) {
	h, ok := mediaHash(hash)
	if !ok {
		return 0, nil
	}
	r, err := t.mediaRow(storeID, h)
	if err != nil || r == nil {
		return 0, err
	}
	return r.Count, nil
}

// retainMedia moves the reference counts from the uploaded images of before
// to those of after (one product's images), deleting an image that loses its
// last reference, and refusing a URL that names an upload of this store that
// is not stored (as the bbolt backend does).
func (t *Tx) retainMedia(storeID uint64, before, after []string) error {
	oldH, newH := app.MediaHashes(storeID, before), app.MediaHashes(storeID, after)
	for _, h := range newH {
		if !slices.Contains(oldH, h) {
			if err := t.addMediaRef(storeID, h, 1); err != nil {
				return err
			}
		}
	}
	for _, h := range oldH {
		if !slices.Contains(newH, h) {
			if err := t.addMediaRef(storeID, h, -1); err != nil {
				return err
			}
		}
	}
	return nil
}

func (t *Tx) addMediaRef(storeID uint64, hash string, delta int64) error {
	h, ok := mediaHash(hash)
	if !ok {
		return app.NotFound("image")
	}
	r, err := t.mediaRow(storeID, h)
	if err != nil {
		return err
	}
	if r == nil {
		if delta > 0 {
			return app.Invalid("images", "names an uploaded image that does not exist: upload it again")
		}
		return nil // already gone
	}
	if r.Count+delta > 0 {
		return t.exec(storeID, "count media", `UPDATE media SET refs = refs + $3 WHERE store_id = $1 AND hash = $2`, i64(storeID), h, delta)
	}
	if err := t.exec(storeID, "delete media files", `DELETE FROM media_files WHERE store_id = $1 AND hash = $2`, i64(storeID), h); err != nil {
		return err
	}
	return t.exec(storeID, "delete media", `DELETE FROM media WHERE store_id = $1 AND hash = $2`, i64(storeID), h)
}

// Import of the bbolt buckets: media_refs (sid|sha256 -> JSON) and media
// (sid|sha256|width -> bytes), written as they are (counts included).
var (
	importMediaRefs = importSpec{
		table: "media",
		put: func(t *Tx, k, v []byte) error {
			if len(k) != 40 {
				return fmt.Errorf("bad media key %x", k)
			}
			var r mediaRow
			if err := json.Unmarshal(v, &r); err != nil {
				return err
			}
			widths := make([]int32, 0, len(r.Widths))
			for _, w := range r.Widths {
				widths = append(widths, int32(w))
			}
			sid := binary.BigEndian.Uint64(k)
			return t.exec(sid, "import media", `INSERT INTO media (store_id, hash, ext, widths, refs) VALUES ($1, $2, $3, $4, $5)`,
				i64(sid), k[8:], r.Ext, widths, r.Count)
		},
		get: func(t *Tx, k, _ []byte) (any, error) {
			r, err := t.mediaRow(binary.BigEndian.Uint64(k), k[8:])
			if err == nil && r == nil {
				err = app.NotFound("image")
			}
			return r, err
		},
		norm: func(v []byte) ([]byte, error) {
			var r mediaRow
			if err := json.Unmarshal(v, &r); err != nil {
				return nil, err
			}
			return json.Marshal(r)
		},
	}
	importMediaFiles = importSpec{
		table: "media_files",
		put: func(t *Tx, k, v []byte) error {
			if len(k) != 48 {
				return fmt.Errorf("bad media file key %x", k)
			}
			sid := binary.BigEndian.Uint64(k)
			return t.exec(sid, "import media file", `INSERT INTO media_files (store_id, hash, width, data) VALUES ($1, $2, $3, $4)`,
				i64(sid), k[8:40], int32(binary.BigEndian.Uint64(k[40:])), v)
		},
		get: func(t *Tx, k, _ []byte) (any, error) {
			sid := binary.BigEndian.Uint64(k)
			if err := t.lock(sid); err != nil {
				return nil, err
			}
			var data []byte
			err := t.queryRow(`SELECT data FROM media_files WHERE store_id = $1 AND hash = $2 AND width = $3`,
				i64(sid), k[8:40], int32(binary.BigEndian.Uint64(k[40:]))).Scan(&data)
			return data, err
		},
		// The bytes, compared as a JSON string (base64), like get's answer.
		norm: func(v []byte) ([]byte, error) { return json.Marshal(v) },
	}
)

func init() {
	importSpecs["media_refs"] = importMediaRefs
	importSpecs["media"] = importMediaFiles
}
