package storage

import "encoding/binary"

// Top-level buckets. Tenant buckets key everything by store id first.
var (
	bMeta            = []byte("meta")             // name -> value
	bSeq             = []byte("seq")              // sid|name -> uint64
	bStores          = []byte("stores")           // id -> store
	bStoreKeys       = []byte("store_keys")       // sha256(api key) -> id
	bStoreSubdomains = []byte("store_subdomains") // subdomain -> id
	bCategories      = []byte("categories")       // sid|id -> category
	bCategorySlugs   = []byte("category_slugs")   // sid|slug -> id
	bProducts        = []byte("products")         // sid|id -> product
	bProductDocs     = []byte("product_docs")     // sid|id -> app.Doc
	bProductSlugs    = []byte("product_slugs")    // sid|slug -> id
	bIdxProducts     = []byte("idx_products")     // sid|sort|value|id -> index entry
	bIdxCatProducts  = []byte("idx_cat_products") // sid|cid|sort|value|id -> index entry
	bCustomers       = []byte("customers")        // sid|id -> customer
	bCustomerEmails  = []byte("customer_emails")  // sid|email -> id
	bOrders          = []byte("orders")           // sid|id -> order
	bIdxOrdersCust   = []byte("idx_orders_customer")
	bIdxOrdersStatus = []byte("idx_orders_status")
	bAdmins          = []byte("admins")       // id -> admin user
	bAdminEmails     = []byte("admin_emails") // email -> id
	bOutbox          = []byte("outbox")       // sid|id -> mail
)

// allBuckets are created on open. Helpers add their buckets in their own files
// through registerBuckets.
var allBuckets = [][]byte{
	bMeta, bSeq, bStores, bStoreKeys, bStoreSubdomains, bCategories, bCategorySlugs,
	bProducts, bProductDocs, bProductSlugs, bIdxProducts, bIdxCatProducts,
	bCustomers, bCustomerEmails, bOrders, bIdxOrdersCust, bIdxOrdersStatus,
	bAdmins, bAdminEmails, bOutbox,
}

func registerBuckets(names ...[]byte) bool {
	allBuckets = append(allBuckets, names...)
	return true
}

// Sort codes of the product indexes.
const (
	sortNewest byte = 1
	sortPrice  byte = 2
	sortName   byte = 3
	sortRating byte = 4
)

// u64 encodes v big-endian.
func u64(v uint64) []byte { return binary.BigEndian.AppendUint64(make([]byte, 0, 8), v) }

// key joins parts into one key. uint64 parts are big-endian; strings are
// written as they are (callers terminate variable-length parts with 0x00).
func key(parts ...any) []byte {
	k := make([]byte, 0, 32)
	for _, p := range parts {
		switch v := p.(type) {
		case uint64:
			k = binary.BigEndian.AppendUint64(k, v)
		case byte:
			k = append(k, v)
		case []byte:
			k = append(k, v...)
		case string:
			k = append(k, v...)
		default:
			panic("storage: bad key part")
		}
	}
	return k
}

// str0 is a variable-length string part: the string without NULs, then 0x00,
// so that "ab" sorts before "abc" and no string can run into the next part.
func str0(s string) []byte {
	b := make([]byte, 0, len(s)+1)
	for i := 0; i < len(s); i++ {
		if s[i] != 0 {
			b = append(b, s[i])
		}
	}
	return append(b, 0)
}

// tenant is the 8-byte prefix of a store's keys.
func tenant(sid uint64) []byte { return u64(sid) }

// idFromKeyEnd reads the trailing 8-byte id of a key.
func idFromKeyEnd(k []byte) uint64 {
	if len(k) < 8 {
		return 0
	}
	return binary.BigEndian.Uint64(k[len(k)-8:])
}

// productIndexKeys returns a product's keys in the global index
// (sid|sort|value|id) and in its category's (sid|cid|sort|value|id).
func productIndexKeys(sid, pid, cid uint64, price int64, name string, rating uint64) (global, cat [][]byte) {
	vals := []struct {
		code byte
		val  []byte
	}{
		{sortNewest, nil},
		{sortPrice, u64(uint64(price))},
		{sortName, str0(name)},
		{sortRating, u64(rating)},
	}
	for _, v := range vals {
		global = append(global, key(sid, v.code, v.val, pid))
		if cid != 0 {
			cat = append(cat, key(sid, cid, v.code, v.val, pid))
		}
	}
	return global, cat
}
