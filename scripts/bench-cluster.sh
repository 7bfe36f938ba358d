#!/bin/sh
# `make bench` (cluster part): docs/deploy.md's set-up under load, beside PostgreSQL's own
# benchmark on the same cluster, in one run; prints each figure and its ratio to its target.
#   1. pgbench (scale 1) select-only and simple-update, -c32 -j2;
#   2. two servers on one PostgreSQL database behind nginx (deploy/nginx.conf), wrk -t2 -c32
#      with scripts/bench-cluster.lua (reads, likes and cart changes of 64 accounts), then a check
#      that every acknowledged like is in the database, then its reads alone through nginx and its
#      writes alone to one server, for where a request's CPU goes;
#   3. one server alone on that database (the other stopped): PUT /profile/1 over the 64
#      accounts and on one profile, GET /profile/1 and GET /nft/1;
#   4. what the cores allow the mix, from the CPU its requests took (servers, PostgreSQL, nginx,
#      wrk): with the servers, and were they free; and what 0.5× pgbench -S leaves the servers;
#   5. failures under the mix: PostgreSQL restarted, a server killed, the pool held by a lock;
#      each answer's time as nginx logged it, and every acknowledged like checked.
# DURATION seconds per measurement (default 20). Needs a cluster:
#   scripts/with-postgres.sh scripts/bench-cluster.sh [BINARY]
set -eu
cd "$(dirname "$0")/.."
. scripts/bench-accounts.sh
binary=${1:-.build/release/fakenft}
duration=${DURATION:-20}
: "${FAKENFT_TEST_POSTGRES:?run through scripts/with-postgres.sh}"

work=$(mktemp -d)
chmod 755 "$work"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# CPU time (clock ticks, user and system, with the children that ended: PostgreSQL's backends)
# used so far by server a, server b, PostgreSQL's processes and nginx's workers, as "A B PG
# NGINX": the difference over a measurement, divided by its requests, is what one request costs.
ticks() { for p in "$@"; do awk '{ print $14 + $15 + $16 + $17 }' "/proc/$p/stat" 2>/dev/null || echo 0; done | awk '{ s += $1 } END { print s + 0 }'; }
pg_ticks() { ticks $(ps -u postgres -o pid= 2>/dev/null || pgrep -x postgres); }
cpu_now() { echo "$(ticks $a) $(ticks $b) $(pg_ticks) $(ticks $(pgrep -f 'nginx: worker'))"; }
# Runs a command; writes the CPU time (µs, user and system) it used, its children's included, to
# $work/client.cpu: what the load's client (wrk, pgbench) cost.
client() {
    python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[2:])
used = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write("%d\n" % ((used.ru_utime + used.ru_stime) * 1e6))' "$work/client.cpu" "$@"
}
# CPU µs per request over a measurement, from two cpu_now readings, its request count and the
# client's CPU ($work/client.cpu), as "SERVERS A B POSTGRESQL NGINX WRK".
costs() {
    echo "$1 $2 $(cat "$work/client.cpu")" | awk -v hz="$(getconf CLK_TCK)" -v n="$3" '{ if (n == 0) n = 1
        f = 1000000 / hz / n
        printf "%d %d %d %d %d %d\n", ($5 - $1 + $6 - $2) * f, ($5 - $1) * f, ($6 - $2) * f, ($7 - $3) * f,
            ($8 - $4) * f, $9 / n }'
}
# costs' figures in words.
in_words() {
    echo "$1" | awk '{ printf "servers %d µs (a %d, b %d), PostgreSQL %d µs, nginx %d µs, wrk %d µs", $1, $2, $3, $4, $5, $6 }'
}
# "servers X µs (a A, b B), PostgreSQL Y µs, nginx Z µs, wrk W µs" per request, from two
# cpu_now readings and a request count.
per_request() { in_words "$(costs "$@")"; }
requests() { awk '/ requests in / { print $1 }' "$work/wrk.txt"; }
psql "$FAKENFT_TEST_POSTGRES" -X -q -c "CREATE DATABASE bench" </dev/null
database="${FAKENFT_TEST_POSTGRES%/*}/bench"
a_port=$(free_port) b_port=$(free_port) nginx_port=$(free_port)
"$binary" serve --port "$a_port" --data "$work/a" --database "$database" --sign-ups-per-hour 0 --trusted-proxy 127.0.0.1 --quiet >"$work/a.log" 2>&1 &
a=$!
sleep 1   # the first one migrates and seeds
"$binary" serve --port "$b_port" --data "$work/b" --database "$database" --sign-ups-per-hour 0 --trusted-proxy 127.0.0.1 --quiet >"$work/b.log" 2>&1 &
b=$!
# (each step may fail, server a being dead by then: the next one runs all the same)
trap 'kill $a $b 2>/dev/null || true; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true; rm -rf "$work"' EXIT
for port in $a_port $b_port; do
    for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
