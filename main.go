// Command storefront serves the Storefront API: one binary, one database
// file. See README.md.
//
//	storefront serve [--config FILE]    run the server
//	storefront backup [--config FILE] FILE   consistent copy of a live or stopped database
//	storefront version
//
// main wires the packages together: config, storage, services, the HTTP
// servers, cron jobs and the ordered shutdown. Nothing else lives here.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/robfig/cron/v3"

	"storefront/admin"
	"storefront/app"
	"storefront/app/auth"
	"storefront/app/config"
	"storefront/app/demo"
	"storefront/app/imaging"
	"storefront/app/mail"
	"storefront/app/payment/stripe"
	"storefront/app/webhook"
	"storefront/asynclog"
	"storefront/httpkit"
	"storefront/panel"
	"storefront/shop"
	"storefront/storage"
	"storefront/storage/postgres"
	"storefront/web"
)

// version, commit and buildDate are set at build time by make (-ldflags
// "-X main.version=..."; scripts/version.sh derives the version from the git
// tags). A plain `go build` falls back to the VCS data Go records.
var (
	version   = ""
	commit    = ""
	buildDate = ""
)

// buildInfo fills what -ldflags did not set from the module's build info.
func buildInfo() (ver, rev, date string) {
	ver, rev, date = version, commit, buildDate
	if bi, ok := debug.ReadBuildInfo(); ok {
		dirty := false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if rev == "" {
					rev = s.Value
				}
			case "vcs.time":
				if date == "" {
					date = s.Value
				}
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if ver == "" && rev != "" {
			ver = "v0.0.0-dev+" + rev[:min(12, len(rev))]
			if dirty {
				ver += ".dirty"
			}
		}
	}
	if ver == "" {
		ver = "v0.0.0-dev"
	}
	if rev == "" {
		rev = "unknown"
	}
	if date == "" {
		date = "unknown"
	}
	return ver, rev, date
}

// shutdownTimeout bounds each step of the shutdown (cron jobs, HTTP drain).
const shutdownTimeout = 20 * time.Second

func main() { os.Exit(run(os.Args[1:])) }

func run(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runWith(ctx, args, env{environ: os.Environ(), stdout: os.Stdout, stderr: os.Stderr})
}

// env is the outside world of one run, passed in so tests can drive run.
type env struct {
	environ        []string
	stdout, stderr io.Writer
	// ready, when set, is called with the bound address once the server
	// accepts connections.
	ready func(addr string)
}

const usage = `Usage:
  storefront serve [--config FILE]          run the server (defaults serve without a file)
  storefront backup [--config FILE] FILE    write a consistent copy of the database to FILE
  storefront migrate status|up [--config FILE]
                                            PostgreSQL: list the schema migrations (up: apply the pending ones)
  storefront migrate-data --from bolt:PATH --to postgres:URL [--force]
                                            copy a stopped bbolt database into PostgreSQL and verify the copy
  storefront healthcheck [--config FILE]    exit 0 when the server of that config answers /healthz
  storefront version                        print the version, commit, build date and Go version

Configuration: defaults, then the YAML file, then STOREFRONT_* environment
variables (STOREFRONT_HTTP__ADDR, STOREFRONT_DATA_DIR, STOREFRONT_DEMO, ...).
See config.example.yaml.
`

