#!/bin/sh
# Makes the project's Python virtual environment (.venv) with the test tools from PyPI, if missing.
set -eu
cd "$(dirname "$0")/.."
SCHEMATHESIS_VERSION=4.32.5
if [ ! -x .venv/bin/python ]; then
    if ! python3 -m venv .venv 2>/dev/null; then
        # Debian's python3 ships venv separately.
        rm -rf .venv
        if [ "$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-venv
        python3 -m venv .venv
    fi
fi
if ! .venv/bin/python -c "import schemathesis, sys; sys.exit(schemathesis.__version__ != '$SCHEMATHESIS_VERSION')" 2>/dev/null; then
    echo "Installing schemathesis $SCHEMATHESIS_VERSION into .venv"
    .venv/bin/pip install -q --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi
