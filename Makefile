# Storefront. `make run` serves a demo store; `make test` runs the whole suite.
GO       ?= go
# The version comes from the git tags (scripts/version.sh: v0.8.0, v0.8.0+3.gabc1234,
# or v0.0.0-dev+abc1234 without a tag); `storefront version` prints it.
VERSION    ?= $(shell sh scripts/version.sh)
COMMIT     ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
BUILD_DATE ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS    := -s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.buildDate=$(BUILD_DATE)
BIN      := bin/storefront
# BROWSER: the browser tests' Chromium, $CHROMIUM, else the headless shell
# (scripts/headless-shell.sh prints nothing without it: then Debian's chromium).
BROWSER  = CHROMIUM="$${CHROMIUM:-$$(sh scripts/headless-shell.sh)}"

.PHONY: run build test lint test-race test-race-long test-race-rest test-e2e test-browser test-pg test-client test-dist dist bench bench-1m bench-panel clean fmt docker

build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) .

# run: build and serve the demo store on http://127.0.0.1:8080 (data in ./data;
# delete it to start over). Prints the API key, the admin login and curl lines.
run: build
	STOREFRONT_DEMO=true ./$(BIN) serve

# test: the whole suite. gofmt first; then, on a throwaway PostgreSQL, seven
# parts at once (make -j: one after another they left one of two cores idle),
# the longest first: the Go tests under the race detector (the long packages
# and the rest), the browser tests (in parallel, a tab each), the e2e tests of
# the binary, the HTTP suites of web, admin and panel again on PostgreSQL, the
# TypeScript client with the release archive, and the lint (vet,
# staticcheck). Each part's output is printed whole when it ends. All but the
# race parts (which need cgo) build as the release does, CGO off and
# -trimpath: on a cold build cache the dependencies compile twice, not four
# times. Test binaries are linked without DWARF (-ldflags=-w: a third less
# link time; a failing test's stack trace does not need it).
# The storefront binary the tests run (main's, e2e's, the browser tests, the
# TypeScript client's) is built once here, $STOREFRONT_TEST_BINARY, not once
# per part; the release archive (test-dist) still builds its own, stamped.
test: export CGO_ENABLED = 0
test: export GOFLAGS = -trimpath -ldflags=-w
test:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	@sh .ci/chromium.sh
	GO=$(GO) sh scripts/stripe-mock.sh >/dev/null
	@bin=$$(mktemp -d); trap 'rm -rf "$$bin"' EXIT; \
	  $(GO) build -o "$$bin/storefront" . && \
	  STOREFRONT_TEST_BINARY="$$bin/storefront" $(BROWSER) scripts/with-postgres.sh \
	    $(MAKE) --no-print-directory -j7 --output-sync=target test-race-long test-browser test-e2e test-pg test-client test-race-rest lint

# lint: go vet and staticcheck (make test runs it beside the test parts).
lint:
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.6.1 ./...

# dist: the release archives in dist/: a static binary per platform (TARGETS,
# e.g. `make dist TARGETS=linux/amd64` for one) with the version stamped,
# packed with README.md, LICENSE, CHANGELOG.md, config.example.yaml, docs/ and
# deploy/ (tar.gz; zip for Windows), the TypeScript SDK packed by npm
# (storefront-client-VERSION.tgz, when npm is installed), and SHA256SUMS over
# all of them (`cd dist && sha256sum -c SHA256SUMS`). DIST=DIR writes elsewhere.
TARGETS ?= linux/amd64,linux/arm64,darwin/arm64,windows/amd64
DIST    ?= dist
dist:
	rm -rf $(DIST) && mkdir -p $(DIST)
	@if command -v npm >/dev/null 2>&1; then GO=$(GO) sh scripts/tscheck.sh pack '$(VERSION)' '$(abspath $(DIST))'; \
	  else echo "dist: npm not found: no SDK tarball (storefront-client-*.tgz)"; fi
	$(GO) run ./scripts/dist -version '$(VERSION)' -ldflags '$(LDFLAGS)' -out $(DIST) -targets '$(TARGETS)'

