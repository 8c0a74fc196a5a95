package storagetest

import (
	"fmt"

	"storefront/app"
)

// testSettingsVersions: ids grow per store, the list is newest first and
// paged, a store sees only its own, and keep bounds the history.
func testSettingsVersions(e *env) {
	a, b := e.store("a"), e.store("b")
	add := func(sid uint64, n int) {
		v := &app.SettingsVersion{StoreID: sid, CreatedAt: t0, AdminEmail: "o@example.com",
			Settings: app.StoreSettingsDoc{Config: []byte(fmt.Sprintf(`{"n":%d}`, n))}, Changes: []app.SettingsChange{{Path: "config.n", After: float64(n)}}}
		e.update(func(tx app.Tx) error { return tx.AddSettingsVersion(v, 3) })
	}
	for i := 1; i <= 5; i++ {
		add(a, i)
	}
	add(b, 9)
	vid := func(x *app.SettingsVersion) string { return fmt.Sprint(x.ID) }
	list := func(sid uint64) []string {
		return sorted(e, vid, func(tx app.Tx, lp app.ListParams) (app.Page[*app.SettingsVersion], error) {
			return tx.SettingsVersions(sid, lp)
		})
	}
	e.same("the last three, newest first", list(a), ids(5, 4, 3))
	e.same("the other store's", list(b), ids(1))
	e.view(func(tx app.Tx) error {
		v, err := tx.SettingsVersion(a, 4)
		e.want(err, "")
		e.same("settings", string(v.Settings.Config), `{"n":4}`)
		e.same("change", fmt.Sprint(v.Changes), "[{config.n <nil> 4}]")
		_, err = tx.SettingsVersion(a, 1)
		e.want(err, app.ENotFound)
		_, err = tx.SettingsVersion(b, 4)
		e.want(err, app.ENotFound)
		return nil
	})
}
