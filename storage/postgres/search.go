package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"storefront/app"
)

// goSteps run after a migration's SQL, in its transaction.
var goSteps = map[int]func(ctx context.Context, tx pgx.Tx) error{
	// 4's and 20's product words are written by 21, in the form this binary reads
	8:  backfillAdminWords,
	12: backfillLightDocs, // 0011's too
	21: rewriteAllWords,
}

// rewriteAllWords writes the search words and terms of every active
// product, each store's in its language (migration 0021), replacing the
// rows of earlier forms.
func rewriteAllWords(ctx context.Context, tx pgx.Tx) error {
	if _, err := tx.Exec(ctx, `DELETE FROM product_words`); err != nil {
		return err
	}
	rows, err := tx.Query(ctx, `SELECT id, doc FROM stores`)
	if err != nil {
		return err
	}
	langs := map[int64]string{}
	for rows.Next() {
		var id int64
		var st app.Store
		if err := rows.Scan(&id, &st); err != nil {
			rows.Close()
			return err
		}
		langs[id] = st.Settings().Lang()
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	return rewriteProductWords(ctx, tx, `active`, langs)
}

// rewriteProductWords writes the search words and terms of the active
// products where cond holds (SQL over products; $1, when it has one, is a
// store id), with the stemmers of langs (by store id).
func rewriteProductWords(ctx context.Context, tx wordDB, cond string, langs map[int64]string, args ...any) error {
	rows, err := tx.Query(ctx, `SELECT store_id, id, doc->>'name', coalesce(doc->>'description', '') FROM products WHERE `+cond, args...)
	if err != nil {
		return err
	}
	type prod struct {
		sid, id    int64
		name, desc string
	}
	var all []prod
	for rows.Next() {
		var p prod
		if err := rows.Scan(&p.sid, &p.id, &p.name, &p.desc); err != nil {
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
		if words, pos, inName := wordRows(p.name, p.desc, app.StemmerFor(langs[p.sid])); len(words) > 0 {
			if _, err := tx.Exec(ctx, insertWords, p.sid, p.id, words, pos, inName); err != nil {
				return err
			}
		}
	}
	return nil
}

const insertWords = `INSERT INTO product_words (store_id, word, product_id, pos, in_name)
	SELECT $1, w, $2, p, n FROM unnest($3::text[], $4::smallint[], $5::bool[]) AS u(w, p, n)`

// wordRows are the product_words columns of a product's search keys
// (app.IndexTerms): the word or term, its place among the name's words
// (-1 for a term) and whether it comes from the name.
func wordRows(name, desc string, stem app.Stemmer) (words []string, pos []int16, inName []bool) {
	for i, t := range app.IndexTerms(name, desc, stem) {
		words = append(words, t.Key)
		p := int16(-1)
		if t.Prefix {
			p = int16(min(i, 32767))
		}
		pos, inName = append(pos, p), append(inName, t.InName)
	}
	return words, pos, inName
}

// wordDB is what rewriteProductWords reads and writes through: a
// migration's pgx.Tx, or a Tx (storeWords).
type wordDB interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// storeWords is a Tx writing one store's words (wordDB).
type storeWords struct {
	t   *Tx
	sid uint64
}

func (w storeWords) Query(_ context.Context, sql string, args ...any) (pgx.Rows, error) {
	return w.t.query(sql, args...)
}

func (w storeWords) Exec(_ context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	return pgconn.CommandTag{}, w.t.exec(w.sid, "rewrite store words", sql, args...)
}

// rewriteStoreWords writes the search words and terms of a store's active
// products anew in its language lang (PutStore: the language changed).
func (t *Tx) rewriteStoreWords(storeID uint64, lang string) error {
	if err := t.exec(storeID, "delete store words", `DELETE FROM product_words WHERE store_id = $1`, i64(storeID)); err != nil {
		return err
	}
	err := rewriteProductWords(t.ctx, storeWords{t, storeID}, `store_id = $1 AND active`, map[int64]string{i64(storeID): lang}, i64(storeID))
	if err != nil {
		return t.fail(fmt.Errorf("postgres: rewrite store words: %w", err))
	}
	return nil
}

// writeWords replaces the search words of p (none when inactive).
func (t *Tx) writeWords(p *app.Product) error {
	if err := t.exec(p.StoreID, "delete product words", `DELETE FROM product_words WHERE store_id = $1 AND product_id = $2`,
		i64(p.StoreID), i64(p.ID)); err != nil {
		return err
	}
	if !p.IsActive {
		return nil
	}
	stem, err := t.searchStem(p.StoreID)
	if err != nil {
		return err
	}
	words, pos, inName := wordRows(p.Name, p.Description, stem)
	if len(words) == 0 {
		return nil
	}
	return t.exec(p.StoreID, "put product words", insertWords, i64(p.StoreID), i64(p.ID), words, pos, inName)
}

// searchWords makes the query's search words; a word that finds no word or
// term of the store as typed gets its typos (app.TypoTerms) from the
// store's terms, one indexed seek each.
func (t *Tx) searchWords(storeID uint64, words []string, lenient bool) ([]app.SearchWord, error) {
	stem, err := t.searchStem(storeID)
	if err != nil {
		return nil, err
	}
	sws := app.NewSearchWords(words, stem, lenient)
	for i, w := range sws {
		found, err := t.exists(storeID, "search words", `SELECT 1 FROM product_words WHERE store_id = $1 AND (word LIKE $2::text OR word = $3::text) LIMIT 1`,
			i64(storeID), w.Word+"%", w.Term)
		if err != nil {
			return nil, err
		}
		if found {
			continue
		}
		v := &vocabulary{t: t, sid: storeID}
		if sws[i].Typos = app.TypoTerms(v, w); v.err != nil {
			return nil, v.err
		}
	}
	return sws, nil
}

// vocabulary is a store's words and terms (app.Vocabulary); the first error
// ends it.
type vocabulary struct {
	t   *Tx
	sid uint64
	err error
}

func (v *vocabulary) Seek(from string) string {
	if v.err != nil {
		return ""
	}
	op := ">="
	if after, ok := strings.CutSuffix(from, "\x00"); ok { // the first key after (text holds no NUL)
		op, from = ">", after
	}
	raw, err := v.t.raw(v.sid, "search terms", `SELECT word FROM product_words WHERE store_id = $1 AND word `+op+` $2::text ORDER BY word LIMIT 1`,
		i64(v.sid), from)
	if err != nil {
		if !app.IsNotFound(err) {
			v.err = err
		}
		return ""
	}
	return string(raw)
}

// searchFilter is the condition of q's words on a products query: each
// word begins a word of the name or is one of its terms (app.SearchWord).
// arg adds a parameter and returns its number.
func searchFilter(words []app.SearchWord, arg func(v any) int) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteString(" AND ")
		}
		fmt.Fprintf(&b, "id IN (SELECT product_id FROM product_words WHERE store_id = $1 AND (word LIKE $%d::text OR word = ANY($%d::text[])))",
			arg(w.Word+"%"), arg(w.Exact()))
	}
	return b.String()
}

// relevance is app.SearchRelevance in SQL: per word one point when it
// begins a word of the name or is one of the name's terms, one more when
// its own term is one of the name's; one more when the first word begins
// the name.
func relevance(words []app.SearchWord, arg func(v any) int) string {
	const has = "(EXISTS (SELECT 1 FROM product_words x WHERE x.store_id = products.store_id AND x.product_id = products.id AND %s))::int"
	var b strings.Builder
	b.WriteString("(0")
	for _, w := range words {
		fmt.Fprintf(&b, " + "+has, fmt.Sprintf("(x.word LIKE $%d::text OR (x.in_name AND x.word = ANY($%d::text[])))", arg(w.Word+"%"), arg(w.Exact())))
		fmt.Fprintf(&b, " + "+has, fmt.Sprintf("x.in_name AND x.word = $%d::text", arg(w.Term)))
	}
	fmt.Fprintf(&b, " + "+has+")", fmt.Sprintf("x.pos = 0 AND x.word LIKE $%d::text", arg(words[0].Word+"%")))
	return b.String()
}