// runWith runs one command and returns the exit code: 0 ok, 1 failure,
// 2 bad usage. ctx ends the server (SIGTERM/SIGINT in run).
func runWith(ctx context.Context, args []string, e env) int {
	if len(args) == 0 {
		fmt.Fprint(e.stderr, usage)
		return 2
	}
	switch args[0] {
	case "serve":
		return serveCmd(ctx, args[1:], e)
	case "backup":
		return backupCmd(args[1:], e)
	case "migrate":
		return migrateCmd(args[1:], e)
	case "migrate-data":
		return migrateDataCmd(args[1:], e)
	case "healthcheck":
		return healthCmd(args[1:], e)
	case "version", "--version", "-version":
		ver, rev, date := buildInfo()
		fmt.Fprintf(e.stdout, "storefront %s\ncommit:  %s\nbuilt:   %s\ngo:      %s\n", ver, rev, date, runtime.Version())
		return 0
	case "help", "--help", "-help", "-h":
		fmt.Fprint(e.stdout, usage)
		return 0
	default:
		fmt.Fprintf(e.stderr, "storefront: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
}

// loadConfig parses the --config flag of a command and loads the configuration.
func loadConfig(name string, args []string, e env) (*config.Config, []string, int) {
	fs := flag.NewFlagSet("storefront "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	path := fs.String("config", "", "YAML configuration `file` (see config.example.yaml)")
	if err := fs.Parse(args); err != nil {
		return nil, nil, 2
	}
	cfg, err := config.Load(*path, e.environ)
	if err != nil {
		fmt.Fprintln(e.stderr, "storefront:", err)
		return nil, nil, 1
	}
	return cfg, fs.Args(), 0
}

func newLogger(c config.Log, w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(c.Level)) // checked by config.Validate
	opts := &slog.HandlerOptions{Level: level}
	if c.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// serveCmd runs the server until ctx ends, then shuts down in order: cron,
// HTTP (drain), the backup socket, the database.
func serveCmd(ctx context.Context, args []string, e env) int {
	cfg, rest, code := loadConfig("serve", args, e)
	if code != 0 {
		return code
	}
	if len(rest) > 0 {
		fmt.Fprintf(e.stderr, "storefront serve: unexpected argument %q\n\n%s", rest[0], usage)
		return 2
	}
	s := &instance{cfg: cfg, e: e}
	defer s.closeAll()
	s.startLog()
	for _, step := range []func() error{
		s.listen,         // a busy port fails at once, before anything is touched
		s.openDatabase,   // an older bbolt file is backed up before its schema migrates
		s.startServices,  // the services, the owner account, the demo store
		s.prepareBackups, // bolt only
		s.buildHTTP,      // storefront, admin, OpenAPI, operations, then the catch-all 404
		s.startJobs,      // the backup socket, cron and the workers
	} {
		if err := step(); err != nil {
			var f *stepError
			if errors.As(err, &f) {
				s.log.Error(f.msg, "err", f.err)
			} else {
				s.log.Error("cannot start", "err", err)
			}
			return 1
		}
	}
	served := s.startServing()
	code = s.waitForStop(ctx, served)
	return s.shutdown(code)
}

// instance is what serve builds, one named step at a time; closeAll undoes
// what the steps deferred, last first.
type instance struct {
	cfg     *config.Config
	e       env
	closers []func()

	logOut *asynclog.Writer
	log    *slog.Logger
	ln     net.Listener
	mln    net.Listener // http.metrics_addr: /metrics apart from the public listener
	db     *database
	svc    *app.Services
	secret []byte // the cursor secret

	backups         *storage.BackupDir // bolt only: on PostgreSQL backups are the database's job
	backup          func() (string, int64, error)
	listBackupFiles func() ([]admin.BackupFile, error)

	ver         string
	srv         *web.Server
	metrics     *web.Metrics
	sock        *http.Server
	jobs        *cron.Cron
	stopWorkers func()
	mapp        interface{ Shutdown() error }
}

// stepError is a failed step of serve: what to log, and why.
type stepError struct {
	msg string
	err error
}

func (e *stepError) Error() string { return e.msg + ": " + e.err.Error() }
func (e *stepError) Unwrap() error { return e.err }

func failed(msg string, err error) error { return &stepError{msg, err} }

// deferClose runs f when serve returns, before what was deferred earlier.
func (s *instance) deferClose(f func()) { s.closers = append(s.closers, f) }

func (s *instance) closeAll() {
	for i := len(s.closers) - 1; i >= 0; i-- {
		s.closers[i]()
	}
}

// startLog starts the log. It is written asynchronously so that a request
// never waits on the terminal or pipe; Close (deferred first, so it runs
// last) writes out every queued line on every way out of serve.
func (s *instance) startLog() {
	cfg, e := s.cfg, s.e
	s.logOut = asynclog.New(e.stderr, asynclog.Options{OnDrop: func(n uint64) {
		newLogger(cfg.Log, e.stderr).Warn("log lines dropped: the log output is slower than the server", "dropped", n)
	}})
	s.deferClose(func() { s.logOut.Close() })
	s.log = newLogger(cfg.Log, s.logOut)
	for _, w := range cfg.Warnings {
		s.log.Warn(w)
	}
	s.log.Debug("garbage collector target", "gogc", gcPercent())
}

// listen binds http.addr and http.metrics_addr, and derives the public URL
// from the bound address when none is configured.
func (s *instance) listen() error {
	cfg := s.cfg
	ln, err := net.Listen("tcp", cfg.HTTP.Addr)
	if err != nil {
		return failed("cannot listen on http.addr", err)
	}
	s.ln = ln
	s.deferClose(func() { ln.Close() })
	if cfg.HTTP.MetricsAddr != "" {
		mln, err := net.Listen("tcp", cfg.HTTP.MetricsAddr)
		if err != nil {
			return failed("cannot listen on http.metrics_addr", err)
		}
		s.mln = mln
		s.deferClose(func() { mln.Close() })
	}
	if s.mln == nil && cfg.HTTP.MetricsToken == "" {
		s.log.Warn("/metrics is public on http.addr: anyone can read the request and database figures; set http.metrics_addr " +
			"(a separate listener, e.g. 127.0.0.1:9090) or http.metrics_token")
	}
	if cfg.HTTP.PublicURLDerived {
		cfg.HTTP.PublicURL = config.URLFor(ln.Addr())
	}
	return nil
}

// openDatabase opens (and migrates) the database. An older bbolt file is
// copied into backups.dir before its schema migrates.
func (s *instance) openDatabase() error {
	db, err := openDatabase(s.cfg, s.log)
	if err != nil {
		return failed("cannot open the database", err)
	}
	s.db = db
	s.deferClose(func() { db.Close() })
	if db.bolt != nil {
		govern, stopGovern := context.WithCancel(context.Background())
		s.deferClose(stopGovern)
		if governProcs(govern, func() uint64 { return db.bolt.BatchStats().Commits }, s.log) {
			s.log.Debug("one CPU: GOMAXPROCS follows the write load (1 while reading, 2 while committing often)")
		}
	}
	return nil
}

// startServices builds the services, creates the owner account and seeds the
// demo store when so configured.
func (s *instance) startServices() error {
	cfg, log := s.cfg, s.log
	svc, cursorSecret, err := newServices(cfg, s.db.DB, log)
	if err != nil {
		return failed("cannot start the services", err)
	}
	s.svc, s.secret = svc, cursorSecret
	if err := bootstrapAdmin(cfg, svc, log, s.e.stderr); err != nil {
		return failed("cannot create the owner account", err)
	}
	if cfg.Demo {
		if err := seedDemo(cfg, svc, s.e.stdout, log); err != nil {
			return failed("cannot seed the demo store", err)
		}
	}
	return nil
}

// prepareBackups sets up the backups of a bbolt database; on PostgreSQL
// backups are the database's job.
func (s *instance) prepareBackups() error {
	s.backup = func() (string, int64, error) { return "", 0, errBackupsOnPostgres }
	s.listBackupFiles = func() ([]admin.BackupFile, error) { return nil, errBackupsOnPostgres }
	if s.db.bolt == nil {
		return nil
	}
	backups := &storage.BackupDir{DB: s.db.bolt, Dir: s.cfg.Backups.Dir, Keep: s.cfg.Backups.Keep}
	s.backups = backups
	s.backup = func() (string, int64, error) {
		res, err := backups.Create()
		return res.File.Name, res.File.SizeBytes, err
	}
	s.listBackupFiles = func() ([]admin.BackupFile, error) { return listBackups(backups) }
	if gone := backups.CleanTemp(); len(gone) > 0 {
		s.log.Info("removed the temporary files of unfinished backups", "files", gone)
	}
	return nil
}

// buildHTTP builds the HTTP app: storefront, admin, OpenAPI, operations, the
// shop, then the catch-all 404.
func (s *instance) buildHTTP() error {
	cfg, db, svc, cursorSecret := s.cfg, s.db, s.svc, s.secret
	s.ver, _, _ = buildInfo()
	var srv *web.Server
	ready := func() error {
		if srv.Draining() {
			return app.Errorf(app.EInternal, "shutting down")
		}
		return db.Ready() // 503 storage_full while writes fail for want of space
	}
	ops := web.Ops{Version: s.ver, Ping: ready, MetricsToken: cfg.HTTP.MetricsToken, Stats: func() web.DBStats { return db.stats(svc) }, LogDropped: s.logOut.Dropped}
	metrics := web.NewMetrics(ops)
	srv = web.New(web.Config{
		TrustedProxies:   cfg.HTTP.TrustedProxies,
		APIPerSecond:     cfg.RateLimit.APIPerSecond,
		AuthPerMinute:    cfg.RateLimit.AuthPerMinute,
		LoginFailures:    cfg.RateLimit.LoginFailures,
		CodesPerDay:      cfg.RateLimit.CodesPerDay,
		ContactPerMinute: cfg.RateLimit.ContactPerMinute,
		CursorSecret:     cursorSecret,
		LogRequests:      cfg.HTTP.LogRequests,
		LogWriter:        s.logOut, // the log's writer and format: the request line's fast path
		LogJSON:          cfg.Log.Format == "json",
		Observe:          metrics.Observe,
		ReadTimeout:      cfg.HTTP.ReadTimeout,
		WriteTimeout:     cfg.HTTP.WriteTimeout,
		IdleTimeout:      cfg.HTTP.IdleTimeout,
	}, svc)
	s.srv, s.metrics = srv, metrics
	api := admin.Register(srv.App, svc, admin.Config{
		CursorSecret:   cursorSecret,
		TrustedProxies: cfg.HTTP.TrustedProxies,
		Backup:         s.backup,
		Backups:        s.listBackupFiles,
	})
	pages := panel.Register(srv.App, svc, panel.Config{
		CursorSecret:   cursorSecret,
		TrustedProxies: cfg.HTTP.TrustedProxies,
		ShopURL:        shopURL(cfg),
	})
	srv.UploadAuth = httpkit.AnyUpload(api.UploadAllowed, pages.UploadAllowed) // authenticated before an upload's body is read
	if err := web.ServeOpenAPI(srv.App); err != nil {
		return failed("broken OpenAPI document", err)
	}
	storeShop, err := newShop(cfg, svc, db.DB, cursorSecret)
	if err != nil {
		return failed("cannot load the shop", err)
	}
	if s.mln != nil {
		web.RegisterOps(srv.App, ops, nil) // /metrics only on the separate listener
	} else {
		web.RegisterOps(srv.App, ops, metrics)
	}
	if storeShop != nil {
		storeShop.Register(srv.App)
		srv.App.Use(storeShop.NotFound)
	}
	srv.Mount()
	return nil
}

// startJobs opens the backup socket (bbolt), then starts cron and the
// workers; on PostgreSQL only the process that leads runs the jobs.
func (s *instance) startJobs() error {
	cfg, db, log := s.cfg, s.db, s.log
	if db.bolt != nil {
		var err error
		if s.sock, err = serveBackupSocket(cfg.SocketPath(), db.bolt, log); err != nil {
			log.Warn("no backup socket: `storefront backup` cannot copy this running server's database", "path", cfg.SocketPath(), "err", err)
		}
	}
	leads := func() bool { return true } // one process: it runs every job
	if db.pg != nil {
		db.pg.Logf = func(format string, args ...any) { log.Warn(fmt.Sprintf(format, args...)) }
		leader := db.pg.Lead("cron")
		s.deferClose(leader.Stop)
		leads = leader.Leading
	}
	jobs, err := startCron(cfg, s.svc, s.backups, leads, log)
	if err != nil {
		return failed("cannot schedule the jobs", err)
	}
	s.jobs = jobs
	s.stopWorkers = startWorkers(cfg, s.svc, leads, db.pg != nil)
	return nil
}

// startServing serves on the listeners and tells the caller it is ready.
// The channel receives the error of a public server that stops.
func (s *instance) startServing() chan error {
	cfg, log := s.cfg, s.log
	served := make(chan error, 1)
	go func() { served <- s.srv.App.Listener(s.srv.Listener(s.ln)) }()
	if s.mln != nil {
		ma := s.srv.MetricsApp(s.metrics, cfg.HTTP.MetricsToken)
		s.mapp = ma
		go func() { _ = ma.Listener(s.mln) }()
		log.Info("metrics listening", "metrics_addr", s.mln.Addr().String())
	}
	log.Info("listening", "addr", s.ln.Addr().String(), "public_url", cfg.HTTP.PublicURL, "storage", cfg.Storage.Driver, "data_dir", cfg.DataDir, "version", s.ver)
	if s.e.ready != nil {
		s.logOut.Flush() // what was logged so far is readable when the caller hears "ready"
		s.e.ready(s.ln.Addr().String())
	}
	return served
}

// waitForStop waits for ctx to end (then drains) or the server to stop; it
// returns the exit code so far.
func (s *instance) waitForStop(ctx context.Context, served chan error) int {
	cfg, log := s.cfg, s.log
	code := 0
	select {
	case <-ctx.Done():
		// Drain: readiness turns 503 and every response closes its connection,
		// while the listener still accepts for http.shutdown_delay, so a client
		// moves to a new connection instead of sending on one shutdown closes.
		// The workers stop meanwhile: the mail or requests under way finish,
		// the rest stays queued for the next process.
		log.Info("shutting down: draining requests", "delay", cfg.HTTP.ShutdownDelay.String())
		go s.stopWorkers()
		s.srv.Drain()
		if d := cfg.HTTP.ShutdownDelay; d > 0 {
			t := time.NewTimer(d)
			select {
			case <-t.C:
			case err := <-served:
				log.Error("the HTTP server stopped", "err", err)
				code = 1
			}
			t.Stop()
		}
	case err := <-served:
		log.Error("the HTTP server stopped", "err", err)
		code = 1
	}
	return code
}

// shutdown stops the jobs, the HTTP servers, the workers and the backup
// socket, waits for queued password resets and closes the database; it
// returns code, or 1 when the database fails to close.
func (s *instance) shutdown(code int) int {
	log := s.log
	select {
	case <-s.jobs.Stop().Done():
	case <-time.After(shutdownTimeout):
		log.Warn("a cron job is still running; closing anyway")
	}
	if err := s.srv.App.ShutdownWithTimeout(shutdownTimeout); err != nil {
		log.Warn("HTTP drain incomplete", "err", err)
	}
	s.stopWorkers()
	if s.mapp != nil {
		_ = s.mapp.Shutdown()
	}
	if s.sock != nil {
		sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		_ = s.sock.Shutdown(sctx)
		cancel()
		os.Remove(s.cfg.SocketPath())
	}
	forgotten := make(chan struct{})
	go func() { s.svc.Customers.WaitForgotten(); close(forgotten) }()
	select { // queued password resets finish before the database closes
	case <-forgotten:
	case <-time.After(shutdownTimeout):
		log.Warn("a password reset is still running; closing anyway")
	}
	if err := s.db.Close(); err != nil {
		log.Error("closing the database", "err", err)
		code = 1
	}
	log.Info("stopped")
	return code
}

// newServices builds the services and returns the cursor secret.
func newServices(cfg *config.Config, db app.DB, log *slog.Logger) (*app.Services, []byte, error) {
	tokenSecret, err := db.Secret("tokens")
	if err != nil {
		return nil, nil, err
	}
	cursorSecret, err := db.Secret("cursors")
	if err != nil {
		return nil, nil, err
	}
	gateways, err := gatewaySecrets(cfg, db)
	if err != nil {
		return nil, nil, err
	}
	var mailer app.Mailer // nil: the outbox in the database (decisions.md §9)
	if cfg.Mail.SMTP.Host != "" {
		mc := mail.Config{Host: cfg.Mail.SMTP.Host, Port: cfg.Mail.SMTP.Port, Username: cfg.Mail.SMTP.Username,
			Password: cfg.Mail.SMTP.Password, From: cfg.Mail.SMTP.From, TLS: cfg.Mail.SMTP.TLS}
		if err := mc.Validate(); err != nil {
			return nil, nil, fmt.Errorf("config: mail.smtp: %w", err)
		}
		mailer = mail.NewSMTP(mc)
		log.Info("mail goes out through SMTP", "host", mc.Host, "tls", mc.TLS)
	}
	var limiter app.Limiter // nil: in memory (one process)
	if pg, ok := db.(*postgres.DB); ok {
		limiter = pg.Limiter(nil) // the login limits count across every process
	}
	unpaid, demoStore := cfg.RateLimit.UnpaidOrders, ""
	if cfg.Demo {
		unpaid, demoStore = demoUnpaidOrders(unpaid), demo.Subdomain
	}
	svc := app.NewServices(db, auth.NewJWT(tokenSecret, nil), auth.NewBcrypt(cfg.Auth.BcryptCost), mailer, nil, log, app.Options{
		Limiter:             limiter,
		PublicURL:           cfg.HTTP.PublicURL,
		AccessTTL:           cfg.Auth.AccessTTL,
		RefreshTTL:          cfg.Auth.RefreshTTL,
		AdminTTL:            cfg.Auth.AdminTTL,
		PendingTTL:          cfg.Orders.PendingTTL,
		LoginFailures:       cfg.RateLimit.LoginFailures,
		UnpaidOrdersPerHour: unpaid,
		TicketsPerHour:      cfg.RateLimit.TicketsPerHour,
		GuestCartsPerHour:   cfg.RateLimit.GuestCarts,
		DemoSubdomain:       demoStore,
		BcryptCost:          cfg.Auth.BcryptCost,
		GatewaySecrets:      gateways,
		NewStoresLive:       !cfg.Demo, // outside the demo a new store refuses test payments until its test mode is on
	})
	setGateways(cfg, svc, log)
	svc.Webhooks.Sender = webhook.New(cfg.Webhooks.Timeout, cfg.Webhooks.AllowPrivateTargets)
	// pictures given by URL: the webhooks' client rules (docs/media.md)
	svc.Catalog.Images = imaging.Fetcher{Get: webhook.New(imaging.FetchTimeout, cfg.Webhooks.AllowPrivateTargets).Get, TooLarge: webhook.ErrTooLarge}
	if err := svc.Customers.LoadRevocations(); err != nil { // NewServices tried; stop rather than forget revocations
		return nil, nil, fmt.Errorf("loading token revocations: %w", err)
	}
	return svc, cursorSecret, nil
}

// gatewaySecrets returns each payment method's secret: the configured one or
// one kept in the database.
func gatewaySecrets(cfg *config.Config, db app.DB) (map[string][]byte, error) {
	var err error
	gateways := map[string][]byte{}
	for code, s := range map[string]string{app.WalletA: cfg.Payments.WalletA.Secret, app.WalletB: cfg.Payments.WalletB.Secret} {
		if s != "" {
			gateways[code] = []byte(s)
			continue
		}
		if gateways[code], err = db.Secret("gateway:" + code); err != nil {
			return nil, err
		}
	}
	return gateways, nil
}

// setGateways makes the providers a server allows available to each payment
// method (stores choose among them in the panel; the configured provider
// serves stores that chose none), warning of test payments.
func setGateways(cfg *config.Config, svc *app.Services, log *slog.Logger) {
	for _, m := range []struct {
		code string
		g    config.Gateway
	}{{app.WalletA, cfg.Payments.WalletA}, {app.WalletB, cfg.Payments.WalletB}} {
		if slices.Contains(m.g.Providers, app.ProviderStripe) {
			svc.Payments.RegisterGateway(stripe.New(m.code, m.g.Stripe.APIURL).WithLog(log),
				app.GatewayAccount{SecretKey: m.g.Stripe.SecretKey, WebhookSecret: m.g.Stripe.WebhookSecret})
		}
		svc.Payments.AllowProviders(m.code, m.g.Providers, m.g.Provider)
		log.Info("payments: providers stores may choose", "method", m.code, "providers", m.g.Providers, "default", m.g.Provider,
			"default_stripe_account", m.g.Stripe.SecretKey != "")
		switch {
		case m.g.Provider == app.ProviderStripe && app.IsTestKey(m.g.Stripe.SecretKey):
			log.Warn("PAYMENTS IN TEST MODE: "+m.code+"'s default Stripe key is a test key; its payments are test payments, "+
				"refused by every store whose test mode is off (payments_live)", "method", m.code)
		case m.g.Provider != app.ProviderStripe && !cfg.Demo:
			log.Warn("PAYMENTS IN TEST MODE: "+m.code+" is served by the built-in sandbox for stores that chose no provider; "+
				"anyone can 'pay' an order without money moving. Owners choose Stripe in Settings › Payments (or set "+
				"payments."+strings.ToLower(m.code)+".provider: stripe). New stores start with test mode off (payments_live on) "+
				"and refuse it until it is turned on", "method", m.code)
		}
	}
}

// adminPassword is the password the first owner gets: admin.password, or in
// demo mode the documented demo password, or "" (generated).
func adminPassword(cfg *config.Config) string {
	if cfg.Admin.Password == "" && cfg.Demo {
		return demo.AdminPassword
	}
	return cfg.Admin.Password
}

// bootstrapAdmin makes the first owner when there is no admin account.
func bootstrapAdmin(cfg *config.Config, svc *app.Services, log *slog.Logger, stderr io.Writer) error {
	generated, err := svc.Admins.Bootstrap(cfg.Admin.Email, adminPassword(cfg))
	if err != nil {
		return err
	}
	if generated == "" {
		return nil
	}
	const msg = "created the owner account with a generated password, shown only this once: log in and keep it safe"
	if log.Enabled(context.Background(), slog.LevelWarn) {
		log.Warn(msg, "email", cfg.Admin.Email, "password", generated)
	} else { // log.level error would hide it, and it is never shown again
		fmt.Fprintf(stderr, "storefront: %s: email=%s password=%s\n", msg, cfg.Admin.Email, generated)
	}
	return nil
}

// demoUnpaidOrders is ratelimit.unpaid_orders_per_hour in demo mode: a
// developer trying checkouts from one address should not meet it, so it is
// at least 500 (0 stays off).
func demoUnpaidOrders(n int) int {
	if n <= 0 {
		return n
	}
	return max(n, 500)
}

// seedDemo creates the demo store on an empty database and prints how to
// use it; on later starts it prints how to get a new key.
func seedDemo(cfg *config.Config, svc *app.Services, out io.Writer, log *slog.Logger) error {
	res, err := demo.Seed(svc)
	if err != nil {
		return err
	}
	if res.StoreID == 0 {
		log.Info("demo: the database already has stores and no demo store; nothing seeded")
		return nil
	}
	if cfg.Shop.DefaultStore == 0 {
		cfg.Shop.DefaultStore = res.StoreID // http://127.0.0.1:8080/ is the demo's shop
	}
	base := cfg.HTTP.PublicURL
	email := app.NormalizeEmail(cfg.Admin.Email)
	password := "(the one set in admin.password)"
	if cfg.Admin.Password == "" {
		if _, _, _, err := svc.Admins.Login(email, demo.AdminPassword, ""); err == nil {
			password = demo.AdminPassword
		} else {
			password = "(not the demo password: the owner account existed before demo mode)"
		}
	}
	line := strings.Repeat("=", 78)
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s\n", line)
	if cfg.Shop.Enabled {
		fmt.Fprintf(&b, " Shop: %s/\n\n", base)
	}
	if res.Created {
		writeDemoCreated(&b, cfg, svc, log, res, email, password)
	} else {
		writeDemoExisting(&b, cfg, res, email, password)
	}
	fmt.Fprintf(&b, "%s\n\n", line)
	_, err = io.WriteString(out, b.String())
	return err
}

// writeDemoCreated writes the banner of a demo store created now: its API key,
// the accounts and commands to try.
func writeDemoCreated(b *strings.Builder, cfg *config.Config, svc *app.Services, log *slog.Logger, res demo.Result, email, password string) {
	base := cfg.HTTP.PublicURL
	catID := uint64(1)
	if cats, err := svc.Catalog.Categories(res.StoreID); err == nil && len(cats) > 0 {
		catID = cats[0].ID
	}
	log.Info("demo: created Demo Shop", "store_id", res.StoreID, "categories", res.Categories, "products", res.Products)
	fmt.Fprintf(b, " Storefront demo: \"Demo Shop\" is ready (store %d, %d products in %d categories)\n\n", res.StoreID, res.Products, res.Categories)
	fmt.Fprintf(b, " API key (shown only now: keys are stored hashed):\n   %s\n\n", res.APIKey)
	fmt.Fprintf(b, " Admin: %s/admin/\n   email:    %s\n   password: %s\n\n", base, email, password)
	fmt.Fprintf(b, " Shopper account (POST /api/v1/customer/auth/login/ with the API key):\n   email:    %s\n   password: %s\n\n", res.ShopperEmail, res.ShopperPassword)
	fmt.Fprintf(b, " Also seeded: %d blog posts, %d running flash deals, %d bundles, %d approved reviews, %d coupon (WELCOME10)\n\n",
		res.BlogPosts, res.Deals, res.Bundles, res.Reviews, res.Coupons)
	fmt.Fprintf(b, " Try:\n")
	fmt.Fprintf(b, "   curl -s -H 'X-Service-Key: %s' %s/api/v1/business/website/config/\n", res.APIKey, base)
	fmt.Fprintf(b, "   curl -s -H 'X-Service-Key: %s' '%s/api/v1/business/website/products/?limit=3&fields=id,name,price'\n", res.APIKey, base)
	fmt.Fprintf(b, "   curl -s -H 'X-Service-Key: %s' %s/api/v1/business/website/categories/%d/products/\n\n", res.APIKey, base, catID)
	fmt.Fprintf(b, " API reference: %s/docs/ (document: %s/openapi.json)\n\n", base, base)
	demoRelaxed(b, cfg)
}

// writeDemoExisting writes the banner of a demo store from an earlier run:
// how to get a new API key.
func writeDemoExisting(b *strings.Builder, cfg *config.Config, res demo.Result, email, password string) {
	base := cfg.HTTP.PublicURL
	fmt.Fprintf(b, " Storefront demo: \"Demo Shop\" (store %d) exists from an earlier run.\n\n", res.StoreID)
	fmt.Fprintf(b, " Its API key was shown on the first run only: keys are stored hashed and\n")
	fmt.Fprintf(b, " cannot be shown again. Get a new one (the old one stops working) in the\n")
	fmt.Fprintf(b, " admin panel at %s/admin/ or with:\n\n", base)
	fmt.Fprintf(b, "   TOKEN=$(curl -s -X POST -H 'Content-Type: application/json' \\\n")
	pw := "PASSWORD"
	if password == demo.AdminPassword {
		pw = password
	}
	fmt.Fprintf(b, "     -d '{\"email\":\"%s\",\"password\":\"%s\"}' %s/api/v1/admin/auth/login/ \\\n", email, pw, base)
	fmt.Fprintf(b, "     | sed -E 's/.*\"access_token\":\"([^\"]+)\".*/\\1/')\n")
	fmt.Fprintf(b, "   curl -s -X POST -H \"Authorization: Bearer $TOKEN\" %s/api/v1/admin/stores/%d/rotate-key/\n\n", base, res.StoreID)
	fmt.Fprintf(b, " Admin: %s / %s\n", email, password)
	fmt.Fprintf(b, " To start over, stop the server and delete %s.\n\n", cfg.DBPath())
	demoRelaxed(b, cfg)
}

// shopURL is the panel's "View shop" address of a store (nil: no shop).
// It reads cfg when called: the demo sets shop.default_store after wiring.
func shopURL(cfg *config.Config) func(*app.Store) string {
	if !cfg.Shop.Enabled {
		return nil
	}
	return func(st *app.Store) string {
		h := app.ShopHost{Domain: cfg.Shop.Domain, DefaultStore: cfg.Shop.DefaultStore}
		return h.URL(st, cfg.HTTP.PublicURL)
	}
}

// newShop builds the shop window (nil when shop.enabled is false).
func newShop(cfg *config.Config, svc *app.Services, db app.DB, cursorSecret []byte) (*shop.Shop, error) {
	if !cfg.Shop.Enabled {
		return nil, nil
	}
	secret, err := db.Secret("shop")
	if err != nil {
		return nil, err
	}
	return shop.New(shop.Config{
		Host:             app.ShopHost{Domain: cfg.Shop.Domain, DefaultStore: cfg.Shop.DefaultStore},
		ThemeDir:         cfg.Shop.ThemeDir,
		Secret:           secret,
		CursorSecret:     cursorSecret,
		SecureCookies:    strings.HasPrefix(cfg.HTTP.PublicURL, "https://"),
		TrustedProxies:   cfg.HTTP.TrustedProxies,
		ContactPerMinute: cfg.RateLimit.ContactPerMinute,
		AuthPerMinute:    cfg.RateLimit.AuthPerMinute,
		LoginFailures:    cfg.RateLimit.LoginFailures,
		CodesPerDay:      cfg.RateLimit.CodesPerDay,
	}, svc)
}

// demoRelaxed says what demo mode allows that a real store does not.
func demoRelaxed(b *strings.Builder, cfg *config.Config) {
	fmt.Fprintf(b, " Demo mode relaxes (never use it on a public server):\n")
	fmt.Fprintf(b, "   - this store allows http://localhost and http://127.0.0.1 on any port as\n")
	fmt.Fprintf(b, "     browser origins (CORS) and checkout callback_url (a Vite dev server works)\n")
	if n := demoUnpaidOrders(cfg.RateLimit.UnpaidOrders); n > 0 {
		fmt.Fprintf(b, "   - checkouts: %d unpaid orders per hour per address and email\n", n)
		fmt.Fprintf(b, "     (ratelimit.unpaid_orders_per_hour, %d outside demo mode)\n", cfg.RateLimit.UnpaidOrders)
	}
}

// dbStats reads the figures /metrics reports.
func dbStats(db *storage.DB, svc *app.Services) web.DBStats {
	s := db.Bolt().Stats()
	st := web.DBStats{
		ReadTx: s.TxN, OpenReadTx: s.OpenTxN, FreePages: s.FreePageN, PendingPages: s.PendingPageN,
		FreeAllocBytes: s.FreeAlloc, FreelistBytes: s.FreelistInuse,
		PageWrites: s.TxStats.GetWrite(), PageAllocBytes: s.TxStats.GetPageAlloc(), WriteTime: s.TxStats.GetWriteTime(),
		CachedPages:   svc.Catalog.CachedPages(),
		CachedDetails: svc.Catalog.CachedDetails(), CachedDetailBytes: svc.Catalog.CachedDetailBytes(),
		StorageFull: db.Full(), StorageFullErrors: db.FullErrors(),
	}
	bs := db.BatchStats()
	st.Commits, st.BatchedWrites = bs.Commits, bs.Writes
	if info, err := os.Stat(db.Bolt().Path()); err == nil {
		st.FileSizeBytes = info.Size()
	}
	return st
}

func listBackups(b *storage.BackupDir) ([]admin.BackupFile, error) {
	files, err := b.List()
	if err != nil {
		return nil, err
	}
	out := make([]admin.BackupFile, len(files))
	for i, f := range files {
		out[i] = admin.BackupFile{File: f.Name, SizeBytes: f.SizeBytes, CreatedAt: app.UTC(f.CreatedAt).Format(time.RFC3339)}
	}
	return out, nil
}

// startWorkers runs the outbox and webhook workers in goroutines; they
// start at once (mail left queued by a previous run goes out), are woken
// by every commit that queues work, and look again every 5 seconds. On a
// shared database (PostgreSQL) they work only while this process leads, so
// that one worker sends each mail, and look every second: a commit in
// another process does not wake them. The returned function stops them and
// waits for them (an attempt in flight finishes or times out); it may be
// called more than once, at once.
func startWorkers(cfg *config.Config, svc *app.Services, leads func() bool, shared bool) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	tick := 5 * time.Second
	if shared {
		tick = time.Second
	}
	outbox := app.NewOutboxWorker(svc)
	outbox.MaxAge = cfg.Mail.MaxAge
	outbox.Leads = leads
	hooks := app.NewWebhookWorker(svc, svc.Webhooks.Sender)
	hooks.Timeout = cfg.Webhooks.Timeout
	hooks.Leads = leads
	svc.OnQueued = func() { outbox.Wake(); hooks.Wake() }
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); outbox.Run(ctx, tick) }()
	go func() { defer wg.Done(); hooks.Run(ctx, tick) }()
	return func() { cancel(); wg.Wait() }
}

