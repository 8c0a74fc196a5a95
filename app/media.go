package app

import (
	"slices"
	"strconv"
	"strings"
)

// Media is an uploaded image of a store: its renditions, one per width,
// addressed by the SHA-256 of the uploaded bytes. The blobs live apart from
// the product records (products hold only URLs), and a reference count,
// kept by PutProduct and DeleteProduct from the products' images, frees them
// when no product uses them any more.
type Media struct {
	StoreID uint64
	Hash    string // hex SHA-256 of the upload
	Ext     string // "jpg" or "png"
	Files   map[int][]byte
}

// MediaFile is one stored rendition.
type MediaFile struct {
	Hash  string
	Width int
	Ext   string
	Data  []byte
}

// ContentType is the rendition's media type.
func (f *MediaFile) ContentType() string {
	if f.Ext == "png" {
		return "image/png"
	}
	return "image/jpeg"
}

// MediaWidths are the widths every upload is stored in; the product's images
// list the largest, and the others are the same URL with another width.
var MediaWidths = []int{160, 480, 1200}

// MediaTx stores uploaded images.
type MediaTx interface {
	// PutMedia stores an image's renditions; an image already stored is kept
	// as it is. A new image starts with no reference: the product write in
	// the same transaction that lists its URL counts it.
	PutMedia(m *Media) error
	// MediaFile returns one rendition. Errors: not_found.
	MediaFile(storeID uint64, hash string, width int) (*MediaFile, error)
	// MediaRefs is how many products use an image (0 when it is not stored).
	MediaRefs(storeID uint64, hash string) (int64, error)
}

// MediaPath is the path an image rendition is served at:
// /media/{store}/{sha256}-{width}.{ext}.
func MediaPath(storeID uint64, hash string, width int, ext string) string {
	return "/media/" + strconv.FormatUint(storeID, 10) + "/" + hash + "-" + strconv.Itoa(width) + "." + ext
}

// MediaRef is an uploaded image named by a URL.
type MediaRef struct {
	StoreID uint64
	Hash    string
	Width   int
	Ext     string
}

// ParseMediaFile reads "{sha256}-{width}.{ext}".
func ParseMediaFile(name string) (hash string, width int, ext string, ok bool) {
	base, ext, found := strings.Cut(name, ".")
	if !found || (ext != "jpg" && ext != "png") {
		return "", 0, "", false
	}
	hash, ws, found := strings.Cut(base, "-")
	if !found || len(hash) != 64 || strings.Trim(hash, "0123456789abcdef") != "" {
		return "", 0, "", false
	}
	w, err := strconv.Atoi(ws)
	if err != nil || !slices.Contains(MediaWidths, w) {
		return "", 0, "", false
	}
	return hash, w, ext, true
}

// ParseMediaURL recognises the URL (or path) of an uploaded image, whatever
// its host: ".../media/{store}/{sha256}-{width}.{ext}". Storage counts
// references with it, so adding and removing a URL always count alike.
func ParseMediaURL(u string) (MediaRef, bool) {
	i := strings.Index(u, "/media/")
	if i < 0 {
		return MediaRef{}, false
	}
	rest := u[i+len("/media/"):]
	sid, file, found := strings.Cut(rest, "/")
	if !found {
		return MediaRef{}, false
	}
	id, err := strconv.ParseUint(sid, 10, 64)
	if err != nil || id == 0 {
		return MediaRef{}, false
	}
	hash, w, ext, ok := ParseMediaFile(file)
	if !ok {
		return MediaRef{}, false
	}
	return MediaRef{StoreID: id, Hash: hash, Width: w, Ext: ext}, true
}

// MediaHashes are the distinct uploaded images of this store a list of image
// URLs names (a product counts once per image, however often it lists it).
func MediaHashes(storeID uint64, images []string) []string {
	var out []string
	for _, u := range images {
		if r, ok := ParseMediaURL(u); ok && r.StoreID == storeID && !slices.Contains(out, r.Hash) {
			out = append(out, r.Hash)
		}
	}
	return out
}

