#!/bin/sh
# `make bench-cluster` (durable part): writes with PostgreSQL flushing every commit to disk
# (fsync on, as a real deployment runs; bench-cluster.sh runs it off), beside pgbench on the same
# cluster: `-b simple-update`, and the same update with one shared counter row in each
# transaction (what counting every change in one row costs when each commits alone; a server
# counts the changes that come together once, in one commit); then one server's PUT /profile/1
# over 64 accounts. Prints each with its ratio to simple-update. Last, crashes
# under writes: PostgreSQL stopped at once (`pg_ctl restart -m immediate`: no flush, recovery
# from the log) twice, then every acknowledged like checked in the database and each account's
# profile as the server answers it compared with the database's.
#   FAKENFT_TEST_POSTGRES_FSYNC=on scripts/with-postgres.sh scripts/bench-durable.sh [BINARY]
set -eu
cd "$(dirname "$0")/.."
. scripts/bench-accounts.sh
binary=${1:-.build/release/fakenft}
duration=${DURATION:-20}
: "${FAKENFT_TEST_POSTGRES:?run through scripts/with-postgres.sh}"
[ "$(psql "$FAKENFT_TEST_POSTGRES" -X -At -c 'SHOW fsync' </dev/null)" = on ] ||
    { echo "fsync is off: run with FAKENFT_TEST_POSTGRES_FSYNC=on" >&2; exit 2; }

work=$(mktemp -d)
chmod 755 "$work"
server=
trap '[ -n "$server" ] && kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
psql "$FAKENFT_TEST_POSTGRES" -X -q -c "CREATE DATABASE pgbench" -c "CREATE DATABASE bench" </dev/null
pgbench_database="${FAKENFT_TEST_POSTGRES%/*}/pgbench"
pgbench -i -q -s 1 "$pgbench_database" >/dev/null 2>&1
psql "$pgbench_database" -X -q -c "CREATE TABLE counter (id int PRIMARY KEY, n bigint)" \
    -c "INSERT INTO counter VALUES (1, 0)" </dev/null
cat >"$work/counter.sql" <<'SQL'
\set aid random(1, 100000 * :scale)
\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
UPDATE counter SET n = n + 1 WHERE id = 1;
END;
SQL
tps() { pgbench -n -c32 -j2 -T"$duration" "$@" "$pgbench_database" 2>&1 | awk '/^tps = / { printf "%d", $3 }'; }
update_tps=$(tps -b simple-update)
counter_tps=$(tps -f "$work/counter.sql")

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
database="${FAKENFT_TEST_POSTGRES%/*}/bench"
"$binary" serve --port "$port" --data "$work/data" --database "$database" \
    --sign-ups-per-hour 0 --quiet >"$work/server.log" 2>&1 &
server=$!
base="http://127.0.0.1:$port/api/v1"
for _ in $(seq 100); do curl -sf "$base/currencies" >/dev/null && break; sleep 0.1; done
sign_up_accounts "$base"
TOKENS="$work/tokens" wrk -t2 -c32 -d"${duration}s" --latency -s scripts/bench-put.lua "http://127.0.0.1:$port" >"$work/wrk.txt"
put_rps=$(awk '/Requests\/sec:/ { printf "%d", $2 }' "$work/wrk.txt")
put_p99=$(awk '$1 == "99%" { print $2 }' "$work/wrk.txt")
put_bad=$(awk '/Non-2xx or 3xx responses:/ { print $NF }' "$work/wrk.txt")

echo "Durable writes: PostgreSQL with fsync on (this machine's disk), ${duration} s each, -c32"
echo
echo "| Figure | measured | ratio to simple-update |"
echo "|---|---|---|"
echo "| pgbench -b simple-update, scale 1 | $update_tps tps | 1.00 |"
echo "| pgbench, the same update and one shared counter row a transaction | $counter_tps tps | $(ratio "$counter_tps" "$update_tps") |"
echo "| PUT /profile/1, one server, 32 connections over 64 accounts | $put_rps req/s, p99 $put_p99, non-2xx ${put_bad:-0} | $(ratio "$put_rps" "$update_tps") |"

# Crashes under writes (scripts/bench-cluster.lua's writes, which note every acknowledged like).
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
as_owner() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
ONLY=writes TOKENS="$work/tokens" ACKED="$work/acked" STATUSES="$work/statuses" THREADS=2 \
    wrk -t2 -c32 -d25s --timeout 15s -s scripts/bench-cluster.lua "http://127.0.0.1:$port" >"$work/wrk-crash.txt" 2>&1 &
load=$!
for at in 5 8; do
    sleep $at
    as_owner "$bin/pg_ctl" -D "$FAKENFT_TEST_POSTGRES_SOCKET/data" -l "$FAKENFT_TEST_POSTGRES_SOCKET/server.log" \
        -m immediate -w restart >/dev/null
done
wait $load || true
check_acknowledged "$work/acked"
differ=0
while read -r token user; do
    served=$(curl -s -H "X-Practicum-Mobile-Token: $token" "$base/profile/1" |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["description"])')
    stored=$(psql "$database" -X -At -c "SELECT description FROM profile WHERE id = '$user'" </dev/null)
    [ "$served" = "$stored" ] || differ=$((differ + 1))
done <"$work/accounts"
answers=$(awk '{ n[$1] += $2 } END { for (s in n) printf "%s × %d, ", s, n[s] }' "$work/statuses")
echo
echo "Crashes under writes (25 s, PostgreSQL stopped at once and started again at 5 s and 13 s): answers ${answers%, };"
echo "acknowledged likes checked: $checked accounts, lost: $lost; profiles the server answers unlike the database: $differ"
