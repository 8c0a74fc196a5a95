#!/bin/sh
# Installs stripe-mock (Stripe's API mock, a Go module) into .tools/bin when
# missing, and prints its path. The Stripe gateway's tests (app/payment/stripe)
# start it (testenv.StartStripeMock) with its HTTP and HTTPS listeners on free
# 127.0.0.1 ports, never its defaults 12111 and 12112, and stop it after;
# every call our gateway makes is then checked against Stripe's own OpenAPI schema.
set -eu
GO=${GO:-go}
VERSION=v0.203.0
dir=$(cd "$(dirname "$0")/.." && pwd)/.tools/bin
bin=$dir/stripe-mock
stamp=$dir/stripe-mock.version
if [ ! -x "$bin" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$VERSION" ]; then
	mkdir -p "$dir"
	GOBIN=$dir "$GO" install "github.com/stripe/stripe-mock@$VERSION" >&2
	echo "$VERSION" >"$stamp"
fi
echo "$bin"
