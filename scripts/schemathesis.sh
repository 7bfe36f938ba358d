#!/bin/sh
# Fuzzes `fakenft serve` over HTTP with schemathesis, against the project's copy of the official
# OpenAPI spec (what the iOS apps expect) and then against the document the server serves
# (`/openapi.json`: every endpoint, its extensions too; the live updates, which stream for as long
# as the server runs, left out): every phase (examples, coverage, fuzzing, stateful), checking
# that no answer is a 5xx and that every documented answer matches its schema. Fails on any
# finding, and if the server is no longer running at the end (a crash).
#   scripts/schemathesis.sh [BINARY]   EXAMPLES=300 (cases per operation), SEED=1, MAX_TIME (seconds, optional)
set -eu
cd "$(dirname "$0")/.."
binary=${1:-.build/debug/fakenft}
examples=${EXAMPLES:-300}
seed=${SEED:-1}
./scripts/python-tools.sh
data=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$binary" serve --port "$port" --data "$data" --quiet >"$data/serve.out" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 100); do
    python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/api/v1/currencies')" 2>/dev/null && break
    sleep 0.1
done
set -- --url "http://127.0.0.1:$port" --checks not_a_server_error,response_schema_conformance \
    --max-examples "$examples" --seed "$seed" --generation-database none --no-color --warnings off
[ -n "${MAX_TIME:-}" ] && set -- "$@" --max-time "$MAX_TIME"
status=0
.venv/bin/schemathesis run Tests/Fixtures/fakenft-openapi-v1.1.0.json "$@" || status=$?
.venv/bin/schemathesis run "http://127.0.0.1:$port/openapi.json" --exclude-path /api/v1/events "$@" || status=$?
if ! kill -0 $server 2>/dev/null; then
    echo "schemathesis: the server is no longer running; its output:" >&2
    cat "$data/serve.out" >&2
    exit 1
fi
exit $status
