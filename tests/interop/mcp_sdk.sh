#!/usr/bin/env bash
# The official Python MCP SDK (2.x, pinned) lists and calls every tool
# against a running demo, in both protocol eras (tests/interop/mcp_sdk.py).
set -euo pipefail
cd "$(dirname "$0")/../.."

python3 -m venv target/ci-venv
target/ci-venv/bin/pip install --quiet --disable-pip-version-check "mcp==2.3.0"
cargo build --quiet
demo_dir=$(mktemp -d)
cargo run --quiet -- demo --data "$demo_dir/demo.db" --listen 127.0.0.1:0 > "$demo_dir/out" 2> "$demo_dir/err" &
demo_pid=$!
trap 'kill "$demo_pid" 2>/dev/null || true; rm -rf "$demo_dir"' EXIT
for _ in $(seq 1 300); do
    grep -q "REST API:" "$demo_dir/out" 2>/dev/null && break
    sleep 0.2
done
base=$(sed -n 's|.*REST API: \(http://[^ ]*\)/v1.*|\1|p' "$demo_dir/out")
key=$(grep -o 'svc_live_[A-Za-z0-9]*' "$demo_dir/out" | head -1)
if [ -z "$base" ] || [ -z "$key" ]; then
    echo "the demo did not start:" >&2
    cat "$demo_dir/err" >&2
    exit 1
fi
target/ci-venv/bin/python tests/interop/mcp_sdk.py "$base" "$key"
