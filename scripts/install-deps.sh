#!/bin/sh
# Installs the Debian packages the build, the app and the tests need, if any is missing.
set -eu
# xvfb, xfonts-base (xterm's font), xterm, x11-apps (xwd), xdotool and libsixel-bin (sixel2png) run the
# real-terminal picture tests.
# postgresql runs the server's tests on PostgreSQL (scripts/with-postgres.sh starts a cluster of its
# own); nginx-light fronts two servers in the deployment test and serves the benchmark's static
# reference; wrk loads them in `make bench`.
packages="libncurses-dev libsqlite3-dev libxml2-dev zlib1g-dev libpng-dev libjpeg62-turbo-dev libchafa-dev libglib2.0-dev tmux xvfb xfonts-base xterm x11-apps xdotool libsixel-bin postgresql nginx-light wrk"
missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "Installing Debian packages:$missing"
if [ "$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing
