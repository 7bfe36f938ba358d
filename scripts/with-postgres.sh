#!/bin/sh
# Runs a command with a PostgreSQL server of its own: a new cluster in a temporary folder, owned by
# an unprivileged user (`postgres` when run as root, else the caller), on a free loopback port; its
# address (a superuser, trust authentication) in FAKENFT_TEST_POSTGRES. Stopped and removed after.
# Usage: scripts/with-postgres.sh COMMAND [ARGS...]
set -eu
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$bin/initdb" ] || { echo "PostgreSQL is not installed (scripts/install-deps.sh installs it)" >&2; exit 1; }
dir=$(mktemp -d /tmp/fakenft-pg.XXXXXX)
if [ "$(id -u)" -eq 0 ]; then
    chown postgres "$dir"
    as() { runuser -u postgres -- "$@"; }
else
    as() { "$@"; }
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
stop() {
    as "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap stop EXIT
trap 'exit 130' INT TERM
as "$bin/initdb" -D "$dir/data" -U fakenft -A trust -E UTF8 --no-locale --no-sync >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
# fsync off: a test database need not survive a power cut; many servers at once need connections.
as "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=600 -c shared_buffers=64MB" start >/dev/null \
    || { cat "$dir/server.log" >&2; exit 1; }
FAKENFT_TEST_POSTGRES="postgres://fakenft@127.0.0.1:$port/postgres"
export FAKENFT_TEST_POSTGRES
"$@"