// startCron schedules the background jobs: category cache eviction, expiry
// of unpaid orders and the backups. Each run logs its outcome (debug when
// there was nothing to do). A job still running when its next turn comes is
// skipped, not doubled. The jobs of the whole cluster (expiry) run only while
// leads reports true: on PostgreSQL one process leads at a time.
func startCron(cfg *config.Config, svc *app.Services, backups *storage.BackupDir, leads func() bool, log *slog.Logger) (*cron.Cron, error) {
	cl := cronLogger{log}
	c := cron.New(cron.WithLogger(cl), cron.WithChain(cron.Recover(cl), cron.SkipIfStillRunning(cl)))
	add := func(name, spec string, fn func()) error {
		if _, err := c.AddFunc(spec, fn); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		log.Debug("scheduled", "job", name, "schedule", spec)
		return nil
	}
	err := errors.Join(
		add("cache.evict", cfg.Cache.EvictSchedule, func() {
			n := svc.Catalog.EvictExpired()
			level := slog.LevelDebug
			if n > 0 {
				level = slog.LevelInfo
			}
			log.Log(context.Background(), level, "job done", "job", "cache.evict", "evicted", n)
		}),
		add("orders.expire", cfg.Orders.ExpireSchedule, clusterJob(log, leads, "orders.expire", "cancelled", svc.Orders.ExpirePending)),
		// Guest carts idle for 30 days go (app.GuestCartIdle), and checkouts'
		// idempotency keys after a week (app.IdempotencyKeep).
		add("carts.sweep", "@hourly", clusterJob(log, leads, "carts.sweep", "deleted", svc.Carts.SweepGuests)),
		add("idempotency.sweep", "@hourly", clusterJob(log, leads, "idempotency.sweep", "deleted", svc.Orders.SweepIdempotency)),
		// The audit log keeps 90 days (app.AuditKeep).
		add("audit.prune", "@daily", func() {
			n, err := svc.Audit.Prune()
			if err != nil {
				log.Error("job failed", "job", "audit.prune", "err", err)
				return
			}
			log.Info("job done", "job", "audit.prune", "deleted", n)
		}),
	)
	if err == nil && cfg.Backups.Schedule != "" && backups != nil {
		err = add("backup", cfg.Backups.Schedule, func() {
			log.Info("job started", "job", "backup", "dir", backups.Dir)
			res, err := backups.Create()
			if err != nil {
				log.Error("job failed", "job", "backup", "err", err)
				return
			}
			log.Info("job done", "job", "backup", "file", res.File.Name, "size_bytes", res.File.SizeBytes,
				"duration_ms", res.Duration.Milliseconds(), "deleted", res.Deleted)
		})
	}
	if err == nil {
		err = schedulePictures(c, svc, leads, log)
	}
	if err != nil {
		return nil, err
	}
	c.Start()
	return c, nil
}

