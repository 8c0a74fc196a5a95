package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"storefront/testenv"
)

// Widths are the viewport widths CheckNoOverflow tries: a laptop and a phone.
var Widths = []int64{1280, 390}

// PageTimeout bounds one test's page: a selector that never shows fails the
// test after it instead of hanging the run. Generous: on a loaded 2-core
// machine (make test runs every package at once) a page test can take minutes.
const PageTimeout = 5 * time.Minute

// ErrNoChromium is returned when no Chromium binary is found.
var ErrNoChromium = errors.New("chromium not found (install the Debian package chromium, or set CHROMIUM to its path)")

var shared struct {
	mu      sync.Mutex
	started bool
	err     error
	ctx     context.Context // the browser; tabs are children of it
	cancel  func()
	profile string // the fresh --user-data-dir, removed by Main
	shots   string // where screenshots go
	review  bool   // SCREENSHOT_DIR is set: every page is saved, not only failures
}

// Main runs a package's tests (call it from TestMain) and closes the shared
// browser and the built binary afterwards.
func Main(m *testing.M) {
	code := m.Run()
	shared.mu.Lock()
	if shared.cancel != nil {
		shared.cancel()
	}
	if shared.profile != "" {
		_ = os.RemoveAll(shared.profile)
	}
	if shared.shots != "" {
		fmt.Printf("browser: screenshots in %s\n", shared.shots)
	}
	shared.mu.Unlock()
	testenv.RemoveBinary()
	os.Exit(code)
}

// FindChromium returns the path of a Chromium (or Chrome) binary: $CHROMIUM,
// then chromium, chromium-browser, google-chrome on PATH.
func FindChromium() (string, error) {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNoChromium
}

// inCI reports whether the run is CI's (CI=true), where a missing browser fails.
func inCI() bool {
	v, _ := strconv.ParseBool(os.Getenv("CI"))
	return v
}

// browserContext starts the one browser of the test binary on first use.
func browserContext(t testing.TB) context.Context {
	t.Helper()
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if !shared.started {
		shared.started = true
		shared.err = launch()
	}
	if errors.Is(shared.err, ErrNoChromium) {
		if inCI() {
			t.Fatalf("browser tests: %v (CI=true: make test installs it)", shared.err)
		}
		t.Skipf("browser tests skipped: %v", shared.err)
	}
	if shared.err != nil {
		t.Fatalf("browser tests: starting chromium: %v", shared.err)
	}
	return shared.ctx
}

func launch() error {
	path, err := FindChromium()
	if err != nil {
		return err
	}
	profile, err := os.MkdirTemp("", "storefront-chromium-")
	if err != nil {
		return err
	}
	shared.profile = profile
	shared.shots = os.Getenv("SCREENSHOT_DIR")
	shared.review = shared.shots != ""
	if shared.review {
		if err := os.MkdirAll(shared.shots, 0o755); err != nil {
			return err
		}
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1280, 900),
		// This machine's network is closed: without these the browser's own
		// connections (updates, field trials, QUIC probes) are refused and
		// slow every page down.
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		// The shop's host routing: every *.shops.test name reaches the test
		// server (a server started with shop.domain shops.test).
		chromedp.Flag("host-resolver-rules", "MAP *.shops.test 127.0.0.1"),
	)
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	if err := chromedp.Do(bctx); err != nil { // starts the browser, with no timeout
		bcancel()
		acancel()
		return err
	}
	shared.ctx = bctx
	shared.cancel = func() { bcancel(); acancel() }
	return nil
}

// Page is one tab in its own browser context (its own cookies), bound to one
// test and one server.
type Page struct {
	T   testing.TB
	Srv *Server
	ctx context.Context

	mu       sync.Mutex
	console  []chromedp.ConsoleMessage
	markers  map[string]chan struct{}
	shotSeq  int
	shotName string
	// allowed are document URLs a test expected to fail (GoStatus/Submit
	// with a status >= 400): the browser's "Failed to load resource" for
	// them is not an error of the page.
	allowed map[string]bool
	// allowedPrefixes are URL prefixes whose errors a test expects (the
	// browser's CORS errors for calls it blocks on purpose): AllowConsoleErrors.
	allowedPrefixes []string
	// scriptsOff: the page's JavaScript is disabled (SetScripts).
	scriptsOff bool
}

var pageSeq struct {
	mu sync.Mutex
	n  map[string]int
}

