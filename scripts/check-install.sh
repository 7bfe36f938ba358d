#!/bin/sh
# `make install` into a scratch folder, then checks that what it installed stands alone: the
# binary names no library of the Swift toolchain, starts with the toolchain's folder out of
# reach (an empty environment, no LD_LIBRARY_PATH), prints its version and serves; the man page
# (its keys and the shop's commands) and the bash, zsh and fish completions are where those
# shells look.
set -eu
cd "$(dirname "$0")/.."
root=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; rm -rf "$root"' EXIT
server=
make --no-print-directory install DESTDIR="$root" PREFIX=/usr >/dev/null
binary="$root/usr/bin/fakenft"
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")
if ldd "$binary" | grep -q "$toolchain"; then
    echo "check-install: the installed binary loads libraries from the toolchain ($toolchain):" >&2
    ldd "$binary" | grep "$toolchain" >&2
    exit 1
fi
for file in share/man/man1/fakenft.1 share/bash-completion/completions/fakenft share/zsh/site-functions/_fakenft \
    share/fish/vendor_completions.d/fakenft.fish; do
    [ -s "$root/usr/$file" ] || { echo "check-install: $file is missing" >&2; exit 1; }
done
grep -q '^\\fBcatalog.sort\\fR  s$' "$root/usr/share/man/man1/fakenft.1" ||
    { echo "check-install: the man page lists no keys" >&2; exit 1; }
grep -q '^\\fBcart add ID… \[--json\]\\fR$' "$root/usr/share/man/man1/fakenft.1" ||
    { echo "check-install: the man page lists no shop commands" >&2; exit 1; }
if readelf -S "$binary" | grep -q "\.symtab"; then echo "check-install: the binary is not stripped" >&2; exit 1; fi
version=$(env -i PATH=/usr/bin:/bin "$binary" --version)
[ "$version" = "$(sed -n 's/.*current = "\(.*\)".*/\1/p' Sources/FakeNFTCore/Version.swift)" ] ||
    { echo "check-install: --version said '$version'" >&2; exit 1; }
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
env -i PATH=/usr/bin:/bin HOME="$root" "$binary" serve --port "$port" --data "$root/data" --quiet >"$root/serve.log" 2>&1 &
server=$!
for _ in $(seq 100); do
    python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/api/v1/currencies')" 2>/dev/null &&
        { echo "check-install: $(du -h "$binary" | cut -f1) binary, version $version, serves without the toolchain"; exit 0; }
    sleep 0.1
done
echo "check-install: the installed server did not answer; its output:" >&2
cat "$root/serve.log" >&2
exit 1