// schedulePictures runs pictures.fetch (app.Services.FetchStoredPictures:
// the pictures still stored as other hosts' URLs) a minute after start and
// then daily, as a job of the whole cluster.
func schedulePictures(c *cron.Cron, svc *app.Services, leads func() bool, log *slog.Logger) error {
	job := clusterJob(log, leads, "pictures.fetch", "changed", svc.FetchStoredPictures)
	if _, err := c.AddFunc("@daily", job); err != nil {
		return fmt.Errorf("pictures.fetch: %w", err)
	}
	var first cron.EntryID
	first, err := c.AddFunc("@every 1m", func() { c.Remove(first); job() })
	if err != nil {
		return fmt.Errorf("pictures.fetch: %w", err)
	}
	return nil
}

// clusterJob is a job of the whole cluster: it runs only while leads
// reports true, and logs how many records run handled (debug when none).
func clusterJob(log *slog.Logger, leads func() bool, name, counted string, run func() (int, error)) func() {
	return func() {
		if !leads() {
			log.Debug("job skipped: another process leads", "job", name)
			return
		}
		n, err := run()
		if err != nil {
			log.Error("job failed", "job", name, "err", err)
			return
		}
		level := slog.LevelDebug
		if n > 0 {
			level = slog.LevelInfo
		}
		log.Log(context.Background(), level, "job done", "job", name, counted, n)
	}
}

