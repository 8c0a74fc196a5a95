package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// lightBatch is how many products backfillLightDocs and reencodeDocs read
// and write at a time: its memory is one batch's docs (about 2 MB for usual products),
// whatever the catalog's size (tests lower it).
var lightBatch = 1000

// backfillLightDocs (migration 0012, for 0011 too) writes the light doc and
// the light JSON object of every product that lacks one: a database from
// before 0011 gets both in one pass over its products, not one per migration.
// 0011 has no step of its own: this binary applies 0012 right after it, and
// a NULL ldoc reads as pdoc meanwhile (were 0012 to fail, the start fails and
// the rows stay readable). A binary of 0011's time filled ldoc itself.
func backfillLightDocs(ctx context.Context, tx pgx.Tx) error {
	var sid, id int64 = -1, -1
	for {
		rows, err := tx.Query(ctx, `SELECT store_id, id, pdoc FROM products
			WHERE (store_id, id) > ($1, $2) AND (ldoc IS NULL OR ljson IS NULL) ORDER BY store_id, id LIMIT $3`, sid, id, lightBatch)
		if err != nil {
			return err
		}
		var sids, ids []int64
		var ldocs, ljsons [][]byte
		for rows.Next() {
			var pdoc []byte
			if err := rows.Scan(&sid, &id, &pdoc); err != nil {
				rows.Close()
				return err
			}
			sids, ids = append(sids, sid), append(ids, id)
			ldocs, ljsons = append(ldocs, lightDoc(pdoc)), append(ljsons, lightJSON(pdoc))
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(ids) == 0 {
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE products p SET ldoc = u.ldoc, ljson = u.ljson
			FROM unnest($1::bigint[], $2::bigint[], $3::bytea[], $4::bytea[]) AS u(store_id, id, ldoc, ljson)
			WHERE p.store_id = u.store_id AND p.id = u.id`, sids, ids, ldocs, ljsons); err != nil {
			return err
		}
		if len(ids) < lightBatch {
			return nil
		}
	}
}
