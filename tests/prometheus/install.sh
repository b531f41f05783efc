#!/usr/bin/env bash
# What the metrics test needs on the machine: Debian's prometheus package,
# which brings the server the test starts on loopback (with its own
# temporary storage) and promtool, which checks the metrics page.
# Installed with apt-get when missing; quick when there. Debian would start
# its service on installing: a policy-rc.d keeps it from doing so (the test
# runs its own server), unless the machine already has one.
set -euo pipefail

if ! command -v prometheus >/dev/null 2>&1 || ! command -v promtool >/dev/null 2>&1; then
    echo "installing Debian's prometheus"
    export DEBIAN_FRONTEND=noninteractive
    policy=/usr/sbin/policy-rc.d
    if [ ! -e "$policy" ]; then
        printf '#!/bin/sh\nexit 101\n' >"$policy"
        chmod 755 "$policy"
        trap 'rm -f "$policy"' EXIT
    fi
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends prometheus >/dev/null
fi
prometheus --version 2>&1 | head -1
