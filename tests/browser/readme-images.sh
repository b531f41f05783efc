#!/usr/bin/env bash
# The screens' images in the README: copied from the screenshots the browser
# tests took into target/browser-screenshots (the dashboard, a draft, an
# invoice, the developer settings), by hand, so that CI never changes the tree.
#
#     bash tests/browser/run.sh && bash tests/browser/readme-images.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
from=target/browser-screenshots
mkdir -p tests/images
for name in dashboard draft invoice developers; do
    if [ ! -f "$from/$name.png" ]; then
        echo "no $from/$name.png: run bash tests/browser/run.sh first" >&2
        exit 1
    fi
    cp "$from/$name.png" "tests/images/screen-$name.png"
    echo "tests/images/screen-$name.png from $from/$name.png"
done
