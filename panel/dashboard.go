package panel

import (
	"html/template"
	"strconv"
	"strings"

	"storefront/app"
)

// dashData is the store dashboard at the top of the store's overview page.
type dashData struct {
	*app.Dashboard
	TestMode bool // the store takes test (sandbox) payments
	Chart    template.HTML
	Todos    []todoLink
}

type todoLink struct {
	app.Todo
	Href string
}

// todoPaths are where each to-do line leads.
var todoPaths = map[string]string{
	"cancellations": "cancellations/",
	"refunds":       "refunds/",
	"reviews":       "reviews/",
	"tickets":       "tickets/?status=OPEN",
	"messages":      "messages/",
	"low_stock":     "products/",
	"expiring":      "orders/?status=PENDING&payment_status=all&sort=oldest",
}

// storeDashboard builds the dashboard of st.
func (p *panel) storeDashboard(st *app.Store) (*dashData, error) {
	d, err := p.h.svc.Orders.Dashboard(st.ID)
	if err != nil {
		return nil, err
	}
	out := &dashData{Dashboard: d, TestMode: p.h.svc.Payments.TakesTestPayments(st), Chart: revenueChart(d)}
	for _, t := range d.Todos {
		out.Todos = append(out.Todos, todoLink{Todo: t, Href: storePath(st, todoPaths[t.Key])})
	}
	return out, nil
}

// revenueChart draws the last 30 days' revenue as an SVG bar chart, built
// on the server (no script): one bar per day with its figures as a tooltip
// (<title>), the highest day labelled on the axis. Only presentation
// attributes are used, so the strict CSP (no inline style) holds.
func revenueChart(d *app.Dashboard) template.HTML {
	const w, h, top, bottom, left = 600, 160, 12, 20, 4
	var max app.Money
	for _, day := range d.Chart {
		if day.Revenue > max {
			max = day.Revenue
		}
	}
	n := len(d.Chart)
	if n == 0 {
		return ""
	}
	slot := float64(w-left) / float64(n)
	var b strings.Builder
	b.WriteString(`<svg class="chart" viewBox="0 0 ` + itoa(w) + ` ` + itoa(h) + `" role="img" aria-label="Revenue per day, last 30 days" xmlns="http://www.w3.org/2000/svg">`)
	b.WriteString(`<line x1="0" y1="` + itoa(h-bottom) + `" x2="` + itoa(w) + `" y2="` + itoa(h-bottom) + `" stroke="#cfd4dc"/>`)
	for i, day := range d.Chart {
		bh := 0.0
		if max > 0 {
			bh = float64(day.Revenue) / float64(max) * float64(h-top-bottom)
		}
		if day.Revenue > 0 && bh < 1 {
			bh = 1
		}
		x := float64(left) + float64(i)*slot + slot*0.15
		y := float64(h-bottom) - bh
		label := day.Day.Format("Mon 2 Jan") + ": " + day.Revenue.String() + " " + d.Currency + ", " + strconv.FormatInt(day.Orders, 10) + " paid orders"
		b.WriteString(`<g><title>` + template.HTMLEscapeString(label) + `</title>`)
		// a transparent full-height hit area keeps the tooltip on empty days
		b.WriteString(`<rect x="` + ftoa(x) + `" y="` + itoa(top) + `" width="` + ftoa(slot*0.7) + `" height="` + itoa(h-top-bottom) + `" fill="transparent"/>`)
		b.WriteString(`<rect x="` + ftoa(x) + `" y="` + ftoa(y) + `" width="` + ftoa(slot*0.7) + `" height="` + ftoa(bh) + `" fill="#1f6feb" rx="1"/></g>`)
		if i == 0 || i == n-1 || i == n/2 {
			anchor, tx := "middle", x+slot*0.35
			if i == 0 {
				anchor, tx = "start", x
			} else if i == n-1 {
				anchor, tx = "end", x+slot*0.7
			}
			b.WriteString(`<text x="` + ftoa(tx) + `" y="` + itoa(h-4) + `" font-size="11" fill="#667085" text-anchor="` + anchor + `">` + day.Day.Format("2 Jan") + `</text>`)
		}
	}
	if max > 0 {
		b.WriteString(`<text x="` + itoa(w) + `" y="10" font-size="11" fill="#667085" text-anchor="end">max ` + template.HTMLEscapeString(max.String()+" "+d.Currency) + `</text>`)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // every piece above is a number, a date or escaped
}

func itoa(n int) string { return strconv.Itoa(n) }

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }
