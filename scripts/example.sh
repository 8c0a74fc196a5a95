#!/bin/sh
# example.sh [OUTDIR]: the headless example shop (clients/examples/shop, Vite +
# TypeScript on @storefront/client): installs its pinned npm packages
# (package-lock.json) when missing or when the lockfile changed, type-checks
# it (tsc --strict, no emit) and builds it with Vite into OUTDIR (default:
# its dist/). The SDK must be built first (scripts/tscheck.sh: make test-client
# runs it before); the browser test e2e/browser TestExampleShop then buys
# through the build.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/clients/examples/shop"
out=${1:-$dir/dist}
[ -f "$root/clients/typescript/dist/index.js" ] || { echo "example: build the SDK first (sh scripts/tscheck.sh build)"; exit 1; }
cd "$dir"
if ! cmp -s package-lock.json node_modules/.storefront-lock 2>/dev/null; then
  echo "example: npm ci (pinned by clients/examples/shop/package-lock.json)"
  n=0
  # --ignore-scripts: the SDK (a file: link) is built already; its prepare would build it again.
  until npm ci --no-audit --no-fund --ignore-scripts --loglevel=error --fetch-retries=4; do
    n=$((n + 1))
    [ "$n" -lt 3 ] || { echo "example: npm ci failed 3 times"; exit 1; }
    echo "example: npm ci failed, retrying ($n)"
  done
  cp package-lock.json node_modules/.storefront-lock
fi
./node_modules/.bin/tsc --noEmit
./node_modules/.bin/vite build --outDir "$out" --emptyOutDir --logLevel warn
echo "example: type-checked and built into $out"
