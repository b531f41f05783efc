#!/usr/bin/env bash
# Interop: kontor's VAT id verdicts against python-stdnum's (pinned), for
# the 27 EU member states (Greece as EL), XI, CH, GB and NO. Per state
# tests/interop/vat_ids.py generates 1,000 ids stdnum accepts, in every
# form it accepts (NL's btw-id, FR letter keys, ES K/L/M, BE 9 and 10
# digits, EL 8 digits, GB/XI branches, government and health ids, CH with
# MWST/TVA/IVA/TPV, separators), 1,000 one-digit mutations, 1,000
# separator probes, 1,000 one-character edits and 1,000 random strings, runs
# them all through `kontor vat-id check` and compares each verdict and
# compact form. Needs the Rust toolchain and python3;
# installs python-stdnum into target/vat-venv from PyPI. Prints the counts
# per state and the elapsed time; exits non-zero on any disagreement.
#
#     bash tests/interop/vat_ids.sh                  # about a minute on 2 cores
#     VAT_PER_STATE=200 VAT_SEED=7 bash tests/interop/vat_ids.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$(date +%s)
elapsed() { echo "VAT id interop: $(($(date +%s) - started)) s elapsed"; }
trap elapsed EXIT

python3 -m venv target/vat-venv
target/vat-venv/bin/pip install --quiet --disable-pip-version-check "python-stdnum==2.2"

cargo build --quiet
target/vat-venv/bin/python tests/interop/vat_ids.py target/debug/kontor \
    --per-state "${VAT_PER_STATE:-1000}" --seed "${VAT_SEED:-20261123}"
