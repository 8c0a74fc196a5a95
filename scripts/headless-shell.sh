#!/bin/sh
# headless-shell.sh: prints the path of the Chromium the browser tests drive.
#
# That is Chromium's headless shell (the "old" headless mode, what Puppeteer
# and Playwright run for headless tests), packed on npm by @sparticuz/chromium
# (pinned; npm checks the tarball's integrity), unpacked once into the user
# cache. Debian's chromium (.ci/chromium.sh) is the whole browser in its new
# headless mode: the same pages cost it twice the CPU (make test's browser
# part: 101 -> 48 CPU seconds of Chromium). The shell
# uses the libraries and fonts Debian's package installed. When the shell
# cannot be had (no npm, no registry), it prints nothing and the tests use
# Debian's chromium.
set -eu
version=153.0.0
dir="${XDG_CACHE_HOME:-$HOME/.cache}/storefront/chromium-headless-shell-$version"
bin="$dir/chromium"
if [ ! -x "$bin" ]; then
	if ! command -v npm >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
		apt-get -o DPkg::Lock::Timeout=300 install -y -qq nodejs npm >/dev/null 2>&1 ||
			{ apt-get -o DPkg::Lock::Timeout=300 update -qq >/dev/null 2>&1 &&
				apt-get -o DPkg::Lock::Timeout=300 install -y -qq nodejs npm >/dev/null 2>&1; } || true
	fi
	command -v npm >/dev/null 2>&1 || { echo "headless-shell: no npm: the browser tests use Debian's chromium" >&2; exit 0; }
	mkdir -p "$dir"
	tmp=$(mktemp -d "$dir/.unpack.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	if ! (cd "$tmp" && npm pack "@sparticuz/chromium@$version" --silent >/dev/null 2>&1 &&
		tar -xzf sparticuz-chromium-*.tgz package/bin/chromium.br &&
		node -e 'const fs = require("fs"), zlib = require("zlib");
fs.writeFileSync(process.argv[2], zlib.brotliDecompressSync(fs.readFileSync(process.argv[1])), {mode: 0o755})' \
			package/bin/chromium.br chromium &&
		./chromium --headless --no-sandbox --version >/dev/null 2>&1); then
		echo "headless-shell: could not unpack @sparticuz/chromium@$version: the browser tests use Debian's chromium" >&2
		exit 0
	fi
	mv -f "$tmp/chromium" "$bin" # one rename: runs at once never see half a file
fi
echo "$bin"
