package postgres

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"storefront/app"
)

// The admin's product list (migration 0008): each sort has an index over
// every product and partial ones over the inactive and the low-stock
// products; the search reads product_admin_words, the words of every
// product's name, slug and SKUs.

const insertAdminWords = `INSERT INTO product_admin_words (store_id, word, product_id)
	SELECT $1, w, $2 FROM unnest($3::text[]) AS u(w)`

// writeAdminWords replaces the admin search words of p.
func (t *Tx) writeAdminWords(p *app.Product) error {
	if err := t.exec(p.StoreID, "delete admin words", `DELETE FROM product_admin_words WHERE store_id = $1 AND product_id = $2`,
		i64(p.StoreID), i64(p.ID)); err != nil {
		return err
	}
	words := app.AdminSearchWords(p)
	if len(words) == 0 {
		return nil
	}
	return t.exec(p.StoreID, "put admin words", insertAdminWords, i64(p.StoreID), i64(p.ID), words)
}

// backfillAdminWords writes the admin search words of every product
// (migration 0008's Go step).
func backfillAdminWords(ctx context.Context, tx pgx.Tx) error {
	rows, err := tx.Query(ctx, `SELECT doc FROM products`)
	if err != nil {
		return err
	}
	var all []app.Product
	for rows.Next() {
		var raw []byte
		if err := rows.Scan(&raw); err != nil {
			rows.Close()
			return err
		}
		var p app.Product
		if err := json.Unmarshal(raw, &p); err != nil {
			rows.Close()
			return err
		}
		all = append(all, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for i := range all {
		p := &all[i]
		if words := app.AdminSearchWords(p); len(words) > 0 {
			if _, err := tx.Exec(ctx, insertAdminWords, i64(p.StoreID), i64(p.ID), words); err != nil {
				return err
			}
		}
	}
	return nil
}

// AdminProducts counts the products matching q and reads the page's records
// in q's sort (see app.AdminProductTx for the order of ties), choosing the
// page's ids from the sort's index first (pageByIDs). Without a search or the
// low-stock filter the total is the sum of kept counts (product_counts); a
// one-word search without filters counts the matching words' products.
func (t *Tx) AdminProducts(storeID uint64, q app.AdminProductQuery) (app.AdminProductPage, error) {
	out := app.AdminProductPage{Items: []*app.Product{}}
	where := []string{"store_id = $1"}
	args := []any{i64(storeID)}
	arg := func(v any) string { args = append(args, v); return "$" + strconv.Itoa(len(args)) }
	switch q.Status {
	case "active":
		where = append(where, "active")
	case "inactive":
		where = append(where, "NOT active")
	case "low":
		where = append(where, "low")
	}
	if q.CategoryID != 0 {
		where = append(where, "category_id = "+arg(i64(q.CategoryID)))
	}
	filtered := len(where) > 1
	var matches []string // per word, the products with a word it begins
	for _, w := range q.Words {
		m := "SELECT product_id FROM product_admin_words WHERE store_id = $1 AND word LIKE " + arg(w+"%") + "::text"
		matches = append(matches, m)
		where = append(where, "id IN ("+m+")")
	}
	from := " FROM products WHERE " + strings.Join(where, " AND ")
	counted := "SELECT count(*)" + from
	switch {
	case len(matches) == 0 && q.Status != "low":
		// The same conditions hold for the counts' columns.
		counted = "SELECT coalesce(sum(n), 0) FROM product_counts WHERE " + strings.Join(where, " AND ")
	case len(matches) == 1 && !filtered:
		// One word alone counts its words' products, not product rows: half
		// the time of the join when every product matches. (Several words
		// keep the join: the planner starts from the rarest.)
		counted = "SELECT count(DISTINCT product_id) FROM (" + matches[0] + ") m"
	}
	n, err := t.count("admin products", counted, args...)
	if err != nil {
		return out, err
	}
	out.Total = n
	if q.Offset >= n {
		return out, nil
	}
	order := " ORDER BY id DESC"
	switch q.Sort {
	case "name":
		order = " ORDER BY name_key, id"
	case "price":
		order = " ORDER BY price, id"
	case "stock":
		order = " ORDER BY stock, id DESC"
	}
	items, err := all[app.Product](t, storeID, "products", pageByIDs("doc", "products", from, order, q.Limit, q.Offset), args...)
	if err != nil {
		return out, err
	}
	out.Items = items
	return out, nil
}
