# Sourced by scripts/bench-cluster.sh and scripts/bench-durable.sh: their 64 accounts, the check
# that every acknowledged like is in the database, and a ratio. Uses $work (a folder) and
# $database (the server's PostgreSQL database).

# Signs up 64 accounts through the API at $1: "token userId" a line in $work/accounts, the
# tokens alone in $work/tokens.
sign_up_accounts() {
    for i in $(seq 64); do
        curl -sf -d "name=Bench $i&email=bench$i@example.com&password=bench-password-$i" "$1/auth/register" |
            python3 -c 'import json, sys; a = json.load(sys.stdin); print(a["token"], a["userId"])'
    done >"$work/accounts"
    cut -d' ' -f1 "$work/accounts" >"$work/tokens"
}

# Every acknowledged like noted in $1 by scripts/bench-cluster.lua ("account-index sequence") is
# in the database (a later write of the same account may have replaced it); sets checked and lost.
check_acknowledged() {
    checked=0 lost=0
    while read -r index sequence; do
        user=$(sed -n "${index}p" "$work/accounts" | cut -d' ' -f2)
        stored=$(psql "$database" -X -At -c "SELECT description FROM profile WHERE id = '$user'" </dev/null)
        stored_sequence=${stored#t"$index"s}
        checked=$((checked + 1))
        if [ "$stored" = "$stored_sequence" ] || [ "$stored_sequence" -lt "$sequence" ]; then
            lost=$((lost + 1)); echo "lost: account $index acknowledged s$sequence, the database has $stored"
        fi
    done <"$1"
}

# $1 / $2 with two decimals, "-" when $2 is 0.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
