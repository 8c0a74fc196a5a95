package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"storefront/app"
)

// Derived order data, written by every order write in its transaction:
//   - order_rows: sid|id -> a compact binary summary (encodeRow) that the
//     admin search scans without decoding JSON;
//   - order_stats: sid|day|currency0 -> paid orders, gross and refunded
//     (three int64) of orders placed that UTC day (app.OrderStatsOf).
var (
	_ = registerDerived("order_rows_stats_v1", rebuildOrderDerived, bOrderRows, bOrderStats)
)

// encodeRow writes the summary of o: fixed fields (the item count's top bit
// is the test-payment flag), then length-prefixed strings (status, payment
// status, method, currency, email, name, phone, search key).
func encodeRow(o *app.Order) []byte {
	r := app.RowOf(o)
	b := make([]byte, 0, 96+2*(len(r.Email)+len(r.ReceiverName)+len(r.Phone)))
	b = binary.BigEndian.AppendUint64(b, r.CustomerID)
	b = binary.BigEndian.AppendUint64(b, uint64(r.CreatedAt.Unix()))
	b = binary.BigEndian.AppendUint64(b, uint64(r.Total))
	items := uint32(min(r.Items, rowItemsMax))
	if r.Test {
		items |= rowTestFlag
	}
	b = binary.BigEndian.AppendUint32(b, items)
	for _, s := range []string{r.Status, r.PaymentStatus, r.PaymentMethod, r.Currency, r.Email, r.ReceiverName, r.Phone,
		app.OrderSearchKey(r.Email, r.ReceiverName, r.Phone)} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

const (
	rowTestFlag = 1 << 31   // in the item count: a test payment
	rowItemsMax = 1<<31 - 1 // the most items a row counts
)

// rowView reads an encoded row in place (its slices are bbolt's bytes).
type rowView struct {
	customer uint64
	created  int64
	total    int64
	items    uint32
	strs     [8][]byte // status, payment, method, currency, email, name, phone, search key
}

func parseRow(v []byte, r *rowView) bool {
	if len(v) < 28 {
		return false
	}
	r.customer = binary.BigEndian.Uint64(v)
	r.created = int64(binary.BigEndian.Uint64(v[8:]))
	r.total = int64(binary.BigEndian.Uint64(v[16:]))
	r.items = binary.BigEndian.Uint32(v[24:])
	v = v[28:]
	for i := range r.strs {
		n, w := binary.Uvarint(v)
		if w <= 0 || uint64(len(v)-w) < n {
			return false
		}
		r.strs[i] = v[w : w+int(n)]
		v = v[w+int(n):]
	}
	return true
}

func (r *rowView) row(id uint64) app.OrderRow {
	return app.OrderRow{ID: id, CustomerID: r.customer, CreatedAt: time.Unix(r.created, 0).UTC(), Status: string(r.strs[0]),
		PaymentStatus: string(r.strs[1]), PaymentMethod: string(r.strs[2]), Total: app.Money(r.total),
		Currency: string(r.strs[3]), Email: string(r.strs[4]), ReceiverName: string(r.strs[5]), Phone: string(r.strs[6]),
		Items: int(r.items &^ rowTestFlag), Test: r.items&rowTestFlag != 0}
}

// statsKey is the order_stats key of an order's day and currency.
func statsKey(sid uint64, day time.Time, currency string) []byte {
	return keyOf(sid).id(uint64(app.StatsDay(day).Unix() / 86400)).str0(currency)
}

// putOrderDerived updates the row and the day stats of an order write (old
// nil for a new order), in the write's transaction. When the order stays on
// its day and currency (every write but a re-dated one) its stats entry gets
// the difference, and nothing when what the stats count did not change (a
// status change, an address edit): undoing and redoing the same entry was a
// read and a write of it on every order write.
func (t *Tx) putOrderDerived(old, o *app.Order) error {
	if err := t.b(bOrderRows).Put(keyOf(o.StoreID).id(o.ID), encodeRow(o)); err != nil {
		return fmt.Errorf("storage: put order row: %w", err)
	}
	n, g, r := app.OrderStatsOf(o)
	var key []byte // o's stats entry
	if old != nil {
		on, og, or := app.OrderStatsOf(old)
		oldKey := statsKey(old.StoreID, old.CreatedAt, old.Currency)
		key = statsKey(o.StoreID, o.CreatedAt, o.Currency)
		if bytes.Equal(oldKey, key) { // the same entry: the difference
			n, g, r = n-on, g-og, r-or
		} else if on != 0 || og != 0 || or != 0 {
			if err := t.addStats(oldKey, -on, -int64(og), -int64(or)); err != nil {
				return err
			}
		}
	}
	if n == 0 && g == 0 && r == 0 {
		return nil
	}
	if key == nil {
		key = statsKey(o.StoreID, o.CreatedAt, o.Currency)
	}
	return t.addStats(key, n, int64(g), int64(r))
}

func (t *Tx) addStats(k []byte, n, gross, refunded int64) error {
	b := t.b(bOrderStats)
	cur := [3]int64{}
	if v := b.Get(k); len(v) == 24 {
		for i := range cur {
			cur[i] = int64(binary.BigEndian.Uint64(v[i*8:]))
		}
	}
	cur[0], cur[1], cur[2] = cur[0]+n, cur[1]+gross, cur[2]+refunded
	if cur == [3]int64{} {
		return b.Delete(k)
	}
	return b.Put(k, encodeStats(cur))
}

func encodeStats(v [3]int64) []byte {
	out := make([]byte, 0, 24)
	for _, x := range v {
		out = binary.BigEndian.AppendUint64(out, uint64(x))
	}
	return out
}

// OrderDayStats returns the day aggregates of days in [from, to).
func (t *Tx) OrderDayStats(storeID uint64, from, to time.Time) ([]app.DayStats, error) {
	out := []app.DayStats{}
	lo := keyOf(storeID).id(uint64(app.StatsDay(from).Unix() / 86400))
	hi := keyOf(storeID).id(uint64(app.StatsDay(to).Unix() / 86400))
	c := t.b(bOrderStats).Cursor()
	for k, v := c.Seek(lo); k != nil && bytes.Compare(k, hi) < 0; k, v = c.Next() {
		if len(k) < 17 || len(v) != 24 {
			return nil, fmt.Errorf("storage: bad order stats entry %x", k)
		}
		day := int64(binary.BigEndian.Uint64(k[8:16]))
		out = append(out, app.DayStats{Day: time.Unix(day*86400, 0).UTC(), Currency: string(bytes.TrimSuffix(k[16:], []byte{0})),
			Orders: int64(binary.BigEndian.Uint64(v)), Gross: app.Money(binary.BigEndian.Uint64(v[8:])),
			Refunded: app.Money(binary.BigEndian.Uint64(v[16:]))})
	}
	return out, nil
}

// SearchOrders scans the store's order rows (no JSON is decoded), keeps the
// matches of q, and decodes only the rows of the page asked for.
func (t *Tx) SearchOrders(storeID uint64, q app.OrderQuery) (app.OrderSearch, error) {
	var rv rowView
	match := orderRowMatcher(storeID, q, &rv)
	b := t.b(bOrderRows)
	if q.Sort == app.OrderSortNewest || q.Sort == app.OrderSortOldest || q.Sort == "" {
		return searchOrdersByID(b, storeID, q, match, &rv)
	}
	return searchOrdersByTotal(b, storeID, q, match, &rv)
}

// orderRowMatcher returns whether an order row matches q's filters, parsing
// the row into rv.
func orderRowMatcher(storeID uint64, q app.OrderQuery, rv *rowView) func(id uint64, v []byte) (bool, error) {
	var (
		text     = q.TextMatch()
		from, to int64
		status   = []byte(q.Status)
		payment  = []byte(q.PaymentStatus)
		email    = []byte(q.Email)
	)
	if !q.From.IsZero() {
		from = app.StatsDay(q.From).Unix()
	}
	if !q.To.IsZero() {
		to = app.StatsDay(q.To).AddDate(0, 0, 1).Unix()
	}
	return func(id uint64, v []byte) (bool, error) {
		if !parseRow(v, rv) {
			return false, fmt.Errorf("storage: bad order row %d/%d", storeID, id)
		}
		switch {
		case q.Status != "" && !bytes.Equal(rv.strs[0], status),
			q.PaymentStatus != "" && !bytes.Equal(rv.strs[1], payment),
			from != 0 && rv.created < from,
			to != 0 && rv.created >= to,
			q.CustomerID != 0 && rv.customer != q.CustomerID,
			q.Email != "" && !bytes.EqualFold(rv.strs[4], email),
			text != nil && !text(id, rv.strs[7]):
			return false, nil
		}
		return true, nil
	}
}

// inOrderPage reports whether the n-th match (from 0) is on q's page.
func inOrderPage(q app.OrderQuery, n int) bool {
	return n >= q.Offset && (q.Limit == 0 || n < q.Offset+q.Limit)
}

// searchOrdersByID answers a search sorted by date: ids grow with time, so
// it walks in id order and keeps the page on the way.
func searchOrdersByID(b *bolt.Bucket, storeID uint64, q app.OrderQuery, match func(uint64, []byte) (bool, error), rv *rowView) (app.OrderSearch, error) {
	out := app.OrderSearch{Rows: []app.OrderRow{}}
	err := walk(b, tenant(storeID), nil, q.Sort != app.OrderSortOldest, func(k, v []byte) (bool, error) {
		id := idFromKeyEnd(k)
		ok, err := match(id, v)
		if err != nil || !ok {
			return err == nil, err
		}
		if inOrderPage(q, out.Total) {
			out.Rows = append(out.Rows, rv.row(id))
		}
		out.Total++
		return true, nil
	})
	return out, err
}

// searchOrdersByTotal answers a search sorted by total: it collects every
// match's total, sorts them and reads the rows of the page again.
func searchOrdersByTotal(b *bolt.Bucket, storeID uint64, q app.OrderQuery, match func(uint64, []byte) (bool, error), rv *rowView) (app.OrderSearch, error) {
	out := app.OrderSearch{Rows: []app.OrderRow{}}
	type hit struct {
		id    uint64
		total int64
	}
	var hits []hit
	err := walk(b, tenant(storeID), nil, true, func(k, v []byte) (bool, error) {
		id := idFromKeyEnd(k)
		ok, err := match(id, v)
		if ok {
			hits = append(hits, hit{id, rv.total})
		}
		return err == nil, err
	})
	if err != nil {
		return out, err
	}
	desc := q.Sort == app.OrderSortTotalDesc
	slices.SortStableFunc(hits, func(a, b hit) int {
		if a.total != b.total {
			if desc == (a.total > b.total) {
				return -1
			}
			return 1
		}
		return 0 // newest first among equal totals (the walk's order)
	})
	out.Total = len(hits)
	for i, h := range hits {
		if !inOrderPage(q, i) {
			continue
		}
		if !parseRow(b.Get(keyOf(storeID).id(h.id)), rv) {
			return out, fmt.Errorf("storage: bad order row %d/%d", storeID, h.id)
		}
		out.Rows = append(out.Rows, rv.row(h.id))
	}
	return out, nil
}

// CountPendingOrdersBefore counts PENDING orders created before before, from
// the status index and the rows (ids grow with time: it stops at the first
// newer one).
func (t *Tx) CountPendingOrdersBefore(storeID uint64, before time.Time) (int, error) {
	n := 0
	rows := t.b(bOrderRows)
	var rv rowView
	err := walk(t.b(bIdxOrdersStatus), keyOf(storeID).str0(app.OrderPending), nil, false, func(k, _ []byte) (bool, error) {
		id := idFromKeyEnd(k)
		if !parseRow(rows.Get(keyOf(storeID).id(id)), &rv) {
			return false, fmt.Errorf("storage: bad order row %d/%d", storeID, id)
		}
		if rv.created >= before.Unix() {
			return false, nil
		}
		n++
		return true, nil
	})
	return n, err
}

// wantOrderDerived collects the rows and stats that the orders imply:
// verifyOrders feeds it each order of its walk and then puts the stats.
type wantOrderDerived map[string][3]int64

func (d wantOrderDerived) add(want expectKeys, o *app.Order) {
	want.put(bOrderRows, keyOf(o.StoreID).id(o.ID), encodeRow(o))
	n, g, r := app.OrderStatsOf(o)
	if n != 0 || g != 0 || r != 0 {
		k := string(statsKey(o.StoreID, o.CreatedAt, o.Currency))
		s := d[k]
		d[k] = [3]int64{s[0] + n, s[1] + int64(g), s[2] + int64(r)}
	}
}

func (d wantOrderDerived) putStats(want expectKeys) {
	for k, s := range d {
		want.put(bOrderStats, []byte(k), encodeStats(s))
	}
}

// rebuildOrderDerived rewrites the rows and stats from the orders (a
// database made before they existed).
func rebuildOrderDerived(tx *bolt.Tx) error {
	t := &Tx{tx: tx}
	return tx.Bucket(bOrders).ForEach(func(k, v []byte) error {
		o, err := storedOrder(k, v)
		if err != nil {
			return err
		}
		return t.putOrderDerived(nil, o)
	})
}
