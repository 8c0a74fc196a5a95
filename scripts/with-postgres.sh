#!/usr/bin/env bash
# with-postgres.sh CMD [ARGS...]: runs CMD with a throwaway PostgreSQL.
#
# It installs Debian's postgresql package when no server is on the machine,
# makes a cluster in a temporary directory (initdb, owned by an unprivileged
# user: the server refuses to run as root), listens only on a unix socket in
# that directory, exports the URL as STOREFRONT_TEST_POSTGRES_URL, runs CMD
# and then stops the server and removes the directory, whatever CMD returned.
# No Docker, no system service.
set -euo pipefail

pgbin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

bin=$(pgbin)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
	echo "with-postgres: installing postgresql" >&2
	sudo=""
	[ "$(id -u)" = 0 ] || sudo="sudo"
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get install -y -o DPkg::Lock::Timeout=300 postgresql >/dev/null ||
		{ $sudo apt-get update -o DPkg::Lock::Timeout=300 >/dev/null &&
			$sudo apt-get install -y -o DPkg::Lock::Timeout=300 postgresql >/dev/null; }
	bin=$(pgbin)
	# The package may have started its default cluster as a service: we use
	# our own, so stop it rather than leave a server behind.
	if command -v pg_lsclusters >/dev/null; then
		pg_lsclusters --no-header 2>/dev/null | awk '$4 == "online" {print $1, $2}' |
			while read -r ver name; do $sudo pg_ctlcluster "$ver" "$name" stop || true; done
	fi
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/storefront-pg.XXXXXX")
chmod 755 "$dir"
as=()
if [ "$(id -u)" = 0 ]; then
	# The package makes the postgres system user; create one if it is missing.
	id postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
	chown postgres "$dir"
	as=(runuser -u postgres --)
fi

cleanup() {
	"${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
	rm -rf "$dir"
}
trap cleanup EXIT INT TERM

"${as[@]}" "$bin/initdb" -D "$dir/data" -U storefront --auth=trust -E UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 ||
	{ cat "$dir/initdb.log" >&2; exit 1; }
# Only a unix socket in $dir: no port to collide with another run. fsync off:
# the data is thrown away (the tests of durability kill the binary, not the server).
"${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
	-o "-c listen_addresses='' -k $dir -c fsync=off -c full_page_writes=off -c max_connections=400 -c shared_buffers=64MB" \
	start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }

export STOREFRONT_TEST_POSTGRES_URL="postgres://storefront@/postgres?host=$dir&sslmode=disable"
echo "with-postgres: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on $dir" >&2
set +e
"$@"
rc=$?
set -e
exit $rc
