package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"storefront/app"
)

// goSteps run after a migration's SQL, in its transaction.
var goSteps = map[int]func(ctx context.Context, tx pgx.Tx) error{
	4:  backfillProductWords,
	8:  backfillAdminWords,
	12: backfillLightDocs, // 0011's too
}

// backfillProductWords indexes the words of every active product.
func backfillProductWords(ctx context.Context, tx pgx.Tx) error {
	rows, err := tx.Query(ctx, `SELECT store_id, id, doc->>'name' FROM products WHERE active`)
	if err != nil {
		return err
	}
	type prod struct {
		sid, id int64
		name    string
	}
	var all []prod
	for rows.Next() {
		var p prod
		if err := rows.Scan(&p.sid, &p.id, &p.name); err != nil {
			rows.Close()
			return err
		}
		all = append(all, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, p := range all {
		if words := app.SearchWords(p.name); len(words) > 0 {
			if _, err := tx.Exec(ctx, insertWords, p.sid, p.id, words); err != nil {
				return err
			}
		}
	}
	return nil
}

const insertWords = `INSERT INTO product_words (store_id, word, product_id, pos)
	SELECT $1, w, $2, (o - 1)::smallint FROM unnest($3::text[]) WITH ORDINALITY AS u(w, o)`

// writeWords replaces the search words of p (none when inactive).
func (t *Tx) writeWords(p *app.Product) error {
	if err := t.exec(p.StoreID, "delete product words", `DELETE FROM product_words WHERE store_id = $1 AND product_id = $2`,
		i64(p.StoreID), i64(p.ID)); err != nil {
		return err
	}
	if !p.IsActive {
		return nil
	}
	words := app.SearchWords(p.Name)
	if len(words) == 0 {
		return nil
	}
	return t.exec(p.StoreID, "put product words", insertWords, i64(p.StoreID), i64(p.ID), words)
}

// searchFilter adds the conditions of q's words to a products query: each
// word begins a word of the name.
func searchFilter(words []string, add func(cond string, v any)) {
	for _, w := range words {
		add("id IN (SELECT product_id FROM product_words WHERE store_id = $1 AND word LIKE $%d::text)", w+"%")
	}
}

// relevance is app.Relevance in SQL: one point per word, one more per word
// that is a whole word of the name, one more when the first word begins the
// name. arg adds a parameter and returns its number.
func relevance(words []string, arg func(v any) int) string {
	const has = "(EXISTS (SELECT 1 FROM product_words x WHERE x.store_id = products.store_id AND x.product_id = products.id AND %s))::int"
	var b strings.Builder
	fmt.Fprintf(&b, "(%d", len(words))
	for _, w := range words {
		fmt.Fprintf(&b, " + "+has, fmt.Sprintf("x.word = $%d::text", arg(w)))
	}
	fmt.Fprintf(&b, " + "+has+")", fmt.Sprintf("x.pos = 0 AND x.word LIKE $%d::text", arg(words[0]+"%")))
	return b.String()
}
