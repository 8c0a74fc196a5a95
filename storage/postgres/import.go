package postgres

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"storefront/app"
)

// Importing a bbolt database (storefront migrate-data): the records of each
// bucket are decoded into their app type and written with their own ids
// through the same statements as the Tx methods; the indexes follow from the
// records. Sequences and secrets are copied, so ids continue where they were
// and tokens, cursors and payment signatures stay valid.

// importSpec is how one bbolt bucket of records lands in PostgreSQL.
type importSpec struct {
	table string
	// put writes the record; get reads it back (for the checksums).
	put func(t *Tx, k, v []byte) error
	get func(t *Tx, k, v []byte) (any, error)
	// norm is the record as the app type encodes it (nil: the raw bytes).
	norm func(v []byte) ([]byte, error)
}

func decodeInto[T any](v []byte) (*T, error) {
	var x T
	if err := json.Unmarshal(v, &x); err != nil {
		return nil, err
	}
	return &x, nil
}

// rec builds a spec of a JSON record with put and get on its decoded value.
func rec[T any](table string, put func(t *Tx, x *T) error, get func(t *Tx, x *T) (any, error)) importSpec {
	return importSpec{
		table: table,
		put: func(t *Tx, _, v []byte) error {
			x, err := decodeInto[T](v)
			if err != nil {
				return err
			}
			return put(t, x)
		},
		get: func(t *Tx, _, v []byte) (any, error) {
			x, err := decodeInto[T](v)
			if err != nil {
				return nil, err
			}
			return get(t, x)
		},
		norm: func(v []byte) ([]byte, error) {
			x, err := decodeInto[T](v)
			if err != nil {
				return nil, err
			}
			return json.Marshal(x)
		},
	}
}

// insertDoc writes a record with its own id and its raw JSON.
func (t *Tx) insertDoc(storeID uint64, table, cols string, args ...any) error {
	ph := make([]string, len(args))
	for i := range args {
		ph[i] = fmt.Sprintf("$%d", i+1)
	}
	return t.exec(storeID, "import "+table, "INSERT INTO "+table+" ("+cols+") VALUES ("+strings.Join(ph, ", ")+")", args...)
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }

var importSpecs = map[string]importSpec{
	"stores": rec("stores", func(t *Tx, s *app.Store) error { return t.PutStore(s) },
		func(t *Tx, s *app.Store) (any, error) { return t.Store(s.ID) }),
	"admins": rec("admins", func(t *Tx, u *app.AdminUser) error {
		return t.insertDoc(0, "admins", "id, email, doc", i64(u.ID), bs(u.Email), mustJSON(u))
	}, func(t *Tx, u *app.AdminUser) (any, error) { return t.Admin(u.ID) }),
	"categories": rec("categories", func(t *Tx, c *app.Category) error {
		return t.insertDoc(c.StoreID, "categories", "store_id, id, slug, doc", i64(c.StoreID), i64(c.ID), bs(c.Slug), mustJSON(c))
	}, func(t *Tx, c *app.Category) (any, error) { return t.Category(c.StoreID, c.ID) }),
	"products": rec("products", func(t *Tx, p *app.Product) error { return t.writeProduct(p) },
		func(t *Tx, p *app.Product) (any, error) { return t.Product(p.StoreID, p.ID) }),
	"customers": rec("customers", func(t *Tx, c *app.Customer) error {
		return t.insertDoc(c.StoreID, "customers", "store_id, id, email_key, doc", i64(c.StoreID), i64(c.ID), bs(app.NormalizeEmail(c.Email)), mustJSON(c))
	}, func(t *Tx, c *app.Customer) (any, error) { return t.Customer(c.StoreID, c.ID) }),
	"customer_sessions": rec("sessions", func(t *Tx, s *app.Session) error { return t.PutSession(s) },
		func(t *Tx, s *app.Session) (any, error) { return t.Session(s.StoreID, s.Key) }),
	"customer_email_codes": rec("email_codes", func(t *Tx, c *app.EmailCode) error { return t.PutEmailCode(c) },
		func(t *Tx, c *app.EmailCode) (any, error) { return t.EmailCode(c.StoreID, c.CustomerID, c.Purpose) }),
	"addresses": rec("addresses", func(t *Tx, a *app.Address) error { return t.PutAddress(a) },
		func(t *Tx, a *app.Address) (any, error) { return t.Address(a.StoreID, a.CustomerID, a.ID) }),
	"carts": rec("cart_items", func(t *Tx, it *app.CartItem) error { return t.PutCartItem(it) },
		func(t *Tx, it *app.CartItem) (any, error) { return t.CartItem(it.StoreID, it.CustomerID, it.ID) }),
	"guest_carts": rec("guest_carts", func(t *Tx, g *app.GuestCart) error { return t.PutGuestCart(g) },
		func(t *Tx, g *app.GuestCart) (any, error) { return t.GuestCart(g.StoreID, g.Key) }),
	"orders": rec("orders", func(t *Tx, o *app.Order) error { return t.putOrder(o) },
		func(t *Tx, o *app.Order) (any, error) { return t.Order(o.StoreID, o.ID) }),
	"payment_sessions": rec("payment_sessions", func(t *Tx, ps *app.PaymentSession) error { return t.PutPaymentSession(ps) },
		func(t *Tx, ps *app.PaymentSession) (any, error) { return t.PaymentSession(ps.StoreID, ps.Seq) }),
	"idempotency_keys": rec("idempotency_keys", func(t *Tx, r *app.IdempotencyRecord) error { return t.PutIdempotencyRecord(r) },
		func(t *Tx, r *app.IdempotencyRecord) (any, error) {
			return t.IdempotencyRecord(r.StoreID, r.CustomerID, r.Key)
		}),
	"coupons": rec("coupons", func(t *Tx, c *app.Coupon) error {
		return t.insertDoc(c.StoreID, "coupons", "store_id, id, code, doc", i64(c.StoreID), i64(c.ID), bs(app.NormalizeCouponCode(c.Code)), mustJSON(c))
	}, func(t *Tx, c *app.Coupon) (any, error) { return t.Coupon(c.StoreID, c.ID) }),
	"requests": rec("requests", func(t *Tx, r *app.Request) error { return t.putRequest(r) },
		func(t *Tx, r *app.Request) (any, error) { return t.Request(r.StoreID, r.Kind, r.ID) }),
	"reviews": rec("reviews", func(t *Tx, r *app.Review) error { return t.putReview(r) },
		func(t *Tx, r *app.Review) (any, error) { return t.Review(r.StoreID, r.ID) }),
	"review_summaries": {
		table: "review_summaries",
		put: func(t *Tx, k, v []byte) error {
			sid, pid := binary.BigEndian.Uint64(k), binary.BigEndian.Uint64(k[8:])
			return t.exec(sid, "import review summary", `INSERT INTO review_summaries (store_id, product_id, doc) VALUES ($1, $2, $3)`, i64(sid), i64(pid), v)
		},
		get: func(t *Tx, k, _ []byte) (any, error) {
			return t.ReviewSummary(binary.BigEndian.Uint64(k), binary.BigEndian.Uint64(k[8:]))
		},
	},
	"tickets": rec("tickets", func(t *Tx, tk *app.Ticket) error { return t.putTicket(tk) },
		func(t *Tx, tk *app.Ticket) (any, error) { return t.Ticket(tk.StoreID, tk.ID) }),
	"contact_messages": rec("contact_messages", func(t *Tx, m *app.ContactMessage) error { return t.putContact(m) },
		func(t *Tx, m *app.ContactMessage) (any, error) { return t.ContactMessage(m.StoreID, m.ID) }),
	"outbox": rec("outbox", func(t *Tx, m *app.Mail) error { return t.PutMail(m) },
		func(t *Tx, m *app.Mail) (any, error) { return t.Mail(m.StoreID, m.ID) }),
	"events": rec("webhook_events", func(t *Tx, e *app.WebhookEvent) error { return t.putWebhookEvent(e) },
		func(t *Tx, e *app.WebhookEvent) (any, error) { return t.WebhookEvent(e.StoreID, e.ID) }),
	"webhook_endpoints": rec("webhook_endpoints", func(t *Tx, w *app.WebhookEndpoint) error { return t.PutWebhookEndpoint(w) },
		func(t *Tx, w *app.WebhookEndpoint) (any, error) { return t.WebhookEndpoint(w.StoreID, w.ID) }),
	"webhook_deliveries": rec("webhook_deliveries", func(t *Tx, d *app.WebhookDelivery) error { return t.PutWebhookDelivery(d) },
		func(t *Tx, d *app.WebhookDelivery) (any, error) { return t.WebhookDelivery(d.StoreID, d.ID) }),
	"token_revocations": rec("revocations", func(t *Tx, r *app.Revocation) error { return t.PutRevocation(r) },
		func(t *Tx, r *app.Revocation) (any, error) {
			kind, cid := "c", r.CustomerID
			if r.Session != "" {
				kind, cid = "s", 0
			}
			var out app.Revocation
			return &out, t.get(r.StoreID, &out, "revocation", `SELECT doc FROM revocations WHERE store_id = $1 AND kind = $2 AND session = $3 AND customer_id = $4`,
				i64(r.StoreID), kind, bs(r.Session), i64(cid))
		}),
	"blog_posts": rec("blog_posts", func(t *Tx, p *app.BlogPost) error {
		var published any
		if p.Status == app.PostPublished && p.PublishedAt != nil {
			published = *p.PublishedAt
		}
		return t.insertDoc(p.StoreID, "blog_posts", "store_id, id, slug, published_at, doc", i64(p.StoreID), i64(p.ID), bs(p.Slug), published, mustJSON(p))
	}, func(t *Tx, p *app.BlogPost) (any, error) { return t.BlogPost(p.StoreID, p.ID) }),
	"flash_deals": rec("flash_deals", func(t *Tx, d *app.FlashDeal) error {
		if err := t.changedCached(d.StoreID); err != nil {
			return err
		}
		return t.insertDoc(d.StoreID, "flash_deals", "store_id, id, product_id, ends_at, doc", i64(d.StoreID), i64(d.ID), i64(d.ProductID), d.EndsAt, mustJSON(d))
	}, func(t *Tx, d *app.FlashDeal) (any, error) { return t.FlashDeal(d.StoreID, d.ID) }),
	"audit": rec("audit_log", func(t *Tx, e *app.AuditEntry) error { return t.putAudit(e) },
		func(t *Tx, e *app.AuditEntry) (any, error) { return t.auditEntry(e.ID) }),
	"settings_versions": rec("settings_versions", func(t *Tx, v *app.SettingsVersion) error { return t.putSettingsVersion(v) },
		func(t *Tx, v *app.SettingsVersion) (any, error) { return t.SettingsVersion(v.StoreID, v.ID) }),
	"bundles": rec("bundles", func(t *Tx, b *app.Bundle) error {
		return t.insertDoc(b.StoreID, "bundles", "store_id, id, slug, active, doc", i64(b.StoreID), i64(b.ID), bs(b.Slug), b.IsActive, mustJSON(b))
	}, func(t *Tx, b *app.Bundle) (any, error) { return t.Bundle(b.StoreID, b.ID) }),
}

