package storage

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"

	"storefront/app"
)

// Uploaded images: the renditions apart from the product records (a product
// holds only URLs, so lists never read image bytes), and a reference count
// per image that PutProduct and DeleteProduct keep in their transaction.
type mediaRefs struct {
	Ext    string `json:"ext"`
	Widths []int  `json:"widths"`
	Count  int64  `json:"count"` // products whose images name it
}

func mediaHashKey(storeID uint64, hash string) ([]byte, error) {
	h, err := hex.DecodeString(hash)
	if err != nil || len(h) != 32 {
		return nil, app.NotFound("image")
	}
	return []byte(keyOf(storeID).raw(h)), nil
}

func (t *Tx) mediaRefs(k []byte) (*mediaRefs, error) {
	v := t.b(bMediaRefs).Get(k)
	if v == nil {
		return nil, nil
	}
	var r mediaRefs
	if err := json.Unmarshal(v, &r); err != nil {
		return nil, fmt.Errorf("storage: decode media refs: %w", err)
	}
	return &r, nil
}

// PutMedia stores an image's renditions unless it is stored already.
func (t *Tx) PutMedia(m *app.Media) error {
	k, err := mediaHashKey(m.StoreID, m.Hash)
	if err != nil {
		return app.Invalid("file", "bad image hash")
	}
	if r, err := t.mediaRefs(k); err != nil || r != nil {
		return err
	}
	r := mediaRefs{Ext: m.Ext}
	for w, data := range m.Files {
		if err := t.b(bMedia).Put(binary.BigEndian.AppendUint64(slices.Clone(k), uint64(w)), data); err != nil {
			return err
		}
		r.Widths = append(r.Widths, w)
	}
	slices.Sort(r.Widths)
	return putJSON(t.b(bMediaRefs), k, r)
}

// MediaFile returns one rendition (a copy: the bytes outlive the transaction).
func (t *Tx) MediaFile(storeID uint64, hash string, width int) (*app.MediaFile, error) {
	k, err := mediaHashKey(storeID, hash)
	if err != nil {
		return nil, err
	}
	r, err := t.mediaRefs(k)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, app.NotFound("image")
	}
	v := t.b(bMedia).Get(binary.BigEndian.AppendUint64(k, uint64(width)))
	if v == nil {
		return nil, app.NotFound("image")
	}
	return &app.MediaFile{Hash: hash, Width: width, Ext: r.Ext, Data: slices.Clone(v)}, nil
}

// MediaRefs is how many products use an image (0 when it is not stored).
func (t *Tx) MediaRefs(storeID uint64, hash string) (int64, error) {
	k, err := mediaHashKey(storeID, hash)
	if err != nil {
		return 0, nil
	}
	r, err := t.mediaRefs(k)
	if err != nil || r == nil {
		return 0, err
	}
	return r.Count, nil
}

// retainMedia moves the reference counts from the uploaded images of before
// to those of after (one product's images). An image that loses its last
// reference is deleted. A URL naming an upload of this store that is not
// stored is refused, so that a count never misses a user.
func (t *Tx) retainMedia(storeID uint64, before, after []string) error {
	oldH, newH := app.MediaHashes(storeID, before), app.MediaHashes(storeID, after)
	for _, h := range newH {
		if slices.Contains(oldH, h) {
			continue
		}
		if err := t.addMediaRef(storeID, h, 1); err != nil {
			return err
		}
	}
	for _, h := range oldH {
		if slices.Contains(newH, h) {
			continue
		}
		if err := t.addMediaRef(storeID, h, -1); err != nil {
			return err
		}
	}
	return nil
}

func (t *Tx) addMediaRef(storeID uint64, hash string, delta int64) error {
	k, err := mediaHashKey(storeID, hash)
	if err != nil {
		return err
	}
	r, err := t.mediaRefs(k)
	if err != nil {
		return err
	}
	if r == nil {
		if delta > 0 {
			return app.Invalid("images", "names an uploaded image that does not exist: upload it again")
		}
		return nil // already gone
	}
	r.Count += delta
	if r.Count > 0 {
		return putJSON(t.b(bMediaRefs), k, r)
	}
	for _, w := range r.Widths {
		if err := t.b(bMedia).Delete(binary.BigEndian.AppendUint64(slices.Clone(k), uint64(w))); err != nil {
			return err
		}
	}
	return t.b(bMediaRefs).Delete(k)
}
