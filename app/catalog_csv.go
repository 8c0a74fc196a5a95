package app

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"sort"
	"strconv"
	"strings"
)

// ProductCSVColumns are the columns of the product CSV, in the order the
// export writes them. An import may send any of them, in any order; a column
// it leaves out leaves that field of an updated product as it is.
//
//   - id: a product's id: the row updates that product (unknown: an error).
//   - slug: without an id, a row whose slug is a product's updates it; any
//     other row creates a product (its slug made from the name when empty).
//   - name, description: text.
//   - price, compare_at_price: decimals with at most two decimals ("12.50"),
//     as on the wire; compare_at_price empty or 0: none.
//   - stock, low_stock_threshold: whole numbers (empty: 0).
//   - status: active or hidden (empty: active).
//   - category: a category's slug or name (empty: none).
//   - images: image URLs separated by spaces.
//   - variants: the variants as the admin API's JSON array ({id, name, sku,
//     price, stock, attributes, tax_class, image}); empty: none. A variant
//     with the id of one of the product's variants keeps it.
var ProductCSVColumns = []string{"id", "slug", "name", "description", "price", "compare_at_price", "stock",
	"low_stock_threshold", "status", "category", "images", "variants"}

// Import limits: a bigger file is refused whole (payload_too_large, or
// validation_failed for the rows).
const (
	MaxImportBytes = 5 << 20
	MaxImportRows  = 5000
)

// RowError is one problem of an imported file: its row (the header is row
// 1, as a spreadsheet numbers them), the column ("" for the whole row or
// file) and what is wrong.
type RowError struct {
	Row     int    `json:"row"`
	Column  string `json:"column"`
	Message string `json:"message"`
}

// Field is the key of the error in the envelope's errors: "row 3: price".
func (e RowError) Field() string {
	f := "row " + strconv.Itoa(e.Row)
	if e.Column != "" {
		f += ": " + e.Column
	}
	return f
}

// ImportResult counts what an import did.
type ImportResult struct {
	Rows    int `json:"rows"`
	Created int `json:"created"`
	Updated int `json:"updated"`
}

// errImportRefused rolls the import's transaction back after row errors.
var errImportRefused = errors.New("import refused")

// ImportProductsCSV creates and updates products from a CSV file
// (ProductCSVColumns), in one transaction: every row is checked first, and
// when any row has a problem nothing is written and every problem is
// returned, with its row and column, both as the list and as one
// validation_failed error. Errors: validation_failed, payload_too_large,
// not_found (the store).
func (cs *CatalogService) ImportProductsCSV(storeID uint64, r io.Reader) (ImportResult, []RowError, error) {
	head, rows, rerrs, err := cs.readImport(storeID, r)
	if err != nil {
		return ImportResult{}, nil, err
	}
	if len(rerrs) > 0 {
		sortRowErrors(rerrs)
		return ImportResult{}, rerrs, importError(rerrs)
	}
	var res ImportResult
	err = cs.s.DB.Update(func(tx Tx) error {
		res, rerrs = ImportResult{Rows: len(rows)}, nil // Update may run fn again
		watch := stockWatch{}
		st, err := tx.Store(storeID)
		if err != nil {
			return err
		}
		cats, err := newCategoryLookup(tx, storeID)
		if err != nil {
			return err
		}
		plan := make([]*Product, 0, len(rows))
		byID := map[uint64]int{}   // product -> row that touches it
		bySlug := map[string]int{} // final slug -> row
		for i, rec := range rows {
			row := i + 2
			p, fields, err := planProductRow(tx, st, cats, head, rec, watch)
			if err != nil {
				return err
			}
			if p != nil && len(fields) == 0 {
				fields, err = checkImportTarget(tx, p, row, byID, bySlug)
				if err != nil {
					return err
				}
			}
			for col, msg := range fields {
				rerrs = append(rerrs, RowError{Row: row, Column: col, Message: msg})
			}
			if p != nil {
				plan = append(plan, p)
			}
		}
		if len(rerrs) > 0 {
			return errImportRefused
		}
		return writeImport(tx, plan, &res, func(p *Product) error { return cs.s.lowStockAfter(tx, watch, p) })
	})
	if errors.Is(err, errImportRefused) {
		sortRowErrors(rerrs)
		return ImportResult{}, rerrs, importError(rerrs)
	}
	if err != nil {
		return ImportResult{}, nil, err
	}
	cs.s.Kick()
	return res, nil, nil
}

