#!/bin/sh
# `make bench` (cluster part): docs/deploy.md's set-up under load. Two servers on one PostgreSQL
# database behind nginx (deploy/nginx.conf), wrk -t2 -c32 for DURATION seconds (default 60) with
# scripts/bench-cluster.lua (reads, likes and cart changes of 64 accounts); prints throughput and
# latency, then checks that every acknowledged like is in the database. Needs a cluster:
#   scripts/with-postgres.sh scripts/bench-cluster.sh [BINARY]
set -eu
cd "$(dirname "$0")/.."
binary=${1:-.build/release/fakenft}
duration=${DURATION:-60}
: "${FAKENFT_TEST_POSTGRES:?run through scripts/with-postgres.sh}"

work=$(mktemp -d)
chmod 755 "$work"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
psql "$FAKENFT_TEST_POSTGRES" -X -q -c "CREATE DATABASE bench" </dev/null
database="${FAKENFT_TEST_POSTGRES%/*}/bench"
a_port=$(free_port) b_port=$(free_port) nginx_port=$(free_port)
"$binary" serve --port "$a_port" --data "$work/a" --database "$database" --sign-ups-per-hour 0 --trusted-proxy 127.0.0.1 --quiet >"$work/a.log" 2>&1 &
a=$!
sleep 1   # the first one migrates and seeds
"$binary" serve --port "$b_port" --data "$work/b" --database "$database" --sign-ups-per-hour 0 --trusted-proxy 127.0.0.1 --quiet >"$work/b.log" 2>&1 &
b=$!
trap 'kill $a $b 2>/dev/null; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null; rm -rf "$work"' EXIT
for port in $a_port $b_port; do
    for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
done
sed -e "s/127.0.0.1:8080/127.0.0.1:$nginx_port/" -e "s/127.0.0.1:8081/127.0.0.1:$a_port/" -e "s/127.0.0.1:8082/127.0.0.1:$b_port/" \
    deploy/nginx.conf >"$work/nginx.conf"
/usr/sbin/nginx -p "$work" -c "$work/nginx.conf" -e "$work/nginx-error.log" -g "pid $work/nginx.pid; error_log $work/nginx-error.log;"
base="http://127.0.0.1:$nginx_port/api/v1"
for _ in $(seq 50); do curl -sf "$base/currencies" >/dev/null && break; sleep 0.1; done

for i in $(seq 64); do
    curl -sf -d "name=Bench $i&email=bench$i@example.com&password=bench-password-$i" "$base/auth/register" |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])'
done >"$work/tokens"

echo "Two servers on one PostgreSQL behind nginx: wrk -t2 -c32 -d${duration}s, reads 8 in 10, likes 1 in 10, cart changes 1 in 10, 64 accounts"
echo
TOKENS="$work/tokens" ACKED="$work/acked" THREADS=2 wrk -t2 -c32 -d"${duration}s" --latency -s scripts/bench-cluster.lua "http://127.0.0.1:$nginx_port" \
    >"$work/wrk.txt" 2>&1 || { cat "$work/wrk.txt"; exit 1; }
awk '/Requests\/sec:/ { rps = $2 } $1 == "50%" { p50 = $2 } $1 == "99%" { p99 = $2 } / requests in / { total = $1 }
     / Non-2xx or 3xx responses:/ { bad = $NF } /Socket errors/ { errors = $0 }
     END { printf "| mixed, through nginx | %d req/s | p50 %s | p99 %s | %s requests | non-2xx %s |\n", rps, p50, p99, total, (bad == "" ? 0 : bad)
           if (errors != "") print errors }' "$work/wrk.txt"

# Every acknowledged like is in the database (a later write of the same account may have replaced it).
checked=0 lost=0
while read -r index sequence; do
    token=$(sed -n "${index}p" "$work/tokens")
    stored=$(curl -sf -H "X-Practicum-Mobile-Token: $token" "http://127.0.0.1:$b_port/api/v1/profile/1" |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["description"])')
    stored_sequence=${stored#t"$index"s}
    checked=$((checked + 1))
    if [ "$stored" = "$stored_sequence" ] || [ "$stored_sequence" -lt "$sequence" ]; then
        lost=$((lost + 1)); echo "lost: account $index acknowledged s$sequence, the database has $stored"
    fi
done <"$work/acked"
echo "Acknowledged likes checked in the database: $checked accounts, last write of each; lost: $lost"
kill -0 $a 2>/dev/null && kill -0 $b 2>/dev/null || { echo "a server died:"; cat "$work/a.log" "$work/b.log"; exit 1; }
[ "$lost" -eq 0 ]