// NewPage opens a tab for the test on srv. It skips the test when Chromium is
// missing outside CI. When the test ends it fails on any console error the
// page logged, and closes the tab.
func NewPage(t testing.TB, srv *Server) *Page {
	t.Helper()
	bctx := browserContext(t)
	tctx, tcancel := context.WithTimeout(bctx, PageTimeout)
	ctx, cancel := chromedp.NewContext(tctx, chromedp.WithNewBrowserContext())
	name := regexp.MustCompile(`[^A-Za-z0-9_-]+`).ReplaceAllString(t.Name(), "_")
	pageSeq.mu.Lock()
	if pageSeq.n == nil {
		pageSeq.n = map[string]int{}
	}
	pageSeq.n[name]++
	if n := pageSeq.n[name]; n > 1 {
		name += "-tab" + strconv.Itoa(n)
	}
	pageSeq.mu.Unlock()
	p := &Page{T: t, Srv: srv, ctx: ctx, markers: map[string]chan struct{}{}, shotName: name, allowed: map[string]bool{}}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(Widths[0], 900)); err != nil {
		cancel()
		tcancel()
		t.Fatalf("opening a tab: %v", err)
	}
	messages := chromedp.Console(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m, err := range messages {
			if err != nil {
				return
			}
			p.mu.Lock()
			if ch, ok := p.markers[m.Text]; ok {
				close(ch)
				delete(p.markers, m.Text)
			} else {
				p.console = append(p.console, m)
			}
			p.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		if !t.Failed() {
			p.CheckNoConsoleErrors()
		}
		cancel()
		tcancel()
		<-done
	})
	return p
}

// Context is the tab's chromedp context, for actions the helpers lack.
func (p *Page) Context() context.Context { return p.ctx }

// Do runs chromedp actions on the tab and fails the test on an error.
func (p *Page) Do(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.T.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.T.Fatalf("%s: %v", what, err)
	}
}

