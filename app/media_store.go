package app

import "strings"

// StoreMedia stores an image's renditions for a store and returns its URL
// (the largest width, absolute with the public URL), as AddProductImages
// writes it. Until a product lists the URL the image has no reference; a
// store's other pictures (logo, banners, category images) keep it so.
func (cs *CatalogService) StoreMedia(storeID uint64, m Media) (string, error) {
	m.StoreID = storeID
	if err := cs.s.DB.Update(func(tx Tx) error { return tx.PutMedia(&m) }); err != nil {
		return "", err
	}
	return strings.TrimSuffix(cs.s.PublicURL, "/") + MediaPath(storeID, m.Hash, MediaWidths[len(MediaWidths)-1], m.Ext), nil
}