done
sed -e "s/127.0.0.1:8080/127.0.0.1:$nginx_port/" -e "s/127.0.0.1:8081/127.0.0.1:$a_port/" -e "s/127.0.0.1:8082/127.0.0.1:$b_port/" \
    deploy/nginx.conf >"$work/nginx.conf"
/usr/sbin/nginx -p "$work" -c "$work/nginx.conf" -e "$work/nginx-error.log" -g "pid $work/nginx.pid; error_log $work/nginx-error.log;"
base="http://127.0.0.1:$nginx_port/api/v1"
for _ in $(seq 50); do curl -sf "$base/currencies" >/dev/null && break; sleep 0.1; done

# PostgreSQL's own figures on this cluster, first, on a quiet machine.
psql "$FAKENFT_TEST_POSTGRES" -X -q -c "CREATE DATABASE pgbench" </dev/null
pgbench_database="${FAKENFT_TEST_POSTGRES%/*}/pgbench"
pgbench -i -q -s 1 "$pgbench_database" >/dev/null 2>&1
tps() { client pgbench -n -c32 -j2 -T"$duration" "$@" "$pgbench_database" 2>&1 | awk '/^tps = / { printf "%d", $3 }'; }
before=$(pg_ticks)
select_tps=$(tps -S)
select_cpu=$(awk -v a="$before" -v b="$(pg_ticks)" -v n="$select_tps" -v d="$duration" -v hz="$(getconf CLK_TCK)" \
    'BEGIN { if (n == 0) n = 1; printf "%d", (b - a) * 1000000 / hz / (n * d) }')
select_client_cpu=$(awk -v c="$(cat "$work/client.cpu")" -v n="$select_tps" -v d="$duration" \
    'BEGIN { if (n == 0) n = 1; printf "%d", c / (n * d) }')
update_tps=$(tps -b simple-update)

sign_up_accounts "$base"

# wrk's figures as "RPS P50 P99 NON2XX SOCKETERRORS" (latencies in ms).
measure() {
    client wrk -t2 -c32 -d"${duration}s" --latency "$@" 2>&1 | tee "$work/wrk.txt" | awk '
        function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /m$/) return v * 60000; return v * 1000 }
        /Requests\/sec:/ { rps = sprintf("%d", $2) } $1 == "50%" { p50 = ms($2) } $1 == "99%" { p99 = ms($2) }
        / Non-2xx or 3xx responses:/ { bad = $NF } /Socket errors/ { errors = $4 + $6 + $8 + $10 }
        END { printf "%d %.1f %.1f %d %d\n", rps, p50, p99, bad, errors }'
}
meets() { awk -v r="$1" -v t="$2" 'BEGIN { print (r + 0 >= t ? "yes" : "NO") }'; }

# Answers both servers repeated on the event loop, without the router (RepeatedAnswers).
repeats() {
    for port in "$a_port" "$b_port"; do curl -sf "http://127.0.0.1:$port/metrics"; done |
        awk '/^fakenft_http_answers_repeated_total/ { n += $NF } END { printf "%d", n }'
}
# "N% of its reads" of wrk's last run, repeats counted since $1, with $2 reads in 10 requests.
repeated_share() { awk -v r="$(($(repeats) - $1))" -v n="$(requests)" -v reads="$2" \
    'BEGIN { printf "%d%% of its reads", (n > 0 ? 100 * r / (n * reads / 10) : 0) }'; }

