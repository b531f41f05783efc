#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, the
# version pinned in tests/interop/conformance/package-lock.json) against a
# running demo: every server scenario, at each protocol revision kontor
# serves (2025-03-26, 2025-06-18 and 2025-11-25 with initialize; 2026-07-28
# per request) and the extension scenarios once, compared with
# tests/interop/conformance-baseline.json (see conformance/check.py).
#
# Needs cargo and python3; npm only to install the suite and the Node.js it
# runs on (22, also pinned, from the npm registry) into target/conformance.
# Without npm, run as root on a machine with apt-get it installs nodejs and
# npm itself. The suite has no option for a header, so a loopback proxy
# (conformance/bearer_proxy.py) adds the Bearer key; each run gets a fresh
# key, so the rate budget (240 requests, 2 a second) never answers for it.
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$SECONDS

revisions=(2025-03-26 2025-06-18 2025-11-25 2026-07-28)
here=tests/interop/conformance
work=target/conformance

fail() {
    echo "conformance: $*" >&2
    exit 1
}

command -v cargo >/dev/null 2>&1 || fail "cargo is missing: this project needs the Rust toolchain (rustup)"
command -v python3 >/dev/null 2>&1 || fail "python3 is missing: the Bearer proxy and the comparison need it"
if ! command -v npm >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "conformance: npm is missing; installing nodejs and npm with apt-get"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
    else
        fail "npm is missing: install Node.js with npm (any version; the suite's own Node.js 22 comes from the npm registry), or run this script as root on a machine with apt-get"
    fi
fi

# The suite and its Node.js, exactly as locked; reinstalled when the lock changes.
mkdir -p "$work"
if ! cmp -s "$here/package-lock.json" "$work/package-lock.json" || [ ! -d "$work/node_modules" ]; then
    cp "$here/package.json" "$here/package-lock.json" "$work/"
    npm ci --prefix "$work" --no-audit --no-fund --loglevel=error >/dev/null ||
        fail "npm ci failed in $work"
fi
node="$work/node_modules/.bin/node"
if [ ! -x "$node" ]; then
    # No pinned build for this platform: a Node.js 22 or newer of the machine will do.
    node=$(command -v node || true)
    major=$([ -n "$node" ] && "$node" -p 'process.versions.node.split(".")[0]' || echo 0)
    [ "$major" -ge 22 ] || fail "the suite needs Node.js 22 or newer; none is pinned for $(uname -sm) and the machine's is ${node:+$("$node" --version)}${node:-missing}"
fi
suite_dir="$work/node_modules/@modelcontextprotocol/conformance"
suite="$suite_dir/$("$node" -p "require('./$suite_dir/package.json').bin.conformance")"
suite_version=$("$node" -p "require('./$suite_dir/package.json').version")
echo "conformance: @modelcontextprotocol/conformance $suite_version on Node.js $("$node" --version)"

cargo build --quiet
demo_dir=$(mktemp -d)
proxy_pid=
cargo run --quiet -- demo --data "$demo_dir/demo.db" --listen 127.0.0.1:0 > "$demo_dir/out" 2> "$demo_dir/err" &
demo_pid=$!
cleanup() {
    [ -n "$proxy_pid" ] && kill "$proxy_pid" 2>/dev/null || true
    kill "$demo_pid" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$demo_dir"
}
trap cleanup EXIT
for _ in $(seq 1 300); do
    grep -q "REST API:" "$demo_dir/out" 2>/dev/null && break
    sleep 0.2
done
base=$(sed -n 's|.*REST API: \(http://[^ ]*\)/v1.*|\1|p' "$demo_dir/out")
company=$(grep -o 'org_[A-Za-z0-9]*' "$demo_dir/out" | head -1 || true)
if [ -z "$base" ] || [ -z "$company" ]; then
    echo "the demo did not start:" >&2
    cat "$demo_dir/err" >&2
    exit 1
fi

# Starts the proxy with a fresh key of the demo company; sets $url.
start_proxy() {
    local key
    key=$(cargo run --quiet -- key create --data "$demo_dir/demo.db" --company "$company" \
        --name "conformance $1" --environment production --scopes all |
        sed -n 's/.*"secret": "\(svc_live_[A-Za-z0-9]*\)".*/\1/p')
    [ -n "$key" ] || fail "no key was created for the run $1"
    rm -f "$demo_dir/port"
    python3 "$here/bearer_proxy.py" "$base" "$key" "$demo_dir/port" &
    proxy_pid=$!
    for _ in $(seq 1 100); do
        [ -s "$demo_dir/port" ] && break
        sleep 0.1
    done
    [ -s "$demo_dir/port" ] || fail "the Bearer proxy did not start"
    url="http://127.0.0.1:$(cat "$demo_dir/port")/mcp"
}
stop_proxy() {
    kill "$proxy_pid" 2>/dev/null || true
    wait "$proxy_pid" 2>/dev/null || true
    proxy_pid=
}

results="$work/results"
rm -rf "$results"
mkdir -p "$results"
"$node" "$suite" list --server > "$results/all.list"
for revision in "${revisions[@]}"; do
    "$node" "$suite" list --server --spec-version "$revision" > "$results/$revision.list"
    start_proxy "$revision"
    # Exits 1 when any scenario fails: the baseline decides.
    "$node" "$suite" server --url "$url" --suite all --spec-version "$revision" \
        -o "$results/$revision" > "$results/$revision.log" 2>&1 || true
    stop_proxy
done
grep '\[extension\]' "$results/all.list" > "$results/extension.list" || true
start_proxy extension
for scenario in $(sed -n 's/^ *- \([^ ]*\).*/\1/p' "$results/extension.list"); do
    "$node" "$suite" server --url "$url" --scenario "$scenario" \
        -o "$results/extension" >> "$results/extension.log" 2>&1 || true
done
stop_proxy

status=0
python3 "$here/check.py" tests/interop/conformance-baseline.json "$results" "$suite_version" || status=$?
echo "conformance: the suite's own reports are in $results"
echo "conformance: $((SECONDS - started)) s"
exit "$status"