// Eval evaluates a JavaScript expression on the page and decodes its value.
func Eval[T any](p *Page, expr string) T {
	p.T.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.T.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// Go opens a path of the server (such as /admin/), waits for the load,
// fails on an HTTP status >= 400, and saves a screenshot.
func (p *Page) Go(path string) {
	p.T.Helper()
	p.GoStatus(path, 0)
}

// GoStatus is Go expecting a status (0: any status below 400).
func (p *Page) GoStatus(path string, want int) {
	p.T.Helper()
	resp, err := chromedp.Run(p.ctx, chromedp.NavigateResponse(p.Srv.URL+path))
	p.checkResponse("GET "+path, resp, err, want)
}

// Submit clicks the element (a submit button, a link) and waits for the page
// the click loads, failing on a status >= 400 (or not want when want != 0).
func (p *Page) Submit(sel string, want ...int) {
	p.T.Helper()
	resp, err := chromedp.RunResponse(p.ctx, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
	w := 0
	if len(want) > 0 {
		w = want[0]
	}
	p.checkResponse("click "+sel, resp, err, w)
}

func (p *Page) checkResponse(what string, resp *network.Response, err error, want int) {
	p.T.Helper()
	if err != nil {
		p.T.Fatalf("%s: %v", what, err)
	}
	status := int(resp.Status)
	if want >= 400 && status == want {
		p.mu.Lock()
		p.allowed[resp.URL] = true
		p.mu.Unlock()
	}
	if (want == 0 && status >= 400) || (want != 0 && status != want) {
		body, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText.slice(0, 2000) : ""`))
		p.T.Fatalf("%s: got status %d (%s), want %d: %s", what, status, resp.URL, want, body)
	}
	p.Screenshot("")
}

// Login logs in to the panel (a fresh tab starts logged out) and waits for
// the page after the login.
func (p *Page) Login(email, password string) {
	p.T.Helper()
	p.Go("/admin/login/")
	p.Fill(`input[name=email]`, email)
	p.Fill(`input[name=password]`, password)
	p.Submit(`form button[type=submit]`)
	if strings.Contains(p.URL(), "/admin/login") {
		p.T.Fatalf("login as %s failed: %s", email, p.Text(`main`))
	}
}

// LoginOwner logs in as the owner account of the harness.
func (p *Page) LoginOwner() { p.T.Helper(); p.Login(OwnerEmail, OwnerPassword) }

// URL is the page's current address.
func (p *Page) URL() string {
	p.T.Helper()
	return Eval[string](p, `location.href`)
}

// Fill sets the value of an input, textarea or select (replacing what it had)
// and fires input/change events.
func (p *Page) Fill(sel, value string) {
	p.T.Helper()
	p.Do("fill "+sel, chromedp.SetValue(chromedp.CSS(sel), value, chromedp.NodeReady))
}

// Type types text into a field with key events (appends to its value).
func (p *Page) Type(sel, text string) {
	p.T.Helper()
	p.Do("type into "+sel, chromedp.SendKeys(chromedp.CSS(sel), text, chromedp.NodeVisible))
}

// SetChecked ticks or unticks a checkbox.
func (p *Page) SetChecked(sel string, on bool) {
	p.T.Helper()
	p.Do("check "+sel, chromedp.WaitReady(chromedp.CSS(sel)))
	js := fmt.Sprintf(`(function(){var e=document.querySelector(%s); if(e.checked!==%t){e.click()} return e.checked})()`, strconv.Quote(sel), on)
	if got := Eval[bool](p, js); got != on {
		p.T.Fatalf("check %s: still %t", sel, got)
	}
}

// Click clicks an element that does not load a new page.
func (p *Page) Click(sel string) {
	p.T.Helper()
	p.Do("click "+sel, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
}

// Upload sets the files of a file input.
func (p *Page) Upload(sel string, files ...string) {
	p.T.Helper()
	p.Do("upload to "+sel, chromedp.SetUploadFiles(chromedp.CSS(sel), files, chromedp.NodeReady))
}

// WaitVisible waits until an element is visible.
func (p *Page) WaitVisible(sel string) {
	p.T.Helper()
	p.Do("wait for "+sel, chromedp.WaitVisible(chromedp.CSS(sel)))
}

// Text is the visible text of the first element matching sel (waits for it).
func (p *Page) Text(sel string) string {
	p.T.Helper()
	s, err := chromedp.Run(p.ctx, chromedp.Text(chromedp.CSS(sel), chromedp.NodeReady))
	if err != nil {
		p.T.Fatalf("text of %s: %v", sel, err)
	}
	return s
}

// Count is how many elements match sel now (no waiting).
func (p *Page) Count(sel string) int {
	p.T.Helper()
	return Eval[int](p, fmt.Sprintf(`document.querySelectorAll(%s).length`, strconv.Quote(sel)))
}

// Attr is an attribute of the first element matching sel now ("" if none).
func (p *Page) Attr(sel, name string) string {
	p.T.Helper()
	return Eval[string](p, fmt.Sprintf(`(function(){var e=document.querySelector(%s); return e ? (e.getAttribute(%s)||"") : ""})()`, strconv.Quote(sel), strconv.Quote(name)))
}

// overflowJS names up to five elements that stick out on the right.
const overflowJS = `(function(){
  var w = window.innerWidth, d = document.documentElement;
  if (d.scrollWidth <= w) return "";
  var out = [];
  document.querySelectorAll("body *").forEach(function(e){
    if (out.length >= 5) return;
    var r = e.getBoundingClientRect();
    if (r.right > w + 0.5) {
      var name = e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className && typeof e.className === "string" ? "." + e.className.trim().split(/\s+/).join(".") : "");
      out.push(name + " (right " + Math.round(r.right) + ")");
    }
  });
  return "scrollWidth " + d.scrollWidth + " > innerWidth " + w + ": " + out.join(", ");
})()`

// CheckNoOverflow loads nothing: it resizes the current page to each width of
// Widths, fails if the document is wider than the viewport (naming the
// elements that stick out), saves a screenshot at each width, and restores
// the first width.
func (p *Page) CheckNoOverflow() {
	p.T.Helper()
	p.atEachWidth(nil)
}

// atEachWidth resizes the page to each width of Widths, fails on horizontal
// overflow, saves a screenshot, runs more(w) when set, and restores the
// first width.
func (p *Page) atEachWidth(more func(w int64)) {
	p.T.Helper()
	for _, w := range Widths {
		p.Do("viewport", chromedp.EmulateViewport(w, 900))
		p.afterResize()
		if msg := Eval[string](p, overflowJS); msg != "" {
			p.saveScreenshot(fmt.Sprintf("overflow-%d", w))
			p.T.Errorf("%s at %d px: horizontal overflow: %s", p.URL(), w, msg)
		} else {
			p.Screenshot(fmt.Sprintf("%dpx", w))
		}
		if more != nil {
			more(w)
		}
	}
	p.Do("viewport", chromedp.EmulateViewport(Widths[0], 900))
	p.afterResize()
}

// afterResize waits until the page's script has handled a viewport change
// (the panel marks the tables that scroll then): the resize steps run before
// the next animation frame's callbacks. Without script there is nothing to wait for.
func (p *Page) afterResize() {
	p.T.Helper()
	if p.scriptsOff {
		return
	}
	const js = `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`
	if _, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](js, chromedp.EvalAwaitPromise)); err != nil {
		p.T.Fatalf("waiting for the resize: %v", err)
	}
}

// Screenshot saves a full-page JPEG of the tab for a person to look at when
// SCREENSHOT_DIR is set, and returns its path ("" when it is not set: the
// screenshots of every page took a sixth of the browser tests' CPU in make
// test, where nobody looks at them). A failed check saves its own always.
func (p *Page) Screenshot(label string) string {
	p.T.Helper()
	if !shared.review {
		return ""
	}
	return p.saveScreenshot(label)
}

// saveScreenshot saves a full-page JPEG of the tab into the screenshot
// folder (named after the test, a sequence number, the path and the label)
// and returns its path.
func (p *Page) saveScreenshot(label string) string {
	p.T.Helper()
	buf, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(80))
	if err != nil {
		p.T.Fatalf("screenshot: %v", err)
	}
	u := strings.TrimPrefix(p.URL(), p.Srv.URL)
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	u = strings.Trim(regexp.MustCompile(`[^A-Za-z0-9]+`).ReplaceAllString(u, "-"), "-")
	p.mu.Lock()
	p.shotSeq++
	name := fmt.Sprintf("%s-%03d-%s", p.shotName, p.shotSeq, u)
	p.mu.Unlock()
	if label != "" {
		name += "-" + label
	}
	file := filepath.Join(shotDir(p.T), name+".jpg")
	if err := os.WriteFile(file, buf, 0o644); err != nil {
		p.T.Fatalf("screenshot: %v", err)
	}
	p.T.Logf("screenshot %s", file)
	return file
}

// shotDir is the folder screenshots go to: $SCREENSHOT_DIR, else one made
// for this run when a failed check saves its first (storefront-screenshots-*
// in the temp dir, kept after the run so they can be looked at, and named
// by Main; a passing run writes none). Never a fixed folder: runs at once on
// one machine must not empty or mix each other's.
func shotDir(t testing.TB) string {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.shots == "" {
		dir, err := os.MkdirTemp("", "storefront-screenshots-")
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		shared.shots = dir
	}
	return shared.shots
}

// ScreenshotDir is the folder screenshots go to ($SCREENSHOT_DIR, or the
// run's own folder once a failed check saved one; "" before).
func ScreenshotDir() string {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	return shared.shots
}

// sync makes sure every console message the page wrote so far has reached
// the collector: it logs a marker and waits for it to come back.
func (p *Page) sync() {
	p.T.Helper()
	marker := "__browser_sync_" + strconv.FormatInt(time.Now().UnixNano(), 36)
	ch := make(chan struct{})
	p.mu.Lock()
	p.markers[marker] = ch
	p.mu.Unlock()
	if _, err := chromedp.Run(p.ctx, chromedp.Evaluate[chromedp.Void](`console.debug(`+strconv.Quote(marker)+`)`)); err != nil {
		p.T.Fatalf("console sync: %v", err)
	}
	select {
	case <-ch:
	case <-p.ctx.Done():
		p.T.Fatalf("console sync: %v", p.ctx.Err())
	}
}

// AllowConsoleErrors tells the page that the errors the browser logs about
// requests to URLs starting with prefix are expected (a test that makes the
// browser block a cross-origin call logs "blocked by CORS policy" and
// "Failed to load resource" for it).
func (p *Page) AllowConsoleErrors(prefix string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.allowedPrefixes = append(p.allowedPrefixes, prefix)
}

// expected reports whether a console message is about a URL a test allowed
// errors for (p.mu held).
func (p *Page) expected(m chromedp.ConsoleMessage) bool {
	for _, pre := range p.allowedPrefixes {
		if strings.HasPrefix(m.URL, pre) || strings.Contains(m.Text, "'"+pre) {
			return true
		}
	}
	return false
}

// ConsoleErrors are the errors, warnings of the browser about the page (CSP
// violations, failed loads) and uncaught exceptions logged so far.
func (p *Page) ConsoleErrors() []string {
	p.T.Helper()
	p.sync()
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, m := range p.console {
		if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException {
			if m.Source == "network" && (p.allowed[m.URL] || strings.HasSuffix(m.URL, "/favicon.ico")) {
				// The browser fetches /favicon.ico by itself, at a moment of its
				// choosing: its answer is the server's business (a test of its own),
				// not an error of the page under test.
				continue
			}
			if p.expected(m) {
				continue
			}
			s := m.String()
			if m.URL != "" {
				s += " (" + m.URL + ")"
			}
			out = append(out, s)
		}
	}
	return out
}

// CheckNoConsoleErrors fails the test on any console error so far. NewPage
// calls it when the test ends.
func (p *Page) CheckNoConsoleErrors() {
	p.T.Helper()
	if errs := p.ConsoleErrors(); len(errs) > 0 {
		p.T.Errorf("console errors on the page:\n  %s", strings.Join(errs, "\n  "))
	}
}

// MaxWordLen is the longest string without spaces that the broken-word
// check holds to its line: longer ones (URLs, keys, a test's 300-character
// strings) may wrap anywhere, since on a narrow screen they have to.
const MaxWordLen = 40

// brokenWordsJS names up to five words of the page that the layout split
// across two lines although they would fit on one line of the page: each
// word (a run of letters and digits, in a string without spaces of at most
// MaxWordLen characters) of every visible text node is measured with
// Range.getClientRects; more than one line (rects with different tops) is a
// break inside the word. A word wider than the main column is let off (it
// cannot fit anywhere).
var brokenWordsJS = `(function(maxLen){
  var out = [];
  var col = document.querySelector("main") || document.body;
  var cs = getComputedStyle(col);
  var colW = col.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  var walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  var tok = /\S+/g, re = /[\p{L}\p{N}]+/gu, range = document.createRange();
  for (var n = walk.nextNode(); n && out.length < 5; n = walk.nextNode()) {
    var el = n.parentElement;
    if (!el || /^(SCRIPT|STYLE|OPTION|TEXTAREA|TITLE|NOSCRIPT)$/.test(el.tagName)) continue;
    if (!el.checkVisibility()) continue;
    var t; tok.lastIndex = 0;
    while ((t = tok.exec(n.data)) && out.length < 5) {
    if (t[0].length > maxLen) continue;
    var m; re.lastIndex = 0;
    while ((m = re.exec(t[0])) && out.length < 5) {
      var w = m[0], at = t.index + m.index;
      if (w.length < 2) continue;
      range.setStart(n, at); range.setEnd(n, at + w.length);
      var rects = Array.from(range.getClientRects()).filter(function(r){ return r.width > 0 && r.height > 0; });
      if (rects.length < 2) continue;
      var tops = new Set(rects.map(function(r){ return Math.round(r.top); }));
      if (tops.size < 2) continue;
      var width = rects.reduce(function(s, r){ return s + r.width; }, 0);
      if (width > colW) continue;
      var name = el.tagName.toLowerCase() + (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : "");
      out.push(JSON.stringify(w) + " in " + name + " (" + Math.round(width) + " px wide, split over " + tops.size + " lines)");
    }
    }
  }
  return out.join(", ");
})(` + strconv.Itoa(MaxWordLen) + `)`

// CheckNoBrokenWords fails the test when the current page, at its current
// width, shows a word split over two lines (letters of one word on two
// lines: a column squeezed below the word's width), naming the words.
func (p *Page) CheckNoBrokenWords(width int64) {
	p.T.Helper()
	if msg := Eval[string](p, brokenWordsJS); msg != "" {
		p.saveScreenshot(fmt.Sprintf("broken-words-%d", width))
		p.T.Errorf("%s at %d px: words broken across lines: %s", p.URL(), width, msg)
	}
}

// CheckPanelPage checks the current page at each width of Widths: no
// horizontal overflow, no word broken across lines, and (axe-core) no
// critical or serious accessibility violation; it saves a screenshot at
// each width and restores the first width.
func (p *Page) CheckPanelPage() {
	p.T.Helper()
	p.atEachWidth(func(w int64) {
		p.CheckNoBrokenWords(w)
		p.CheckAxe()
	})
}
