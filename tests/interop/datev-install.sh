#!/usr/bin/env bash
# Installs the outside reader of DATEV EXTF files the integration tests run
# (tests/interop/datev.py): mloda-community-german-ledger, pinned, from PyPI
# into target/datev-venv. Idempotent and quick when it is there already.
# `.ci/run` and the README's test command run it before `cargo test`.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=target/datev-venv
pin="mloda-community-german-ledger==0.11.0"
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c \
    "from mloda.community.feature_groups.experimental.german_ledger.datev import read_batch" 2>/dev/null \
    && "$venv/bin/pip" show mloda-community-german-ledger 2>/dev/null | grep -qx "Version: 0.11.0"; then
    exit 0
fi
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "$pin"
"$venv/bin/python" -c \
    "from mloda.community.feature_groups.experimental.german_ledger.datev import read_batch"
echo "DATEV reader installed: $pin in $venv"