// sequenceOf maps the bbolt buckets whose own sequence numbers records to
// the global counters.
var sequenceOf = map[string]string{"stores": "store", "admins": "admin"}

// ImportRecord is one record of a bbolt export (storage.Record): a nil Key
// carries the bucket's sequence in Value.
type ImportRecord struct {
	Bucket     string
	Key, Value []byte
}

// ImportReport says what an import copied and checked.
type ImportReport struct {
	Counts  map[string]int // records per bucket, as read and as found in PostgreSQL
	Checked int            // sampled records compared by checksum
	Tables  []string
}

// Empty reports whether the database holds no store and no admin.
func (db *DB) Empty(ctx context.Context) (bool, error) {
	var n int64
	err := db.pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM stores) + (SELECT count(*) FROM admins) + (SELECT count(*) FROM counters)`).Scan(&n)
	return n == 0, err
}

// Clear deletes every record (migrate-data --force), keeping the schema.
func (db *DB) Clear(ctx context.Context) error {
	var tables []string
	rows, err := db.pool.Query(ctx, `SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return err
		}
		tables = append(tables, `"`+n+`"`)
	}
	rows.Close()
	if len(tables) == 0 {
		return nil
	}
	_, err = db.pool.Exec(ctx, "TRUNCATE "+strings.Join(tables, ", "))
	return err
}

// Imports reports whether Import knows the records of bucket (a bbolt
// bucket name): a bucket added to the bbolt backend needs a line in
// importSpecs (and a table), or migrate-data refuses such a database.
func Imports(bucket string) bool {
	switch bucket {
	case "meta", "seq", "product_docs":
		return true
	}
	_, ok := importSpecs[bucket]
	return ok
}

