#!/bin/sh
# `make bench-server`: the server's read and write throughput on loopback with wrk (-t2 -c32),
# side by side with nginx serving the very same JSON bytes as static files and, when
# fakenft-bench is beside BINARY, with Hummingbird alone serving them (one route per file, no
# middleware: the framework's own cost), in one run.
#   scripts/bench-server.sh [BINARY]    DURATION=10 (seconds per measurement)
set -eu
cd "$(dirname "$0")/.."
binary=${1:-.build/release/fakenft}
duration=${DURATION:-10}

missing=""
command -v wrk >/dev/null 2>&1 || missing="$missing wrk"
command -v curl >/dev/null 2>&1 || missing="$missing curl"
[ -x /usr/sbin/nginx ] || missing="$missing nginx-light"
if [ -n "$missing" ]; then
    echo "Installing Debian packages:$missing"
    if [ "$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing
fi

work=$(mktemp -d)
chmod 755 "$work"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
server_port=$(free_port)
nginx_port=$(free_port)
"$binary" serve --port "$server_port" --data "$work/data" --quiet >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null; rm -rf "$work"' EXIT
base="http://127.0.0.1:$server_port/api/v1"
for _ in $(seq 100); do curl -sf "$base/currencies" >/dev/null && break; sleep 0.1; done

# The same bytes, as static files for nginx.
mkdir -p "$work/www"
chmod 755 "$work/www"
curl -sf "$base/nft/1" >"$work/www/nft-1.json"
curl -sf "$base/users?page=0&size=20" >"$work/www/users-page.json"
curl -sf "$base/collections" >"$work/www/collections.json"
chmod 644 "$work/www"/*.json
cat >"$work/nginx.conf" <<CONF
worker_processes auto;
daemon on;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
    access_log off;
    default_type application/json;
    keepalive_requests 1000000;
    server { listen 127.0.0.1:$nginx_port; root $work/www; }
}
CONF
/usr/sbin/nginx -c "$work/nginx.conf" -e "$work/nginx-error.log"
nginx="http://127.0.0.1:$nginx_port"
for _ in $(seq 50); do curl -sf "$nginx/nft-1.json" >/dev/null && break; sleep 0.1; done
bare=""
if [ -x "$(dirname "$binary")/fakenft-bench" ]; then
    bare_port=$(free_port)
    "$(dirname "$binary")/fakenft-bench" serve-files "$work/www" "$bare_port" >"$work/bare.log" 2>&1 &
    bare_pid=$!
    trap 'kill $server $bare_pid 2>/dev/null; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null; rm -rf "$work"' EXIT
    bare="http://127.0.0.1:$bare_port"
    for _ in $(seq 50); do curl -sf "$bare/nft-1.json" >/dev/null && break; sleep 0.1; done
fi

# wrk's requests per second and 99th percentile latency, as "RPS P99".
measure() {
    wrk -t2 -c32 -d"${duration}s" --latency "$@" 2>&1 | awk '
        /Requests\/sec:/ { rps = sprintf("%d", $2) }
        $1 == "99%" { p99 = $2 }
        / Non-2xx or 3xx responses:/ { bad = $NF }
        END { if (bad != "") rps = "errors:" bad; print rps, p99 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.0f%%", 100 * a / b; else print "-" }'; }

cat >"$work/put.lua" <<'LUA'
local n = 0
wrk.method = "PUT"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
request = function()
    n = n + 1
    return wrk.format(nil, nil, nil, "likes=" .. (n % 95 + 1) .. "," .. ((n + 7) % 95 + 1))
end
LUA

echo "Server throughput, wrk -t2 -c32 -d${duration}s on loopback, $(nproc) cores; nginx $(/usr/sbin/nginx -v 2>&1 | sed 's/.*nginx\///') serves the same bytes"
echo
echo "| Request | fakenft req/s | p99 | nginx req/s | p99 | fakenft / nginx | target | Hummingbird alone req/s | its / nginx | fakenft / it |"
echo "|---|---|---|---|---|---|---|---|---|---|"
row() {
    name=$1 path=$2 file=$3 target=$4
    set -- $(measure "$base$path")
    ours=$1 ours_p99=$2
    set -- $(measure "$nginx/$file")
    theirs=$1 theirs_p99=$2
    alone="" alone_ratio="" ours_to_alone=""
    if [ -n "$bare" ]; then
        set -- $(measure "$bare/$file")
        alone=$1 alone_ratio=$(ratio "$1" "$theirs") ours_to_alone=$(ratio "$ours" "$1")
    fi
    echo "| \`GET /api/v1$path\` | $ours | $ours_p99 | $theirs | $theirs_p99 | $(ratio "$ours" "$theirs") | $target | $alone | $alone_ratio | $ours_to_alone |"
}
row nft "/nft/1" nft-1.json "≥ 60%"
row users "/users?page=0&size=20" users-page.json "≥ 50%"
row collections "/collections" collections.json "≥ 25%"
set -- $(measure -s "$work/put.lua" "$base/profile/1")
echo "| \`PUT /api/v1/profile/1\` (likes) | $1 | $2 | | | | | | | |"
kill -0 $server 2>/dev/null || { echo "the server died during the benchmark:" >&2; cat "$work/server.log" >&2; exit 1; }