# test-dist: make test builds the linux/amd64 archive into a temporary folder,
# checks SHA256SUMS with sha256sum -c, that the archive holds what
# docs/deploy.md's install steps use, that the SDK tarball is beside it, in
# SHA256SUMS, and holds the built package (when npm is installed), and runs
# the packed binary's version.
test-dist:
	@d=$$(mktemp -d); trap 'rm -rf "$$d"' EXIT; \
	  $(MAKE) --no-print-directory dist TARGETS=linux/amd64 DIST=$$d >/dev/null && \
	  (cd $$d && sha256sum -c SHA256SUMS) && \
	  tar -xzf $$d/storefront-*-linux-amd64.tar.gz -C $$d && \
	  for f in README.md LICENSE CHANGELOG.md config.example.yaml docs/deploy.md deploy/storefront.service deploy/storefront.env.example; do \
	    test -f $$d/storefront-*-linux-amd64/$$f || { echo "test-dist: $$f missing"; exit 1; }; done && \
	  { ! command -v npm >/dev/null 2>&1 || grep -q ' storefront-client-.*\.tgz$$' $$d/SHA256SUMS || { echo "test-dist: the SDK tarball is not in SHA256SUMS"; exit 1; }; } && \
	  { ! command -v npm >/dev/null 2>&1 || tar -tzf $$d/storefront-client-*.tgz | grep -q '^package/dist/index.d.ts$$' || { echo "test-dist: SDK tarball missing"; exit 1; }; } && \
	  $$d/storefront-*-linux-amd64/storefront version | grep -q '^storefront v' && echo "test-dist: linux/amd64 archive, SDK tarball and SHA256SUMS check out"

# test-race: every Go package that runs the server code in its own process,
# under the race detector (e2e and e2e/browser drive the built binary from
# outside: test-e2e and test-browser), as two parts make test runs at once.
# test-race-long: the long ones (RACE_LONG, CPU seconds under -race: admin
# 22, web 22, panel 11, the root package 11, shop 10, storage/postgres 8 and
# waiting on PostgreSQL, app/demo 4, storage 3), started in that order,
# three at a time (two of them wait: storage/postgres on PostgreSQL, the root
# package on the binaries it starts), so that no long package starts last.
# test-race-rest: every other package (a second or two each), from the start:
# after the long ones they were linked and run one by one at the end of make
# test, with a core idle. -timeout 30m: on a busy 2-core runner one package
# can pass 10 minutes (go test's default alarm).
RACE_LONG := storefront/storage/postgres storefront/admin storefront storefront/web storefront/shop storefront/panel storefront/app/demo storefront/storage
test-race: test-race-long test-race-rest

test-race-long:
	CGO_ENABLED=1 $(GO) test -race -count=1 -p 3 -timeout 30m $(RACE_LONG)

test-race-rest:
	CGO_ENABLED=1 $(GO) test -race -count=1 -timeout 30m $$($(GO) list ./... | grep -vxF $(foreach p,$(RACE_LONG) storefront/e2e storefront/e2e/browser,-e $(p)))

# test-e2e: the binary driven from outside (e2e: clusters, kill -9, the
# migration round trip, README examples), without the race detector: the
# server runs in the subprocesses it starts, the test process only sends
# requests and reads files (the code they run is raced in-process by the
# root package and the HTTP suites).
test-e2e:
	$(GO) test -count=1 -timeout 30m ./e2e

# test-browser: the features in Chromium's headless shell (e2e/browser;
# scripts/headless-shell.sh, else Debian's chromium; CHROMIUM=path picks
# another), without the race detector: Chromium does most of the work there,
# and the server code they drive runs under it in the other packages' HTTP
# tests. Two tests at a time (go test's default, GOMAXPROCS); the longest
# test, the panel sweep, checks its pages in three tabs (parallel subtests)
# that take the slots the others free.
test-browser:
	$(BROWSER) $(GO) test -count=1 -timeout 30m ./e2e/browser

