#!/bin/sh
# make test: a TypeScript front end must compile against the served API document.
# 1. installs the pinned npm packages of clients/typescript (package-lock.json) into
#    clients/typescript/node_modules when missing or when the lockfile changed;
# 2. writes /openapi.json as the server serves it (clients/typescript/dump);
# 3. generates the types with openapi-typescript;
# 4. tsc --strict --noEmit on clients/typescript/shopper-flow.ts (openapi-fetch),
#    which must use no casts and no non-null assertions.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/clients/typescript"
GO=${GO:-go}

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
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && $GO run ./clients/typescript/dump "$tmp/openapi.json")
./node_modules/.bin/openapi-typescript "$tmp/openapi.json" -o schema.d.ts >/dev/null

# No casts ("x as T"), no non-null assertions ("x!"), no any: the types must carry the flow.
if sed 's#//.*$##' shopper-flow.ts | grep -nE '(\)|\w|\])!([.;,)[]|$)|\bas [A-Za-z{(]|: any\b|<any>'; then
  echo "tscheck: shopper-flow.ts uses a cast, a non-null assertion or any (lines above)"
  exit 1
fi
./node_modules/.bin/tsc -p tsconfig.json
echo "tscheck: shopper-flow.ts type-checks against /openapi.json"