// cronLogger sends cron's own messages to slog (routine ones at debug).
type cronLogger struct{ log *slog.Logger }

func (l cronLogger) Info(msg string, kv ...any) { l.log.Debug("cron: "+msg, kv...) }
func (l cronLogger) Error(err error, msg string, kv ...any) {
	l.log.Error("cron: "+msg, append(kv, "err", err)...)
}

// errNoServer: no server answers on the backup socket.
var errNoServer = errors.New("no running server")

// serveBackupSocket serves GET /backup (a stream of db.WriteBackup) on a unix
// socket only the server's user can open, for `storefront backup` while the
// server holds the database lock.
func serveBackupSocket(path string, db *storage.DB, log *slog.Logger) (*http.Server, error) {
	os.Remove(path) // a stale socket of a crashed server; we hold the DB lock, so no live server uses it
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /backup", func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Trailer", "X-Backup-Size")
		n, err := db.WriteBackup(w)
		if err != nil {
			log.Error("backup over the socket failed", "err", err)
			panic(http.ErrAbortHandler) // the client sees a cut stream, never a short file
		}
		w.Header().Set("X-Backup-Size", fmt.Sprint(n))
		log.Info("backup streamed over the socket", "size_bytes", n, "duration_ms", time.Since(start).Milliseconds())
	})
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	go hs.Serve(ln)
	return hs, nil
}

// serveGCPercent is the garbage collector's target (GOGC) of serve unless the
// GOGC environment variable sets it: the server's live heap is small (20-30
// MB), so at Go's 100 it collected every few milliseconds under load. At 200
// the 24-product page took 25% less CPU per request and initiation 10-15%
// less, for about 10 MB more heap (docs/decisions.md, "Operations").
const serveGCPercent = 200

// gcPercent sets serveGCPercent unless GOGC is set, and returns the target.
func gcPercent() string {
	if v, set := os.LookupEnv("GOGC"); set {
		return v
	}
	debug.SetGCPercent(serveGCPercent)
	return strconv.Itoa(serveGCPercent)
}