// AddProductImages stores uploaded images and appends their URLs (the
// largest width, absolute with the public URL) to the product's images, in
// one transaction. Errors: not_found, validation_failed (too many images).
func (cs *CatalogService) AddProductImages(storeID, id uint64, media []Media) (*Product, error) {
	var p *Product
	err := cs.s.DB.Update(func(tx Tx) error {
		var err error
		if p, err = tx.Product(storeID, id); err != nil {
			return err
		}
		if err := cs.attachMedia(tx, p, media); err != nil {
			return err
		}
		p.UpdatedAt = UTC(tx.Now())
		return tx.PutProduct(p)
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// attachMedia stores media (decoded uploads) in tx and adds their largest
// renditions to p's images (at most MaxProductImages: validation_failed).
func (cs *CatalogService) attachMedia(tx Tx, p *Product, media []Media) error {
	base := strings.TrimSuffix(cs.s.PublicURL, "/")
	largest := MediaWidths[len(MediaWidths)-1]
	for i := range media {
		m := &media[i]
		m.StoreID = p.StoreID
		if err := tx.PutMedia(m); err != nil {
			return err
		}
		u := base + MediaPath(p.StoreID, m.Hash, largest, m.Ext)
		if !slices.Contains(p.Images, u) {
			p.Images = append(p.Images, u)
		}
	}
	if len(p.Images) > MaxProductImages {
		return Invalid("file", "a product has at most "+itoa(MaxProductImages)+" images")
	}
	return nil
}

// SetProductImages reorders or removes a product's images: images must be
// some of the product's current images, each once, in the new order (adding
// goes through upload or the product's images field). A removed upload that
// no product uses any more is deleted. Errors: not_found, validation_failed.
func (cs *CatalogService) SetProductImages(storeID, id uint64, images []string) (*Product, error) {
	var p *Product
	err := cs.s.DB.Update(func(tx Tx) error {
		var err error
		if p, err = tx.Product(storeID, id); err != nil {
			return err
		}
		seen := map[string]bool{}
		for i, u := range images {
			if !slices.Contains(p.Images, u) {
				return Invalid("images["+itoa(i)+"]", "is not an image of this product")
			}
			if seen[u] {
				return Invalid("images["+itoa(i)+"]", "is listed twice")
			}
			seen[u] = true
		}
		p.Images = slices.Clone(images)
		p.UpdatedAt = UTC(tx.Now())
		return tx.PutProduct(p)
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// DeleteProductImage removes the image at index (0-based) from a product.
// Errors: not_found (product or index).
func (cs *CatalogService) DeleteProductImage(storeID, id uint64, index int) (*Product, error) {
	p, err := cs.Product(storeID, id)
	if err != nil {
		return nil, err
	}
	if index < 0 || index >= len(p.Images) {
		return nil, NotFound("image")
	}
	return cs.SetProductImages(storeID, id, slices.Delete(slices.Clone(p.Images), index, index+1))
}

// MediaFile returns one rendition of an uploaded image. Errors: not_found.
func (cs *CatalogService) MediaFile(storeID uint64, hash string, width int) (*MediaFile, error) {
	return view(cs.s.DB, func(tx Tx) (*MediaFile, error) { return tx.MediaFile(storeID, hash, width) })
}

// MediaRefs is how many products use an uploaded image (0: not stored).
func (cs *CatalogService) MediaRefs(storeID uint64, hash string) (int64, error) {
	return view(cs.s.DB, func(tx Tx) (int64, error) { return tx.MediaRefs(storeID, hash) })
}

// MaxImageAltLen bounds an image's alt text.
const MaxImageAltLen = 300

// SetProductImageAlt sets the alt text of the image at index (0-based; ""
// removes it). Alt texts of images no longer on the product are dropped.
// Errors: validation_failed, not_found (product or index).
func (cs *CatalogService) SetProductImageAlt(storeID, id uint64, index int, alt string) (*Product, error) {
	alt = strings.TrimSpace(alt)
	var v Validation
	v.Text("alt", alt, false, MaxImageAltLen)
	if err := v.Err(); err != nil {
		return nil, err
	}
	var p *Product
	err := cs.s.DB.Update(func(tx Tx) error {
		var err error
		if p, err = tx.Product(storeID, id); err != nil {
			return err
		}
		if index < 0 || index >= len(p.Images) {
			return NotFound("image")
		}
		alts := map[string]string{}
		for u, a := range p.ImageAlts {
			if slices.Contains(p.Images, u) {
				alts[u] = a
			}
		}
		if alt == "" {
			delete(alts, p.Images[index])
		} else {
			alts[p.Images[index]] = alt
		}
		p.ImageAlts = alts
		if len(alts) == 0 {
			p.ImageAlts = nil
		}
		p.UpdatedAt = UTC(tx.Now())
		return tx.PutProduct(p)
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}