before=$(cpu_now) repeated=$(repeats)
set -- $(TOKENS="$work/tokens" ACKED="$work/acked" THREADS=2 measure -s scripts/bench-cluster.lua "http://127.0.0.1:$nginx_port")
mix_rps=$1 mix_p50=$2 mix_p99=$3 mix_bad=$4 mix_errors=$5
mix_repeated=$(repeated_share "$repeated" 8)
mix_costs=$(costs "$before" "$(cpu_now)" "$(requests)")
mix_cpu=$(in_words "$mix_costs")
# Changes a server's read model caught up with, by where their rows came from ("N M": without a
# query, read back from the database).
caught_up() {
    curl -sf "http://127.0.0.1:$1/metrics" | awk -F'[ }]' '/^fakenft_changes_caught_up\{from="notification"/ { n = $3 }
        /^fakenft_changes_caught_up\{from="database"/ { d = $3 } END { printf "%d %d", n, d }'
}
set -- $(caught_up "$a_port") $(caught_up "$b_port")
mix_caught_up="$(($1 + $3)) without a query (notified), $(($2 + $4)) read back from the database"

check_acknowledged "$work/acked"
mix_checked=$checked mix_lost=$lost

# The mix's two halves apart, for where its CPU goes: its reads alone through nginx, and its
# writes alone straight to server a (b takes them in from their notifications).
before=$(cpu_now) repeated=$(repeats)
set -- $(ONLY=reads TOKENS="$work/tokens" ACKED="$work/acked-apart" THREADS=2 measure -s scripts/bench-cluster.lua "http://127.0.0.1:$nginx_port")
reads_rps=$1 reads_bad=$4 reads_cpu=$(per_request "$before" "$(cpu_now)" "$(requests)")
reads_repeated=$(repeated_share "$repeated" 10)
before=$(cpu_now)
set -- $(ONLY=writes TOKENS="$work/tokens" ACKED="$work/acked-apart" THREADS=2 measure -s scripts/bench-cluster.lua "http://127.0.0.1:$a_port")
writes_rps=$1 writes_bad=$4 writes_cpu=$(per_request "$before" "$(cpu_now)" "$(requests)")
kill -0 $a 2>/dev/null && kill -0 $b 2>/dev/null || { echo "a server died:"; cat "$work/a.log" "$work/b.log"; exit 1; }

# One server alone on the same database: a stops (else it would read every change of b's
# again), nginx stays idle.
kill $a && wait $a 2>/dev/null || true
direct="http://127.0.0.1:$b_port"
before=$(cpu_now)
set -- $(TOKENS="$work/tokens" measure -s scripts/bench-put.lua "$direct"); put_rps=$1 put_p99=$3 put_bad=$4
put_cpu=$(per_request "$before" "$(cpu_now)" "$(requests)")
set -- $(measure -s scripts/bench-put.lua "$direct"); put_one_rps=$1 put_one_p99=$3
set -- $(measure "$direct/api/v1/profile/1"); profile_rps=$1 profile_p99=$3
before=$(cpu_now)
set -- $(measure "$direct/api/v1/nft/1"); nft_rps=$1 nft_p99=$3
nft_cpu=$(per_request "$before" "$(cpu_now)" "$(requests)")

mix_ratio=$(ratio "$mix_rps" "$select_tps") put_ratio=$(ratio "$put_rps" "$update_tps")
read_ratio=$(ratio "$profile_rps" "$nft_rps")
echo "FakeNFT on PostgreSQL (fsync off) beside pgbench on the same cluster, $(nproc) cores, ${duration} s each, -c32 (wrk -t2, pgbench -j2)"
echo
echo "| Figure | measured | reference | ratio | target | met |"
echo "|---|---|---|---|---|---|"
echo "| pgbench -S (select only), scale 1 | $select_tps tps (CPU a transaction: PostgreSQL $select_cpu µs, pgbench $select_client_cpu µs) | | | | |"
echo "| pgbench -b simple-update, scale 1 | $update_tps tps | | | | |"
echo "| mix through nginx over two servers (scripts/bench-cluster.lua) | $mix_rps req/s, p50 $mix_p50 ms, p99 $mix_p99 ms, non-2xx $mix_bad, socket errors $mix_errors | pgbench -S | $mix_ratio | ≥ 0.5, p99 ≤ 50 ms, no error | $(meets "$mix_ratio" 0.5)/$(awk -v p="$mix_p99" 'BEGIN { print (p <= 50 ? "yes" : "NO") }')/$([ "$mix_bad$mix_errors" = 00 ] && echo yes || echo NO) |"
echo "| PUT /profile/1, one server, 32 connections over 64 accounts | $put_rps req/s, p99 $put_p99 ms, non-2xx $put_bad | pgbench simple-update | $put_ratio | ≥ 0.5 | $(meets "$put_ratio" 0.5) |"
echo "| PUT /profile/1, one server, all connections on one profile | $put_one_rps req/s, p99 $put_one_p99 ms | pgbench simple-update | $(ratio "$put_one_rps" "$update_tps") | (printed) | |"
echo "| GET /profile/1, one server | $profile_rps req/s, p99 $profile_p99 ms | GET /nft/1: $nft_rps req/s, p99 $nft_p99 ms | $read_ratio | ≥ 0.6 | $(meets "$read_ratio" 0.6) |"
echo
echo "CPU per request (user and system time of every process of each): the mix: $mix_cpu;"
echo "its reads alone through nginx ($reads_rps req/s, non-2xx $reads_bad): $reads_cpu;"
echo "its writes alone to server a ($writes_rps req/s, non-2xx $writes_bad): $writes_cpu;"
echo "PUT over 64 accounts: $put_cpu; GET /nft/1: $nft_cpu"
# What the cores allow the mix, from its requests' CPU: with the servers', and without (PostgreSQL,
# nginx and wrk alone); and what 0.5× pgbench -S leaves the servers of a request's CPU.
echo "$mix_costs" | awk -v cores="$(nproc)" -v select="$select_tps" '{ second = cores * 1000000; rest = $4 + $5 + $6
    target = select / 2; budget = target > 0 ? second / target : 0
    printf "What %d cores allow the mix: %d req/s with every process as measured (%d µs a request); ", cores, second / ($1 + rest), $1 + rest
    printf "%d req/s (%.2f× pgbench -S) even were the servers free (PostgreSQL, nginx and wrk: %d µs). ", second / rest, second / rest / (select > 0 ? select : 1), rest
    printf "0.5× pgbench -S (%d req/s) allows %d µs a request in all, %d µs of it for the servers", target, budget, budget - rest
    if (budget - rest <= 0) printf ": out of reach of any server on this machine (PostgreSQL, nginx and wrk alone take more)"
    printf "\n" }'
