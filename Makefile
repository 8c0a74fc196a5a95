# Storefront. `make run` serves a demo store; `make test` runs the whole suite.
GO       ?= go
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -s -w -X main.version=$(VERSION)
BIN      := bin/storefront

.PHONY: run build test bench clean fmt

build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) .

# run: build and serve the demo store on http://127.0.0.1:8080 (data in ./data;
# delete it to start over). Prints the API key, the admin login and curl lines.
run: build
	STOREFRONT_DEMO=true ./$(BIN) serve

test:
	$(GO) vet ./...
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	@sh .ci/chromium.sh
	$(GO) test -race -count=1 ./...

fmt:
	gofmt -w $$(git ls-files '*.go')

# bench: Go benchmarks, then a wrk load run on 127.0.0.1 against the bare
# Fiber baselines, then one table (docs/benchmarks.md). About 3 minutes on 2 cores.
bench:
	@command -v wrk >/dev/null || (apt-get update && apt-get install -y wrk)
	@out=$$(mktemp); trap 'rm -f "$$out" "$$out.rc"' EXIT; \
	  { $(GO) test -run '^$$' -bench . -benchmem ./... 2>&1; echo $$? >"$$out.rc"; } | tee "$$out"; \
	  [ "$$(cat "$$out.rc")" = 0 ] || { echo "go test -bench failed"; exit 1; }; \
	  $(GO) run ./bench/loadbench -gobench "$$out"

clean:
	rm -rf bin