# test-pg: the HTTP suites of web, admin and panel again on PostgreSQL (without
# -race: test-race ran the same code under the race detector).
test-pg:
	STOREFRONT_TEST_BACKEND=postgres $(GO) test -count=1 -timeout 30m ./web ./admin ./panel

# test-client: the TypeScript client against the OpenAPI document and the
# demo binary (scripts/tscheck.sh), the headless example type-checked, built
# (scripts/example.sh) and bought through in Chromium against a demo server,
# then the release archive (test-dist): one after the other, as they all use
# clients/typescript/dist (built once: test-dist packs the SDK tscheck.sh built).
test-client:
	GO=$(GO) sh scripts/tscheck.sh
	@d=$$(mktemp -d); trap 'rm -rf "$$d"' EXIT; sh scripts/example.sh "$$d" && \
	  STOREFRONT_EXAMPLE_DIST=$$d $(BROWSER) $(GO) test -count=1 -run '^TestExampleShop$$' ./e2e/browser
	@STOREFRONT_TEST_SDK_BUILT=1 $(MAKE) --no-print-directory test-dist

fmt:
	gofmt -w $$(git ls-files '*.go')

# bench: Go benchmarks, then a wrk load run on 127.0.0.1 of the binary as
# shipped against the bare Fiber/bbolt baselines and, on a throwaway PostgreSQL,
# the binary on PostgreSQL beside bbolt with one and two processes; then one
# table (docs/benchmarks.md).
bench: build
	@command -v wrk >/dev/null || (apt-get update && apt-get install -y wrk)
	@out=$$(mktemp); trap 'rm -f "$$out" "$$out.rc"' EXIT; \
	  { $(GO) test -run '^$$' -bench . -benchmem ./... 2>&1; echo $$? >"$$out.rc"; } | tee "$$out"; \
	  [ "$$(cat "$$out.rc")" = 0 ] || { echo "go test -bench failed"; exit 1; }; \
	  scripts/with-postgres.sh $(GO) run ./bench/loadbench -bin $(BIN) -gobench "$$out"
	sh scripts/lighthouse.sh $(BIN)

# bench-1m: the big-catalog run (not part of make test or make bench): 1M
# products seeded through the storage layer into a temp dir (about 6.5 GB,
# a few minutes), the binary's start-up on it, page 1, a deep page and
# searches over the socket against page 1 of a 1k store, and its memory apart
# from the mapped file (docs/benchmarks.md). KEEP=1 keeps the directory and
# REUSE=DIR measures it again without seeding.
bench-1m: build
	@command -v wrk >/dev/null || (apt-get update && apt-get install -y wrk)
	$(GO) run ./bench/loadbench -bin $(BIN) -products 1000000

# bench-panel: the panel at 100k orders and 100k products (issue 11; not part
# of make test or make bench's figures): server time per page (p50, p99) of
# the dashboard, the orders list, searches and filters, the product list, and
# the CSV export's rows per second (docs/benchmarks.md, "Panel").
# The product list alone then runs again on a throwaway PostgreSQL.
bench-panel:
	$(GO) test -run '^$$' -bench 'BenchmarkPanel100k' -benchtime 200x -benchmem -timeout 30m ./panel
	scripts/with-postgres.sh env STOREFRONT_TEST_BACKEND=postgres $(GO) test -run '^$$' -bench 'BenchmarkPanelProducts100k' -benchtime 200x -benchmem -timeout 30m ./panel

# docker: build the container image (Dockerfile) tagged with the version; only
# where Docker is installed (CI does not run it; a test builds it when an engine answers).
docker:
	@command -v docker >/dev/null || { echo "make docker: docker is not installed"; exit 1; }
	docker build --build-arg VERSION=$(VERSION) --build-arg COMMIT=$(COMMIT) --build-arg BUILD_DATE=$(BUILD_DATE) \
	  -t storefront:$(subst +,-,$(VERSION)) -t storefront:latest .

clean:
	rm -rf bin dist