// Import copies the records export produces in one transaction, then checks
// that every table holds as many rows as records were read and compares the
// checksums of a sample of records (every record up to 200 per bucket, an
// even spread beyond) read back through the Tx methods. Any bucket it does
// not know is an error: nothing is left behind silently.
func (db *DB) Import(export func(fn func(ImportRecord) error) error) (ImportReport, error) {
	rep := ImportReport{Counts: map[string]int{}}
	err := db.run(true, func(atx app.Tx) error {
		t := atx.(*Tx)
		clear(rep.Counts)
		return export(func(r ImportRecord) error {
			switch {
			case r.Key == nil:
				if name, ok := sequenceOf[r.Bucket]; ok {
					defer delete(t.snaps, 0) // the counters read with the lock are behind
					return t.exec(0, "import sequence", `INSERT INTO counters (store_id, name, value) VALUES (0, $1, $2)
						ON CONFLICT (store_id, name) DO UPDATE SET value = GREATEST(counters.value, excluded.value)`, name, int64(binary.BigEndian.Uint64(r.Value)))
				}
				return nil
			case r.Bucket == "meta":
				if !bytes.HasPrefix(r.Key, []byte("secret:")) {
					return nil // the schema version of the bbolt file
				}
				return t.exec(0, "import secret", `INSERT INTO meta (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value`, string(r.Key), r.Value)
			case r.Bucket == "seq":
				if len(r.Key) < 9 || len(r.Value) != 8 {
					return fmt.Errorf("postgres: import: bad sequence %x", r.Key)
				}
				sid := binary.BigEndian.Uint64(r.Key)
				defer delete(t.snaps, sid) // the counters read with the lock are behind
				return t.exec(sid, "import sequence", `INSERT INTO counters (store_id, name, value) VALUES ($1, $2, $3)`,
					i64(sid), string(r.Key[8:]), int64(binary.BigEndian.Uint64(r.Value)))
			case r.Bucket == "product_docs":
				return nil // made again from the products (the same encoding)
			}
			spec, ok := importSpecs[r.Bucket]
			if !ok {
				return fmt.Errorf("postgres: import: migrate-data does not know the bucket %q; upgrade it before moving this database", r.Bucket)
			}
			if err := spec.put(t, r.Key, r.Value); err != nil {
				return fmt.Errorf("postgres: import %s %x: %w", r.Bucket, r.Key, err)
			}
			rep.Counts[r.Bucket]++
			return nil
		})
	})
	if err != nil {
		return rep, err
	}
	if err := db.verifyImport(export, &rep); err != nil {
		return rep, err
	}
	if err := db.VacuumAnalyze(); err != nil {
		return rep, fmt.Errorf("postgres: the records are copied and verified, but VACUUM ANALYZE failed (run it by hand): %w", err)
	}
	return rep, nil
}

// VacuumAnalyze runs VACUUM (ANALYZE) over the database. After a bulk load
// (migrate-data, a benchmark's seeding) the planner has no statistics, so it
// guesses a store's rows at a thousand, and the visibility map is empty, so
// a count or a page of ids reads the table instead of an index alone: until
// autovacuum comes by, the panel's order list at 100k orders took 33 ms
// instead of 10.
func (db *DB) VacuumAnalyze() error {
	_, err := db.pool.Exec(context.Background(), "VACUUM (ANALYZE)")
	return err
}

// verifyImport compares counts and sampled checksums with the source.
func (db *DB) verifyImport(export func(fn func(ImportRecord) error) error, rep *ImportReport) error {
	var problems []string
	err := db.View(func(atx app.Tx) error {
		t := atx.(*Tx)
		for bucket, n := range rep.Counts {
			spec := importSpecs[bucket]
			var got int
			if err := t.queryRow("SELECT count(*) FROM " + spec.table).Scan(&got); err != nil {
				return err
			}
			if got != n {
				problems = append(problems, fmt.Sprintf("%s: %d records read, %d rows in %s", bucket, n, got, spec.table))
			}
			rep.Tables = append(rep.Tables, spec.table)
		}
		sort.Strings(rep.Tables)
		seen := map[string]int{}
		return export(func(r ImportRecord) error {
			spec, ok := importSpecs[r.Bucket]
			if !ok || r.Key == nil {
				return nil
			}
			i := seen[r.Bucket]
			seen[r.Bucket]++
			if n := rep.Counts[r.Bucket]; n > 200 && i%(n/200+1) != 0 {
				return nil
			}
			got, err := spec.get(t, r.Key, r.Value)
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s %x: %v", r.Bucket, r.Key, err))
				return nil
			}
			want := r.Value
			if spec.norm != nil {
				if want, err = spec.norm(r.Value); err != nil {
					return err
				}
			}
			if checksum(mustJSON(got)) != checksum(want) {
				problems = append(problems, fmt.Sprintf("%s %x: checksum differs", r.Bucket, r.Key))
			}
			rep.Checked++
			return nil
		})
	})
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		if len(problems) > 20 {
			problems = append(problems[:20], fmt.Sprintf("... and %d more", len(problems)-20))
		}
		return fmt.Errorf("postgres: import verification failed:\n  %s", strings.Join(problems, "\n  "))
	}
	return nil
}

// checksum is the SHA-256 of a JSON document in a canonical form (members
// sorted, numbers as written), so that two encodings of one record agree.
func checksum(doc []byte) [32]byte {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return sha256.Sum256(doc)
	}
	return sha256.Sum256(mustJSON(v))
}
