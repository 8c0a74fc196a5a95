package storage

import (
	bolt "go.etcd.io/bbolt"

	"storefront/app"
)

// The slug index upkeep of the four entities with slugs (categories,
// products, blog posts, bundles): a bucket sid|slug -> id per entity.

// slugFree returns conflict when slug belongs to another record than id
// (0: a record not yet created).
func slugFree(b *bolt.Bucket, sid uint64, slug string, id uint64) error {
	if v := b.Get(keyOf(sid).last(slug)); v != nil && idFromKeyEnd(v) != id {
		return &app.Error{Code: app.EConflict, Message: "slug is taken", Fields: map[string]string{"slug": "is taken"}}
	}
	return nil
}

// putSlug points slug at id, first freeing old (the record's previous slug;
// "" when there is none to free).
func putSlug(b *bolt.Bucket, sid uint64, old, slug string, id uint64) error {
	if old != "" && old != slug {
		if err := b.Delete(keyOf(sid).last(old)); err != nil {
			return err
		}
	}
	return b.Put(keyOf(sid).last(slug), u64(id))
}
