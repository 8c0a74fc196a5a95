#!/bin/sh
# Installs Debian's chromium for the browser tests (e2e/browser) when it is
# missing. Without root and without chromium it only warns: the browser tests
# then skip locally (in CI, CI=true, they fail instead).
set -e
for b in chromium chromium-browser google-chrome; do
	command -v "$b" >/dev/null 2>&1 && exit 0
done
[ -n "$CHROMIUM" ] && [ -x "$CHROMIUM" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	apt-get update -o DPkg::Lock::Timeout=300 >/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get install -y -o DPkg::Lock::Timeout=300 chromium
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	sudo apt-get update -o DPkg::Lock::Timeout=300 >/dev/null
	sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -o DPkg::Lock::Timeout=300 chromium
else
	echo "chromium is missing and cannot be installed without root: the browser tests will skip" >&2
fi