echo "Acknowledged likes of the mix checked in the database: $mix_checked accounts, last write of each; lost: $mix_lost"
echo "Changes the two servers caught up with (the sign-ups and the mix): $mix_caught_up"
echo "Reads answered as repeats on the event loop, without the router: the mix $mix_repeated; its reads alone $reads_repeated"

# 4. Failures under the mix, both servers again: PostgreSQL restarted at 5 s, server a killed
# with SIGKILL at 10 s, every connection of the pool held by a slow query (a table lock held for
# 4 s) at 15 s; then the last acknowledged like of each account is checked, and a change through
# nginx must succeed with no server restarted.
"$binary" serve --port "$a_port" --data "$work/a" --database "$database" --sign-ups-per-hour 0 --trusted-proxy 127.0.0.1 --quiet >>"$work/a.log" 2>&1 &
a=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$a_port/health" >/dev/null && break; sleep 0.1; done
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
as_owner() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
failures=30
# Each request's time as nginx measured it, from its first byte to its last, logged from now on:
# across broken connections wrk's own latencies are not to be trusted (they add up to more
# waiting than 32 connections can do in the time).
sed -i "s|access_log off;|log_format timed '\$request_time'; access_log $work/failures.log timed;|" "$work/nginx.conf"
kill -HUP "$(cat "$work/nginx.pid")"
sleep 0.5
TOKENS="$work/tokens" ACKED="$work/acked-failures" STATUSES="$work/statuses" THREADS=2 \
    wrk -t2 -c32 -d"${failures}s" --timeout 15s -s scripts/bench-cluster.lua "http://127.0.0.1:$nginx_port" >"$work/wrk-failures.txt" 2>&1 &
