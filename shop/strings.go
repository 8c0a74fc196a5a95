package shop

import (
	"storefront/app/i18n"
)

// Every user-facing string of the shop comes from the message catalogue
// (app/i18n, one file per language): templates write {{t "key"}} (or
// {{tf "key" args}} for a format, with plural forms by the first integer),
// Go code rq.L.T("key") and rq.L.TF("key", args...). rq.L is the store's
// language (config key locale), with the owner's overrides from
// <theme_dir>/messages/<lang>.txt. Keys are grouped by page, one prefix
// each.

// english is the catalogue of code that runs outside a request (tests).
func english() *i18n.Catalog { return i18n.Builtin().For("en") }
