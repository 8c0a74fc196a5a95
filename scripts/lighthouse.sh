#!/bin/sh
# Lighthouse on the shop window of the demo store served by the built binary
# (make bench runs it): home, a category, a product and the cart, one page
# at a time, mobile preset with Lighthouse's default simulated throttling.
# It installs lighthouse (pinned) into .tools/lighthouse, ignored by git,
# uses Debian's chromium, writes each report to bench/out/lighthouse/ and
# prints one line of scores per page. It fails when a page scores below
# the targets (performance 0.95, accessibility 1.0, best practices 0.95,
# SEO 0.95; the cart is noindex, so its SEO is not held to the target).
#   usage: scripts/lighthouse.sh [path/to/storefront]
set -eu
VERSION=12.2.3
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/bin/storefront}
tools=$root/.tools/lighthouse
lh=$tools/node_modules/.bin/lighthouse
if [ ! -x "$lh" ] || [ "$(cat "$tools/version" 2>/dev/null)" != "$VERSION" ]; then
	mkdir -p "$tools"
	npm install --prefix "$tools" --no-audit --no-fund --save-exact "lighthouse@$VERSION" >&2
	echo "$VERSION" >"$tools/version"
fi
CHROME_PATH=${CHROME_PATH:-$(command -v chromium || command -v chromium-browser)}
export CHROME_PATH
out=$root/bench/out/lighthouse
mkdir -p "$out"

data=$(mktemp -d)
log=$data/server.log
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$data"' EXIT
STOREFRONT_DEMO=true STOREFRONT_DATA_DIR=$data STOREFRONT_HTTP__ADDR=127.0.0.1:0 \
	STOREFRONT_LOG__FORMAT=json STOREFRONT_HTTP__LOG_REQUESTS=false "$bin" serve >/dev/null 2>"$log" &
pid=$!
addr=
for _ in $(seq 600); do # up to 60 s for the "listening" line
	addr=$(sed -n 's/.*"msg":"listening".*"addr":"\([^"]*\)".*/\1/p' "$log" | head -n 1)
	[ -n "$addr" ] && break
	kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; exit 1; }
	sleep 0.1
done
[ -n "$addr" ] || { echo "lighthouse: the server did not listen" >&2; exit 1; }
base=http://$addr
home=$(curl -fsS "$base/")
cat=$(printf '%s' "$home" | grep -o 'href="/categories/[0-9]*/[^"/]*/"' | head -n 1 | cut -d'"' -f2)
prod=$(printf '%s' "$home" | grep -o 'href="/products/[^"/]*/"' | head -n 1 | cut -d'"' -f2)

fail=0
for page in home:/ category:$cat product:$prod cart:/cart/; do
	name=${page%%:*} path=${page#*:}
	"$lh" "$base$path" --quiet --form-factor=mobile \
		--chrome-flags="--headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking --disable-component-update --disable-sync" \
		--only-categories=performance,accessibility,best-practices,seo --output=json --output-path="$out/$name.json" >/dev/null 2>&1 || true
	node -e '
const r = require(process.argv[1]), c = r.categories, name = process.argv[2];
const s = k => c[k] ? c[k].score : null;
const got = {perf: s("performance"), a11y: s("accessibility"), bp: s("best-practices"), seo: s("seo")};
const want = {perf: 0.95, a11y: 1, bp: 0.95, seo: name === "cart" ? 0 : 0.95};
console.log(`lighthouse ${name.padEnd(8)} ${process.argv[3].padEnd(40)} performance ${got.perf} accessibility ${got.a11y} best-practices ${got.bp} seo ${got.seo}`);
const low = Object.keys(want).filter(k => got[k] === null || got[k] < want[k]);
for (const k of low) {
  const cat = {perf: "performance", a11y: "accessibility", bp: "best-practices", seo: "seo"}[k];
  const bad = (c[cat] ? c[cat].auditRefs : []).map(a => r.audits[a.id]).filter(a => a && a.score !== null && a.score < 1 && a.scoreDisplayMode !== "informative" && a.scoreDisplayMode !== "manual");
  console.log(`  ${cat} below ${want[k]}: ` + bad.map(a => `${a.id} (${a.score})`).join(", "));
}
process.exit(low.length ? 1 : 0);' "$out/$name.json" "$name" "$path" || fail=1
done
exit $fail
