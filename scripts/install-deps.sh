#!/bin/sh
# Installs the Debian packages one set needs, if any is missing:
#   app   the libraries the build and the app need (make build, run, install, bench's build);
#   test  those, plus the test and benchmark tools (make test, fuzz, bench).
# No service is started: packages that ship one (postgresql, nginx) are installed with service
# starts refused (policy-rc.d) and kept from starting at boot; the tests start their own instances.
set -eu
set_name=${1:-app}
# libssl-dev: libcrypto's AES-GCM seals the SSH front's packets (Sources/CPacketCipher).
app="libncurses-dev libsqlite3-dev libxml2-dev zlib1g-dev libpng-dev libjpeg62-turbo-dev libchafa-dev libglib2.0-dev"
app="$app libssl-dev"
# tmux drives the app in the end-to-end tests; xvfb, xfonts-base (xterm's font), xterm, x11-apps (xwd),
# xdotool and libsixel-bin (sixel2png) run the real-terminal picture tests; postgresql runs the server's
# tests on PostgreSQL (scripts/with-postgres.sh starts a cluster of its own); nginx-light fronts two
# servers in the deployment test and serves the benchmark's static reference; wrk loads them; openssl
# makes the test cluster's CA and certificate (TLS tests); openssh-client (ssh, sftp, ssh-keygen) visits
# the shop over SSH, libnginx-mod-stream fronts two shops in the deployment test, and openssh-server's sshd
# (on a port and with a configuration of the benchmark's own) is what `make bench-ssh` compares with.
test="tmux xvfb xfonts-base xterm x11-apps xdotool libsixel-bin postgresql nginx-light wrk openssl openssh-client"
test="$test libnginx-mod-stream openssh-server"
# The benchmark's static build links Foundation's URLSession, which needs libcurl's static link flags.
test="$test libcurl4-openssl-dev"
# zsh and fish load the completion scripts in the tests (bash is Debian's own).
test="$test zsh fish"
services="postgresql nginx ssh"
case "$set_name" in
app) packages="$app" ;;
test) packages="$app $test" ;;
*)
    echo "usage: $0 app|test" >&2
    exit 2
    ;;
esac
missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "Installing Debian packages:$missing"
if [ "$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi
$sudo apt-get update -qq
# Debian starts a service as its package is installed unless policy-rc.d refuses (exit 101).
policy=/usr/sbin/policy-rc.d
made_policy=no
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
    $sudo chmod 755 "$policy"
    made_policy=yes
fi
status=0
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing || status=$?
[ "$made_policy" = yes ] && $sudo rm -f "$policy"
[ "$status" -eq 0 ] || exit "$status"
# ...and none starts at boot: only the services of packages installed just now are touched.
for service in $services; do
    case " $missing " in *" $service"*) ;; *) continue ;; esac
    if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
        $sudo systemctl disable --now "$service" >/dev/null 2>&1 || true
    elif [ -x /usr/sbin/update-rc.d ]; then
        $sudo update-rc.d "$service" disable >/dev/null 2>&1 || true
    fi
done