// readImport reads an import's file and fetches its pictures
// (localImportImages), when the file itself has no problem.
func (cs *CatalogService) readImport(storeID uint64, r io.Reader) (map[string]int, [][]string, []RowError, error) {
	head, rows, rerrs, err := readProductCSV(r)
	if err == nil && len(rerrs) == 0 {
		rerrs, err = cs.localImportImages(storeID, head, rows)
	}
	return head, rows, rerrs, err
}

// writeImport writes the planned products of an import, counting them in
// res, and calls written after each (the low-stock alert of a product the
// import took to its threshold, in the import's transaction).
func writeImport(tx Tx, plan []*Product, res *ImportResult, written func(*Product) error) error {
	now := UTC(tx.Now())
	for _, p := range plan {
		if p.ID == 0 {
			p.CreatedAt = now
			res.Created++
		} else {
			res.Updated++
		}
		p.UpdatedAt = now
		if err := allocateVariantIDs(tx, p); err != nil {
			return err
		}
		if err := checkSKUs(tx, p); err != nil {
			return err
		}
		if err := tx.PutProduct(p); err != nil {
			return err
		}
		if err := written(p); err != nil {
			return err
		}
	}
	return nil
}

// checkImportTarget refuses a second row for the same product and a slug
// that another row or another product has; it records the row's product
// and slug.
func checkImportTarget(tx Tx, p *Product, row int, byID map[uint64]int, bySlug map[string]int) (map[string]string, error) {
	if p.ID != 0 {
		if prev, dup := byID[p.ID]; dup {
			return map[string]string{"id": "the same product as row " + strconv.Itoa(prev)}, nil
		}
		byID[p.ID] = row
	}
	if prev, dup := bySlug[p.Slug]; dup {
		return map[string]string{"slug": "“" + p.Slug + "” is also the slug of row " + strconv.Itoa(prev)}, nil
	}
	other, err := tx.ProductBySlug(p.StoreID, p.Slug)
	if err != nil && !IsNotFound(err) {
		return nil, err
	}
	if err == nil && other.ID != p.ID {
		return map[string]string{"slug": "“" + p.Slug + "” is the slug of another product (id " + strconv.FormatUint(other.ID, 10) + ")"}, nil
	}
	bySlug[p.Slug] = row
	return nil, nil
}

func sortRowErrors(rerrs []RowError) {
	order := map[string]int{}
	for i, c := range ProductCSVColumns {
		order[c] = i
	}
	sort.SliceStable(rerrs, func(i, j int) bool {
		if rerrs[i].Row != rerrs[j].Row {
			return rerrs[i].Row < rerrs[j].Row
		}
		return order[rerrs[i].Column] < order[rerrs[j].Column]
	})
}

