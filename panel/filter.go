package panel

import (
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"

	"storefront/app"
	"storefront/httpkit/staff"
)

// statusAll is the ?status= value of a list that shows every status.
const statusAll = staff.StatusAll

// filterTab is one link of a list's status filter.
type filterTab struct {
	Label string
	Href  string
	On    bool
}

// statusFilter is a list page's ?status= filter.
type statusFilter struct {
	Status string // for the service: "" is every status
	Value  string // as in links: "PENDING", "all", ...
	Base   string // the list's first page with this filter
	Tabs   []filterTab
}

// readStatusFilter reads ?status= of the list at base: empty is def, "all"
// is every status, anything else outside statuses is validation_failed.
func readStatusFilter(c *fiber.Ctx, base, def string, statuses []string) (statusFilter, error) {
	value := strings.Clone(c.Query("status"))
	if value == "" {
		value = def
	}
	if value != statusAll && !slices.Contains(statuses, value) {
		return statusFilter{}, app.Invalid("status", "must be one of "+strings.Join(statuses, ", ")+" or all")
	}
	f := statusFilter{Value: value, Base: filterHref(base, def, value)}
	if value != statusAll {
		f.Status = value
	}
	for _, s := range append(slices.Clone(statuses), statusAll) {
		label := strings.ReplaceAll(s, "_", " ")
		label = strings.ToUpper(label[:1]) + strings.ToLower(label[1:])
		f.Tabs = append(f.Tabs, filterTab{Label: label, Href: filterHref(base, def, s), On: s == value})
	}
	return f, nil
}

// filterHref is the link to the list at base filtered by value.
func filterHref(base, def, value string) string {
	if value == def {
		return base
	}
	return base + "?status=" + value
}

// backToFilter is the list a form came from (its hidden "status" field), or
// the list's default view when the field is missing or unknown.
func backToFilter(c *fiber.Ctx, base, def string, statuses []string) string {
	value := readForm(c, nil, "status")["status"]
	if value != statusAll && !slices.Contains(statuses, value) {
		return base
	}
	return filterHref(base, def, value)
}

// filtered is a page of a list under its ?status= filter.
type filtered[T any] struct {
	Base   string // the list's path
	Filter statusFilter
	rows[T]
}

// filteredPage reads the page (?cursor=) of the store's newest-first list at
// path under its ?status= filter (readStatusFilter) from list.
func filteredPage[T any](p *panel, c *fiber.Ctx, v *view, path, def string, statuses []string,
	list func(storeID uint64, status string, lp app.ListParams) (app.Page[T], error)) (filtered[T], error) {
	d := filtered[T]{Base: storePath(v.Store, path+"/")}
	f, err := readStatusFilter(c, d.Base, def, statuses)
	if err != nil {
		return d, err
	}
	d.Filter = f
	d.Rows, d.Pager, err = listPage(p, c, v, path+":"+f.Value, f.Base,
		func(storeID uint64, lp app.ListParams) (app.Page[T], error) { return list(storeID, f.Status, lp) })
	return d, err
}
