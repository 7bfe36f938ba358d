#!/bin/sh
# `make bench` (data part): how one server's cost grows with its data, on SQLite and, when run
# inside scripts/with-postgres.sh, on PostgreSQL. For each store, three data sets: the shipped
# one, USERS users (`--large USERS,95`) and USERS users with NFTS NFTs (`--large USERS,NFTS`).
# Each is seeded once, then the server is started again on it: the time to /health/ready and the
# resident memory then; memory per user and per NFT are the differences between the sets. On the
# largest: wrk -t2 -c32 on a users page (sorted by rating, in the middle) and an NFT by id, and
# how long an account's change takes to answer: a like (its /users row encoded again) and a
# rename (its /users row moved in the orders its name sorts). On the shipped set and the largest,
# wrk -t2 -c32 with scripts/bench-put.lua on one account's profile: what a change costs at each size.
#   scripts/bench-large.sh [BINARY]    USERS=100000 NFTS=1000000 DURATION=10
set -eu
cd "$(dirname "$0")/.."
binary=${1:-.build/release/fakenft}
users=${USERS:-100000}
nfts=${NFTS:-1000000}
duration=${DURATION:-10}

work=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
now() { date +%s.%N; }

# Starts the server with "$@" and waits until it is ready (20 min at most); sets $server and
# $seconds (from the start to ready).
start() {
    started=$(now)
    "$binary" serve --port "$port" --quiet "$@" >"$work/server.log" 2>&1 &
    server=$!
    for _ in $(seq 12000); do
        curl -sf "$base/health/ready" >/dev/null && break
        kill -0 $server 2>/dev/null || { echo "the server stopped:"; cat "$work/server.log"; exit 1; }
        sleep 0.1
    done
    seconds=$(awk -v a="$started" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
}
stop() { kill $server && wait $server 2>/dev/null || true; server=; }
rss_mb() { awk '/^VmRSS:/ { printf "%.0f", $2 / 1024 }' "/proc/$server/status"; }
# wrk's "RPS p99" for a URL (and a script: wrk's options before it).
measure() {
    wrk -t2 -c32 -d"${duration}s" --latency "$@" 2>&1 | awk '
        /Requests\/sec:/ { rps = sprintf("%d", $2) } $1 == "99%" { p99 = $2 }
        / Non-2xx or 3xx responses:/ { bad = $NF }
        END { if (bad != "") rps = "errors:" bad; print rps, p99 }'
}
# An account's change (PUT /profile/1 with the form $1) answered, in ms.
change() {
    curl -sf -o /dev/null -w '%{time_total}' -X PUT -H "X-Practicum-Mobile-Token: $token" -d "$1" "$base/api/v1/profile/1" |
        awk '{ printf "%.0f", $1 * 1000 }'
}
per() { awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.2f", (a - b) * 1024 / n }'; }  # KB per item

# One store, named $1; `with SET` prints the options that give each data set its own folder
# (and database).
bench_store() {
    name=$1
    for set in shipped users all; do
        case $set in
            shipped) large="" ;;
            users) large="--large $users,95" ;;
            all) large="--large $users,$nfts" ;;
        esac
        options=$(with "$set")
        # shellcheck disable=SC2086 # options and large are lists of words
        start $options $large
        seed_seconds=$seconds
        stop
        # shellcheck disable=SC2086
        start $options
        eval "${set}_seed=$seed_seconds ${set}_start=$seconds ${set}_rss=$(rss_mb)"
        if [ $set != users ]; then
            token=$(curl -sf -d "name=Large&email=large@example.com&password=large-password" "$base/api/v1/auth/register" |
                python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
            echo "$token" >"$work/token"
            set -- $(TOKENS="$work/token" measure -s scripts/bench-put.lua "$base")
            eval "${set}_puts=$1"
        fi
        if [ $set = all ]; then
            set -- $(measure "$base/api/v1/users?page=$((users / 40))&size=20&sortBy=rating&order=desc")
            page_rps=$1 page_p99=$2
            set -- $(measure "$base/api/v1/nft/$((nfts * 3 / 4))")
            nft_rps=$1 nft_p99=$2
            like_ms=$(change "likes=$((nfts / 2))")
            rename_ms=$(change "name=Zed")
        fi
        stop
    done
    echo "| $name | $shipped_start s, $shipped_rss MB | $users_seed s / $users_start s, $users_rss MB | $all_seed s / $all_start s, $all_rss MB | $(per "$users_rss" "$shipped_rss" "$((users - 100))") KB | $(per "$all_rss" "$users_rss" "$((nfts - 95))") KB | $page_rps req/s, p99 $page_p99 | $nft_rps req/s, p99 $nft_p99 | $like_ms / $rename_ms ms | $shipped_puts / $all_puts req/s |"
}

echo "One server's cost with its data: $users users, $nfts NFTs (in collections of 100), $(nproc) cores; wrk -t2 -c32 -d${duration}s"
echo
echo "| Store | shipped data: start, memory | $users users: seed / start, memory | + $nfts NFTs: seed / start, memory | memory per user | per NFT | users page (sorted, middle) | NFT by id | an account's like / rename | an account's changes under wrk: shipped / largest |"
echo "|---|---|---|---|---|---|---|---|---|---|"
with() { echo "--data $work/sqlite-$1"; }
bench_store SQLite
if [ -n "${FAKENFT_TEST_POSTGRES:-}" ]; then
    with() {
        psql "$FAKENFT_TEST_POSTGRES" -X -q -c "CREATE DATABASE large_$1" </dev/null >/dev/null
        echo "--data $work/postgres-$1 --database ${FAKENFT_TEST_POSTGRES%/*}/large_$1"
    }
    bench_store PostgreSQL
fi