// importError is the validation_failed error of a refused import.
func importError(rerrs []RowError) error {
	rows := map[int]bool{}
	fields := make(map[string]string, len(rerrs))
	for _, e := range rerrs {
		rows[e.Row] = true
		fields[e.Field()] = e.Message
	}
	msg := "nothing was imported: " + plural(len(rerrs), "problem") + " in " + plural(len(rows), "row")
	return &Error{Code: EValidation, Message: msg, Fields: fields}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// readProductCSV reads the header and the rows. Problems of the file itself
// (an unknown column, a malformed quote) come back as row errors; too many
// rows or bytes as an error.
func readProductCSV(r io.Reader) (head map[string]int, rows [][]string, rerrs []RowError, err error) {
	lr := &io.LimitedReader{R: r, N: MaxImportBytes + 1}
	cr := csv.NewReader(lr)
	cr.FieldsPerRecord = -1
	first, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil, nil, Invalid("file", "the file is empty: its first row must name the columns ("+strings.Join(ProductCSVColumns, ", ")+")")
	}
	if err != nil {
		return nil, nil, []RowError{csvError(1, err)}, nil
	}
	head = map[string]int{}
	for i, name := range first {
		if i == 0 {
			name = strings.TrimPrefix(name, "\ufeff") // a spreadsheet's byte order mark
		}
		name = strings.ToLower(strings.TrimSpace(name))
		switch {
		case name == "" && i == len(first)-1 && i > 0: // a trailing comma
		case !isProductColumn(name):
			rerrs = append(rerrs, RowError{Row: 1, Column: clip(name, 60), Message: "unknown column (the columns are " + strings.Join(ProductCSVColumns, ", ") + ")"})
		default:
			if _, dup := head[name]; dup {
				rerrs = append(rerrs, RowError{Row: 1, Column: name, Message: "the column is named twice"})
			}
			head[name] = i
		}
	}
	if len(rerrs) > 0 {
		return nil, nil, rerrs, nil
	}
	for row := 2; ; row++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if lr.N <= 0 {
			return nil, nil, nil, &Error{Code: EPayloadTooLarge, Message: "the file is over " + strconv.Itoa(MaxImportBytes>>20) + " MB: split it"}
		}
		if err != nil {
			return nil, nil, append(rerrs, csvError(row, err)), nil
		}
		if row-1 > MaxImportRows {
			return nil, nil, nil, Invalid("file", "at most "+strconv.Itoa(MaxImportRows)+" products per file: split it")
		}
		if blankRecord(rec) {
			rec = nil // kept so that row numbers stay the spreadsheet's
		} else if len(rec) > len(first) {
			rerrs = append(rerrs, RowError{Row: row, Message: "has " + strconv.Itoa(len(rec)) + " cells but the header names " + strconv.Itoa(len(first))})
		}
		rows = append(rows, rec)
	}
	if lr.N <= 0 {
		return nil, nil, nil, &Error{Code: EPayloadTooLarge, Message: "the file is over " + strconv.Itoa(MaxImportBytes>>20) + " MB: split it"}
	}
	return head, rows, rerrs, nil
}

func csvError(row int, err error) RowError {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return RowError{Row: row, Message: "not valid CSV at line " + strconv.Itoa(pe.Line) + ", column " + strconv.Itoa(pe.Column) + ": " + pe.Err.Error()}
	}
	return RowError{Row: row, Message: "not valid CSV: " + err.Error()}
}

func isProductColumn(name string) bool {
	for _, c := range ProductCSVColumns {
		if c == name {
			return true
		}
	}
	return false
}

func blankRecord(rec []string) bool {
	for _, c := range rec {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// categoryLookup finds a category by slug, then by name.
type categoryLookup struct {
	bySlug map[string]*Category
	byName map[string][]*Category
	byID   map[uint64]*Category
}

func newCategoryLookup(tx Tx, storeID uint64) (*categoryLookup, error) {
	cats, err := tx.Categories(storeID)
	if err != nil {
		return nil, err
	}
	l := &categoryLookup{bySlug: map[string]*Category{}, byName: map[string][]*Category{}, byID: map[uint64]*Category{}}
	for _, c := range cats {
		l.bySlug[c.Slug] = c
		l.byID[c.ID] = c
		n := NormalizeName(c.Name)
		l.byName[n] = append(l.byName[n], c)
	}
	return l, nil
}

func (l *categoryLookup) find(s string) (uint64, string) {
	if c, ok := l.bySlug[strings.ToLower(s)]; ok {
		return c.ID, ""
	}
	switch named := l.byName[NormalizeName(s)]; len(named) {
	case 0:
		return 0, "no category has this slug or name"
	case 1:
		return named[0].ID, ""
	default:
		return 0, "several categories have this name: use the slug"
	}
}

// planProductRow turns one row into the product it makes (not yet written),
// or per-column problems. A blank row (rec nil) plans nothing. watch notes
// whether an existing product was low on stock before the row changes it.
func planProductRow(tx Tx, st *Store, cats *categoryLookup, head map[string]int, rec []string, watch stockWatch) (*Product, map[string]string, error) {
	if rec == nil {
		return nil, nil, nil
	}
	row := csvRow{head: head, rec: rec}
	bad := map[string]string{}
	p, err := importTarget(tx, st.ID, row, bad)
	if err != nil {
		return nil, nil, err
	}
	creating := p == nil
	if creating {
		p = &Product{StoreID: st.ID, IsActive: true}
	} else {
		watch.before(p)
	}
	p.Currency = st.Currency
	in := row.productInput(cats, creating, bad)
	unparsed := make(map[string]bool, len(bad)) // columns that did not parse keep that message only
	for col := range bad {
		unparsed[col] = true
	}
	setProductFields(p, in)
	var v Validation
	checkProductFields(tx, p, &v)
	if in.Variants != nil {
		setVariants(p, *in.Variants, &v)
	}
	addColumnErrors(bad, unparsed, v.fields)
	if len(bad) > 0 {
		return nil, bad, nil
	}
	return p, nil, nil
}

// csvRow is one record of a product CSV and the file's header.
type csvRow struct {
	head map[string]int
	rec  []string
}

// cell is the value of column col and whether the file has that column (a
// short record reads as empty cells).
func (r csvRow) cell(col string) (string, bool) {
	i, ok := r.head[col]
	if !ok {
		return "", false
	}
	if i >= len(r.rec) {
		return "", true
	}
	return r.rec[i], true
}

// importTarget finds the product a row updates: by id, else by slug; nil
// when it creates one. A bad or unknown id goes into bad.
func importTarget(tx Tx, storeID uint64, row csvRow, bad map[string]string) (*Product, error) {
	if s, _ := row.cell("id"); strings.TrimSpace(s) != "" {
		id, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
		if err != nil || id == 0 {
			bad["id"] = "must be a product id (a whole number), or empty to create a product"
			return nil, nil
		}
		p, err := tx.Product(storeID, id)
		if IsNotFound(err) {
			bad["id"] = "no product has this id (leave it empty to create one)"
			return nil, nil
		}
		return p, err
	}
	if s, _ := row.cell("slug"); strings.TrimSpace(s) != "" {
		found, err := tx.ProductBySlug(storeID, strings.TrimSpace(s))
		if IsNotFound(err) {
			return nil, nil
		}
		return found, err
	}
	return nil, nil
}

// productInput reads the row's columns into a ProductInput (a column the
// file lacks stays nil: unchanged); cells that do not parse go into bad.
func (r csvRow) productInput(cats *categoryLookup, creating bool, bad map[string]string) ProductInput {
	var in ProductInput
	if s, ok := r.cell("name"); ok {
		s = unescapeCell(s)
		in.Name = &s
	}
	if s, ok := r.cell("slug"); ok && strings.TrimSpace(s) != "" {
		in.Slug = &s
	}
	if s, ok := r.cell("description"); ok {
		s = unescapeCell(s)
		in.Description = &s
	}
	r.readPrices(&in, creating, bad)
	for _, col := range []string{"stock", "low_stock_threshold"} {
		s, ok := r.cell(col)
		if !ok {
			continue
		}
		var n int64
		if s = strings.TrimSpace(s); s != "" {
			var err error
			if n, err = strconv.ParseInt(s, 10, 64); err != nil {
				bad[col] = "must be a whole number"
				continue
			}
		}
		if col == "stock" {
			in.Stock = &n
		} else {
			in.LowStockThreshold = &n
		}
	}
	r.readRest(&in, cats, bad)
	return in
}

// readPrices reads price (required to create) and compare_at_price.
func (r csvRow) readPrices(in *ProductInput, creating bool, bad map[string]string) {
	if s, ok := r.cell("price"); ok {
		if strings.TrimSpace(s) == "" {
			bad["price"] = "is required"
		} else if m, err := ParseMoney(s); err != nil {
			bad["price"] = "must be a decimal like 12.50"
		} else {
			in.Price = &m
		}
	} else if creating {
		bad["price"] = "is required to create a product (the file has no price column)"
	}
	if s, ok := r.cell("compare_at_price"); ok {
		var m Money
		if strings.TrimSpace(s) != "" {
			var err error
			if m, err = ParseMoney(s); err != nil {
				bad["compare_at_price"] = "must be a decimal like 15.00, or empty for none"
			}
		}
		in.CompareAtPrice = &m
	}
}

// readRest reads status, category, images and variants.
func (r csvRow) readRest(in *ProductInput, cats *categoryLookup, bad map[string]string) {
	if s, ok := r.cell("status"); ok {
		var active bool
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "", "active":
			active = true
		case "hidden", "inactive":
		default:
			bad["status"] = "must be active or hidden"
		}
		in.IsActive = &active
	}
	if s, ok := r.cell("category"); ok {
		var id uint64
		if s = strings.TrimSpace(unescapeCell(s)); s != "" {
			var msg string
			if id, msg = cats.find(s); msg != "" {
				bad["category"] = msg
			}
		}
		in.CategoryID = &id
	}
	if s, ok := r.cell("images"); ok {
		images := strings.Fields(s)
		in.Images = &images
	}
	if s, ok := r.cell("variants"); ok {
		vs := []VariantInput{}
		if strings.TrimSpace(s) != "" {
			if err := json.Unmarshal([]byte(s), &vs); err != nil {
				bad["variants"] = "must be a JSON array of variants like [{\"name\":\"Large\",\"sku\":\"L-1\",\"price\":\"12.00\",\"stock\":3,\"attributes\":{\"size\":\"L\"}}]"
			}
		}
		if bad["variants"] == "" {
			in.Variants = &vs
		}
	}
}

// addColumnErrors adds the product checks' errors (by API field) to bad, by
// CSV column: category_id is the category column, a variant's field the
// variants column; a column that did not parse keeps only that message.
func addColumnErrors(bad map[string]string, unparsed map[string]bool, fields map[string]string) {
	for field, msg := range fields {
		col, rest, _ := strings.Cut(field, ".")
		if col == "category_id" {
			col = "category"
		}
		if i := strings.IndexByte(col, '['); i > 0 {
			col, rest = col[:i], field
		}
		if unparsed[col] {
			continue
		}
		if rest != "" {
			msg = rest + ": " + msg
		}
		if prev, ok := bad[col]; ok {
			msg = prev + "; " + msg
		}
		bad[col] = msg
	}
}

// unescapeCell undoes the export's guard against spreadsheet formulas: a
// text cell starting with = + - @ is written with a ' before it.
func unescapeCell(s string) string {
	if len(s) >= 2 && s[0] == '\'' && strings.ContainsRune("=+-@\t\r", rune(s[1])) {
		return s[1:]
	}
	return s
}

// escapeCell keeps a spreadsheet from reading a text cell as a formula.
func escapeCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// ExportProductsCSV writes every product of a store (active or not) as CSV
// (ProductCSVColumns), newest first, a page per read transaction so that a
// large catalog streams without holding one long transaction.
func (cs *CatalogService) ExportProductsCSV(storeID uint64, w io.Writer) error {
	cats, err := cs.Categories(storeID)
	if err != nil {
		return err
	}
	slugs := make(map[uint64]string, len(cats))
	for _, c := range cats {
		slugs[c.ID] = c.Slug
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(ProductCSVColumns); err != nil {
		return err
	}
	lp := ListParams{Sort: SortNewest, Limit: 500}
	rec := make([]string, len(ProductCSVColumns))
	for {
		page, err := cs.AllProducts(storeID, lp)
		if err != nil {
			return err
		}
		for _, p := range page.Items {
			variants := ""
			if len(p.Variants) > 0 {
				b, err := json.Marshal(p.Variants)
				if err != nil {
					return err
				}
				variants = string(b)
			}
			compare := ""
			if p.CompareAtPrice > 0 {
				compare = p.CompareAtPrice.String()
			}
			status := "active"
			if !p.IsActive {
				status = "hidden"
			}
			rec = append(rec[:0], strconv.FormatUint(p.ID, 10), p.Slug, escapeCell(p.Name), escapeCell(p.Description),
				p.Price.String(), compare, strconv.FormatInt(p.Stock, 10), strconv.FormatInt(p.LowStockThreshold, 10),
				status, slugs[p.CategoryID], strings.Join(p.Images, " "), variants)
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
		cw.Flush()
		if err := cw.Error(); err != nil {
			return err
		}
		if page.Next == nil {
			return nil
		}
		lp.After = page.Next
	}
}
