package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// lightBatch is how many products backfillProducts reads and writes at a
// time: its memory is one batch's docs (about 2 MB for usual products),
// whatever the catalog's size (tests lower it).
var lightBatch = 1000

// backfillLightDocs (migration 0011) writes the light doc of every product
// that has none.
func backfillLightDocs(ctx context.Context, tx pgx.Tx) error {
	return backfillProducts(ctx, tx, "ldoc", lightDoc)
}

// backfillLightJSON (migration 0012) writes the light JSON object of every
// product that has none.
func backfillLightJSON(ctx context.Context, tx pgx.Tx) error {
	return backfillProducts(ctx, tx, "ljson", lightJSON)
}

// backfillProducts fills col with encode(pdoc) where it is NULL, in batches
// in key order: one read and one UPDATE of up to lightBatch rows each.
func backfillProducts(ctx context.Context, tx pgx.Tx, col string, encode func([]byte) []byte) error {
	var sid, id int64 = -1, -1
	for {
		rows, err := tx.Query(ctx, `SELECT store_id, id, pdoc FROM products
			WHERE (store_id, id) > ($1, $2) AND `+col+` IS NULL ORDER BY store_id, id LIMIT $3`, sid, id, lightBatch)
		if err != nil {
			return err
		}
		var sids, ids []int64
		var docs [][]byte
		for rows.Next() {
			var pdoc []byte
			if err := rows.Scan(&sid, &id, &pdoc); err != nil {
				rows.Close()
				return err
			}
			sids, ids, docs = append(sids, sid), append(ids, id), append(docs, encode(pdoc))
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(ids) == 0 {
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE products p SET `+col+` = u.v
			FROM unnest($1::bigint[], $2::bigint[], $3::bytea[]) AS u(store_id, id, v)
			WHERE p.store_id = u.store_id AND p.id = u.id`, sids, ids, docs); err != nil {
			return err
		}
		if len(ids) < lightBatch {
			return nil
		}
	}
}