load=$!
# A change straight to server b every second (2 s at most each): when it stops answering, and
# when it answers again.
( for _ in $(seq 30); do
    curl -s -m 2 -o /dev/null -w '%{http_code}\n' -X PUT -H "X-Practicum-Mobile-Token: $(sed -n 2p "$work/tokens")" \
        -d likes=2 "http://127.0.0.1:$b_port/api/v1/profile/1" || true
    sleep 1
  done >"$work/probe.log" ) &
probe=$!
sleep 5
started=$(psql "$database" -X -At -c "SELECT pg_postmaster_start_time()" </dev/null)
as_owner "$bin/pg_ctl" -D "$FAKENFT_TEST_POSTGRES_SOCKET/data" -l "$FAKENFT_TEST_POSTGRES_SOCKET/server.log" -m fast -w restart >/dev/null
restarted=$(psql "$database" -X -At -c "SELECT pg_postmaster_start_time()" </dev/null)
sleep 5
kill -9 $a
sleep 5
psql "$database" -X -q -c "BEGIN; LOCK TABLE profile IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(4); COMMIT" </dev/null >/dev/null
wait $load || true
wait $probe || true
check_acknowledged "$work/acked-failures"
after=$(curl -s -o /dev/null -w '%{http_code}' -X PUT -H "X-Practicum-Mobile-Token: $(sed -n 1p "$work/tokens")" \
    -d "description=after" "http://127.0.0.1:$nginx_port/api/v1/profile/1")
echo
echo "Failures under the mix (${failures} s through nginx: PostgreSQL restarted at 5 s, a server killed at 10 s, the pool held by a 4 s table lock at 15 s):"
echo "PostgreSQL started $started, again $restarted"
awk '/Requests\/sec:/ { rps = $2 } / requests in / { total = $1 }
     /Socket errors/ { errors = ", socket errors: " $3 " " $4 " " $5 " " $6 " " $7 " " $8 " " $9 " " $10 }
     END { printf "%d req/s, %s requests%s", rps, total, errors }' "$work/wrk-failures.txt"
sort -n "$work/failures.log" | awk '{ t[NR] = $1 } END { if (NR == 0) exit
    printf "; by nginx'"'"'s clock: p50 %.3f s, p99 %.3f s, slowest %.3f s, %d over 1 s", t[int(NR * 0.5) + 1], t[int(NR * 0.99) + 1], t[NR], over
    } $1 > 1 { over++ }'
echo "; answers by status: $(awk '{ n[$1] += $2 } END { for (s in n) printf "%s x%d ", s, n[s] }' "$work/statuses")"
echo "Server b, a change every second (000: no answer in 2 s): $(paste -sd ' ' "$work/probe.log")"
echo "Acknowledged likes checked: $checked accounts; lost: $lost. A change through nginx afterwards, nothing restarted: $after"
echo "nginx's errors: $(sed -n 's/.*\] [0-9#]*: \*[0-9]* \([^,(]*\).*/\1/p' "$work/nginx-error.log" | sort | uniq -c | awk '{ $1 = $1 " x"; print }' | paste -sd ';' -)"
[ "$mix_lost" -eq 0 ] && [ "$lost" -eq 0 ] && [ "$after" = 200 ]
