#!/bin/sh
# The TypeScript SDK, clients/typescript (@storefront/client).
#   tscheck.sh        make test: build the SDK and run its test against a real server
#   tscheck.sh build  only build it (npm run build, and the package's prepare:
#                     a file: dependency on a fresh clone builds on install)
#   tscheck.sh pack VERSION DIR
#                     build it and npm pack it as DIR/storefront-client-VERSION.tgz
#                     (make dist; VERSION without its leading v); with
#                     STOREFRONT_TEST_SDK_BUILT=1 (make test-client, after the
#                     test mode built it) it packs dist/ as it is
# 1. installs the pinned npm packages (package-lock.json) into
#    clients/typescript/node_modules when missing or when the lockfile changed;
# 2. writes /openapi.json as the server serves it and generates src/schema.ts
#    from it with openapi-typescript (no hand-written API types);
# 3. tsc --strict builds dist/; shopper-flow.ts (openapi-fetch alone) must
#    type-check with no casts and no non-null assertions;
# 4. (test) builds the binary (or takes $STOREFRONT_TEST_BINARY), starts it in demo mode on a free port in a temp
#    data dir, reads the API key from its banner, runs test/sdk.test.ts with
#    node (a guest checkout from a cart token and the rest), stops the server.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/clients/typescript"
GO=${GO:-go}
mode=${1:-test}

if ! command -v npm >/dev/null 2>&1; then
  echo "tscheck: installing nodejs and npm (Debian packages)"
  apt-get -o DPkg::Lock::Timeout=300 update -qq && apt-get -o DPkg::Lock::Timeout=300 install -y -qq nodejs npm >/dev/null
fi

cd "$dir"
if ! cmp -s package-lock.json node_modules/.storefront-lock 2>/dev/null; then
  echo "tscheck: npm ci (pinned by clients/typescript/package-lock.json)"
  # The registry sometimes stalls (EIDLETIMEOUT on a busy machine): try three times.
  n=0
  until npm ci --no-audit --no-fund --ignore-scripts --loglevel=error --fetch-retries=4; do
    n=$((n + 1))
    [ "$n" -lt 3 ] || { echo "tscheck: npm ci failed 3 times"; exit 1; }
    echo "tscheck: npm ci failed, retrying ($n)"
  done
  cp package-lock.json node_modules/.storefront-lock
fi

tmp=$(mktemp -d)
pid=
cleanup() {
  [ -z "$pid" ] || kill "$pid" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
if [ "$mode" = pack ] && [ -n "${STOREFRONT_TEST_SDK_BUILT:-}" ] && [ -f dist/index.js ]; then
  # make test-client built dist/ a moment ago (tscheck.sh test): pack that.
  echo "tscheck: packing the SDK built earlier in this run (dist/)"
else
  (cd "$root" && $GO run ./clients/typescript/dump "$tmp/openapi.json")
  ./node_modules/.bin/openapi-typescript "$tmp/openapi.json" -o src/schema.ts >/dev/null
  rm -rf dist build-test
  ./node_modules/.bin/tsc -p tsconfig.json
  echo "tscheck: built @storefront/client (dist/) from /openapi.json"
fi
[ "$mode" = build ] && exit 0
if [ "$mode" = pack ]; then
  version=${2#v}
  out=$(cd "$3" && pwd)
  mkdir "$tmp/pkg"
  cp -R package.json README.md dist "$tmp/pkg/"
  cp "$root/LICENSE" "$tmp/pkg/"
  # The tarball carries the built dist/: no build scripts (prepare needs this checkout).
  (cd "$tmp/pkg" && npm pkg set version="$version" && npm pkg delete scripts &&
    npm pack --silent --ignore-scripts --pack-destination "$tmp" >/dev/null)
  # The file name spells build metadata as the binaries' archives do (+ -> _).
  name=storefront-client-$(echo "$version" | tr + _).tgz
  mv "$tmp"/storefront-client-*.tgz "$out/$name"
  echo "tscheck: packed $out/$name"
  exit 0
fi

# No casts ("x as T"), no non-null assertions ("x!"), no any: the types must carry the flow.
if sed 's#//.*$##' shopper-flow.ts | grep -nE '(\)|\w|\])!([.;,)[]|$)|\bas [A-Za-z{(]|: any\b|<any>'; then
  echo "tscheck: shopper-flow.ts uses a cast, a non-null assertion or any (lines above)"
  exit 1
fi
./node_modules/.bin/tsc -p tsconfig.test.json
echo "tscheck: shopper-flow.ts and test/sdk.test.ts type-check against the built SDK"

# The TypeScript snippets of the READMEs (a ```ts block after <!-- ts-test -->),
# each a module of its own, type-checked here and run against the demo below.
rm -rf snippets build-snippets && mkdir snippets
for doc in readme:"$root/README.md" client:README.md; do
  awk -v prefix="snippets/${doc%%:*}" '
    /<!-- ts-test -->/ { marked = 1; next }
    marked && /^```ts/ { n++; file = prefix "-" n ".ts"; inblock = 1; marked = 0; next }
    inblock && /^```/ { inblock = 0; next }
    inblock { print > file }
    { marked = 0 }' "${doc#*:}"
done
[ "$(ls snippets | wc -l)" -ge 2 ] || { echo "tscheck: found $(ls snippets | wc -l) README snippets marked ts-test, want 2"; exit 1; }
./node_modules/.bin/tsc -p tsconfig.snippets.json
echo "tscheck: the README snippets type-check: $(ls snippets | tr '\n' ' ')"

# make test builds the binary once for all its parts ($STOREFRONT_TEST_BINARY).
bin=${STOREFRONT_TEST_BINARY:-}
if [ -z "$bin" ]; then
  (cd "$root" && CGO_ENABLED=0 $GO build -trimpath -o "$tmp/storefront" .) # as make build and dist: one build configuration
  bin=$tmp/storefront
fi
STOREFRONT_DEMO=true STOREFRONT_DATA_DIR="$tmp/data" STOREFRONT_HTTP__ADDR=127.0.0.1:0 \
  STOREFRONT_LOG__FORMAT=json STOREFRONT_HTTP__LOG_REQUESTS=false \
  "$bin" serve >"$tmp/banner" 2>"$tmp/log" &
pid=$!
# The banner (with the key) is written before the "listening" log line.
deadline=$(($(date +%s) + 60))
addr=
until [ -n "$addr" ]; do
  addr=$(sed -n 's/.*"msg":"listening".*"addr":"\([^"]*\)".*/\1/p' "$tmp/log" 2>/dev/null | head -n 1)
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "tscheck: the demo server exited:"; cat "$tmp/log"; exit 1
  fi
  if [ "$(date +%s)" -gt "$deadline" ]; then
    echo "tscheck: the demo server did not listen within 60s"; cat "$tmp/log"; exit 1
  fi
  [ -n "$addr" ] || sleep 0.2
done
key=$(sed -n 's/^ *\(sk_[0-9a-f]*\) *$/\1/p' "$tmp/banner" | head -n 1)
[ -n "$key" ] || { echo "tscheck: no API key in the banner:"; cat "$tmp/banner"; exit 1; }
node build-test/test/sdk.test.js "http://$addr" "$key"
for js in build-snippets/*.js; do
  sed -i "s#http://127.0.0.1:8080#http://$addr#g; s#sk_\.\.\.#$key#g" "$js"
  node "$js" >"$tmp/snippet.out" || { echo "tscheck: README snippet $js failed:"; cat "$tmp/snippet.out"; exit 1; }
done
echo "tscheck: the README snippets ran against the demo: $(ls build-snippets | tr '\n' ' ')"
