#!/usr/bin/env bash
# The page image of the demo's first invoice in the README: rendered from the
# PDF that tests/interop/einvoice-docs.sh fetched from the demo into
# target/einvoice-docs, copied into the tree by hand (CI never changes it).
#
#     bash tests/interop/einvoice-docs.sh && bash tests/interop/einvoice/readme-image.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
pdf=target/einvoice-docs/demo-RE2026-00001.pdf
mkdir -p tests/images
pdftoppm -r 80 -f 1 -l 1 -png -singlefile "$pdf" tests/images/demo-invoice
echo "tests/images/demo-invoice.png from $pdf"
