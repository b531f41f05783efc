#!/usr/bin/env bash
# Browser tests of the screens: Debian's Chromium and ChromeDriver (installed
# with apt-get when missing), driven by Python Selenium (pinned, in a venv
# under target/), with axe-core (pinned, from npm into target/) injected
# into every page. Starts a fresh demo on a free port, runs
# tests/browser/screens.py against it, and stops it. Screenshots go to
# target/browser-screenshots/.
set -euo pipefail
cd "$(dirname "$0")/../.."

SELENIUM_VERSION=4.50.0
AXE_VERSION=4.14.1
PYOTP_VERSION=2.9.0

if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1 || ! command -v curl >/dev/null 2>&1; then
    echo "installing Debian's chromium, chromium-driver and curl"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq chromium chromium-driver curl >/dev/null
fi
chromium --version

venv=target/browser-venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q --disable-pip-version-check "selenium==$SELENIUM_VERSION" "pyotp==$PYOTP_VERSION"

npm_dir=target/browser-npm
axe="$npm_dir/node_modules/axe-core/axe.min.js"
if [ ! -f "$axe" ] || ! grep -q "\"version\": \"$AXE_VERSION\"" "$npm_dir/node_modules/axe-core/package.json"; then
    mkdir -p "$npm_dir"
    npm install --silent --no-audit --no-fund --prefix "$npm_dir" "axe-core@$AXE_VERSION" >/dev/null
fi

cargo build --quiet
work=$(mktemp -d)
demo_pid=
cleanup() {
    if [ -n "$demo_pid" ]; then
        kill "$demo_pid" 2>/dev/null || true
        wait "$demo_pid" 2>/dev/null || true
    fi
    if [ -n "${smtp_pid:-}" ]; then
        kill "$smtp_pid" 2>/dev/null || true
        wait "$smtp_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

# The mail flow's SMTP server: Debian's aiosmtpd (tests/smtp/install.sh) as
# a relay on loopback, keeping what it takes in $work/mail.
bash tests/smtp/install.sh >/dev/null
smtp_pid=
/usr/bin/python3 tests/smtp/server.py --out "$work/mail" --security none >"$work/smtp.out" 2>"$work/smtp.log" &
smtp_pid=$!
for _ in $(seq 1 50); do
    grep -q '^listening ' "$work/smtp.out" 2>/dev/null && break
    sleep 0.1
done
smtp_port=$(awk '/^listening /{print $2}' "$work/smtp.out")
if [ -z "$smtp_port" ]; then
    echo "the SMTP server did not start:" >&2
    cat "$work/smtp.log" >&2
    exit 1
fi

target/debug/kontor demo --data "$work/demo.db" --listen 127.0.0.1:0 --webhook-allow-loopback --mail-allow 127.0.0.1 >"$work/demo.out" 2>"$work/demo.log" &
demo_pid=$!
for _ in $(seq 1 100); do
    grep -q 'Ctrl-C stops the server' "$work/demo.out" 2>/dev/null && break
    sleep 0.1
done
if ! grep -q 'Ctrl-C stops the server' "$work/demo.out"; then
    echo "the demo did not start:" >&2
    cat "$work/demo.out" "$work/demo.log" >&2
    exit 1
fi

mkdir -p target/browser-screenshots
SE_OFFLINE=true "$venv/bin/python" tests/browser/screens.py \
    --demo-output "$work/demo.out" \
    --data "$work/demo.db" \
    --kontor target/debug/kontor \
    --smtp-port "$smtp_port" \
    --smtp-out "$work/mail" \
    --axe "$axe" \
    --screenshots target/browser-screenshots \
    --profile "$work/chromium-profile"
