#!/bin/sh
# Runs a command with a PostgreSQL server of its own: a new cluster in a temporary folder, owned by
# an unprivileged user (`postgres` when run as root, else the caller), on a free loopback port; its
# address (a superuser, trust authentication) in FAKENFT_TEST_POSTGRES. Stopped and removed after.
# TLS is on, as managed services run it: a certificate for "localhost" signed by a CA made here;
# the role fakenft_tls may connect only over TLS (FAKENFT_TEST_POSTGRES_TLS, its database's
# address; FAKENFT_TEST_POSTGRES_CA and FAKENFT_TEST_POSTGRES_OTHER_CA, the signing CA and one that
# signed nothing). FAKENFT_TEST_POSTGRES_SOCKET is the folder of the cluster's Unix socket.
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
tls() {  # the CAs and the server's certificate (EC keys: quick to make)
    for ca in ca other-ca; do
        openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
            -subj "/CN=FakeNFT test $ca" -keyout "$dir/$ca.key" -out "$dir/$ca.crt"
    done
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=localhost \
        -keyout "$dir/data/server.key" -out "$dir/server.csr"
    printf 'subjectAltName=DNS:localhost\n' >"$dir/server.ext"
    openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial -days 2 \
        -extfile "$dir/server.ext" -out "$dir/data/server.crt"
    chmod 600 "$dir/data/server.key"
    { printf 'hostssl all fakenft_tls all trust\nhostnossl all fakenft_tls all reject\n'
      cat "$dir/data/pg_hba.conf"; } >"$dir/pg_hba.conf"
    cp "$dir/pg_hba.conf" "$dir/data/pg_hba.conf"
    [ "$(id -u)" -ne 0 ] || chown postgres "$dir/data/server.key" "$dir/data/server.crt" "$dir/data/pg_hba.conf"
}
tls >"$dir/tls.log" 2>&1 || { cat "$dir/tls.log" >&2; exit 1; }
# fsync off: a test database need not survive a power cut (FAKENFT_TEST_POSTGRES_FSYNC=on for
# a benchmark of durable writes); many servers at once need connections.
fsync=${FAKENFT_TEST_POSTGRES_FSYNC:-off}
case $fsync in on|off) ;; *) echo "FAKENFT_TEST_POSTGRES_FSYNC must be on or off, not $fsync" >&2; exit 2 ;; esac
as "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=$fsync -c max_connections=600 -c shared_buffers=64MB -c ssl=on" start >/dev/null \
    || { cat "$dir/server.log" >&2; exit 1; }
FAKENFT_TEST_POSTGRES="postgres://fakenft@127.0.0.1:$port/postgres"
psql "$FAKENFT_TEST_POSTGRES" -X -q -v ON_ERROR_STOP=1 \
    -c "CREATE ROLE fakenft_tls LOGIN" -c "CREATE DATABASE fakenft_tls OWNER fakenft_tls" </dev/null
FAKENFT_TEST_POSTGRES_TLS="postgres://fakenft_tls@localhost:$port/fakenft_tls"
FAKENFT_TEST_POSTGRES_CA="$dir/ca.crt"
FAKENFT_TEST_POSTGRES_OTHER_CA="$dir/other-ca.crt"
FAKENFT_TEST_POSTGRES_SOCKET="$dir"
export FAKENFT_TEST_POSTGRES FAKENFT_TEST_POSTGRES_TLS FAKENFT_TEST_POSTGRES_CA FAKENFT_TEST_POSTGRES_OTHER_CA \
    FAKENFT_TEST_POSTGRES_SOCKET
"$@"
