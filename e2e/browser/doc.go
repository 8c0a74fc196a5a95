// Package browser is the harness of the browser tests: it builds the real
// storefront binary once per test run, starts it on a free port with a temp
// data dir (demo data, or data a test seeds through the storage layer first),
// and drives Chromium with chromedp ($CHROMIUM: make test sets Chromium's
// headless shell, scripts/headless-shell.sh; else the chromium on the PATH,
// Debian's package): one browser per test binary, a tab in its own browser
// context (its own cookies) per test.
//
// A test package calls Main from TestMain, then in each test:
//
//	srv := browser.StartServer(t, browser.ServerOptions{Demo: true})
//	p := browser.NewPage(t, srv)
//	p.LoginOwner()
//	p.Go("/admin/")
//	p.CheckNoOverflow()
//
// With $SCREENSHOT_DIR set, every page loaded through Go or Submit is saved
// there as a screenshot (the path is logged); without it only a failed
// overflow or word-break check saves one (in a storefront-screenshots-*
// folder of the run's own in the temp dir). A console error, an uncaught exception or a browser log error
// on the page fails the test when it ends. Waits are on DOM conditions and
// load events, never sleeps.
//
// Without chromium the tests skip, except in CI (CI=true), where they fail:
// make test installs chromium when it is missing (.ci/chromium.sh).
//
// It imports nothing of the storefront itself: tests that seed data import
// storage and app.
package browser
