#!/usr/bin/env bash
# Interop: the OpenAPI document the server serves at /openapi.json, checked
# by the Python tools that read such documents, against a running demo:
#
# 1. openapi-spec-validator validates the document fetched from the server;
# 2. schemathesis runs every phase (examples, coverage, fuzzing, stateful)
#    with every check (use_after_free aside, below), seed 4711 and 25
#    examples an operation, the configuration with which others found query
#    values the document allowed and the server refused (a control character
#    in a search, the 31st of November): a schema-valid request must not be
#    refused;
# 3. schemathesis runs every phase again for a few minutes with the checks
#    below: no 5xx, every status, header, content type and body as
#    documented, no invalid input accepted, 400 without a required header,
#    405 with Allow for undocumented methods, 401 without a key.
#
# The demo serves with --webhook-allow-loopback, so registrations may point at
# loopback; no act raises an event during the run, so nothing is delivered.
# Requests rotate over many keys of the demo company (made with the console
# while the demo runs), so the per-key budget of 240 requests is not what is
# tested. Needs the Rust toolchain and python3; installs the Python tools
# into target/ci-venv from PyPI. Prints its elapsed time; exits non-zero on
# any failure.
#
#     bash tests/interop/openapi.sh            # about 6 minutes on 2 cores
#     ST_MAX_TIME=60 bash tests/interop/openapi.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$(date +%s)
elapsed() { echo "openapi interop: $(($(date +%s) - started)) s elapsed"; }
trap elapsed EXIT

# The whole run stays within 10 minutes: schemathesis gets ST_MAX_TIME
# seconds (fuzzing and stateful repeat until it is spent).
max_time=${ST_MAX_TIME:-240}
keys=${ST_KEYS:-60}

python3 -m venv target/ci-venv
target/ci-venv/bin/pip install --quiet --disable-pip-version-check \
    "openapi-spec-validator==0.9.0" "schemathesis==4.32.5"
py=target/ci-venv/bin/python

cargo build --quiet
kontor=target/debug/kontor
demo_dir=$(mktemp -d)
"$kontor" demo --data "$demo_dir/demo.db" --listen 127.0.0.1:0 --webhook-allow-loopback \
    > "$demo_dir/out" 2> "$demo_dir/err" &
demo_pid=$!
cleanup() {
    kill "$demo_pid" 2>/dev/null || true
    wait "$demo_pid" 2>/dev/null || true
    rm -rf "$demo_dir"
    elapsed
}
trap cleanup EXIT
for _ in $(seq 1 300); do
    grep -q "REST API:" "$demo_dir/out" 2>/dev/null && break
    sleep 0.2
done
base=$(sed -n 's|.*REST API: \(http://[^ ]*\)/v1.*|\1|p' "$demo_dir/out")
live=$(grep -o 'svc_live_[A-Za-z0-9]*' "$demo_dir/out" | head -1)
if [ -z "$base" ] || [ -z "$live" ]; then
    echo "the demo did not start:" >&2
    cat "$demo_dir/err" >&2
    exit 1
fi

# The document, fetched as a client would, without a key.
"$py" - "$base/openapi.json" "$demo_dir/openapi.json" <<'EOF'
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1]) as r:
    assert r.status == 200, r.status
    assert r.headers["Content-Type"] == "application/json", r.headers["Content-Type"]
    open(sys.argv[2], "wb").write(r.read())
EOF
target/ci-venv/bin/openapi-spec-validator "$demo_dir/openapi.json"

# More keys of the demo company, made by the console beside the server.
company=$("$py" - "$base" "$live" <<'EOF'
import json, sys, urllib.request
req = urllib.request.Request(sys.argv[1] + "/v1/me", headers={"Authorization": "Bearer " + sys.argv[2]})
print(json.load(urllib.request.urlopen(req))["organisationId"])
EOF
)
rotation=$live
for i in $(seq 2 "$keys"); do
    secret=$("$kontor" key create --company "$company" --name "schemathesis $i" \
        --environment production --scopes all --data "$demo_dir/demo.db" |
        "$py" -c 'import json, sys; print(json.load(sys.stdin)["secret"])')
    rotation="$rotation,$secret"
done
echo "openapi interop: $keys keys in rotation; schemathesis for at most $max_time s"

checks=not_a_server_error,status_code_conformance,content_type_conformance
checks=$checks,response_headers_conformance,response_schema_conformance
checks=$checks,negative_data_rejection,missing_required_header
checks=$checks,unsupported_method,allow_header_conformance,ignored_auth
# `ensure_resource_availability` does not apply: it reads any 404 after a
# creation as the created record missing, but a 404 may name a record the
# body refers to (PATCH /transactions/{id} with an unknown customerId answers
# 404 NICHT_GEFUNDEN for the customer, as the contract has drafts do).
# `use_after_free` does not apply: DELETE /webhooks/{id} disables an endpoint
# and keeps it (its log stays readable), as documented. `positive_data_acceptance`
# is left to the seeded run below, whose cases are always the same.
status=0
# One worker: with two, Hypothesis parses its filters' lambda sources from two
# threads at once, which Debian's Python 3.11 sometimes answers with
# "SystemError: AST constructor recursion depth mismatch" (a runtime error of
# the tool, not a finding; seen once in CI on GET /invoices/{number} and GET
# /transactions).
# Run from target/, where schemathesis keeps its replay cache (.schemathesis/).
root=$(pwd)
mkdir -p target/openapi-interop
schemathesis() {
    (cd target/openapi-interop && KONTOR_KEYS=$rotation SCHEMATHESIS_HOOKS=openapi_hooks \
        PYTHONPATH="$root/tests/interop" "$root/target/ci-venv/bin/st" run "$base/openapi.json" \
        --phases examples,coverage,fuzzing,stateful \
        --workers 1 \
        --request-timeout 10 \
        --suppress-health-check all \
        --generation-database none \
        --no-color "$@")
}
# Every check, seeded, on the fresh demo (about 40 s): every schema-valid
# request is accepted (positive_data_acceptance), so the document says what
# the server refuses (control characters in free text, days that do not
# exist). Every check but use_after_free, which fails on the one DELETE of
# the API by design: its stateful phase chains POST /webhooks, DELETE
# /webhooks/{id} and GET /webhooks/{id}/deliveries, and reads the log's 200
# as a deleted resource still served, where disabling keeps the log.
echo "openapi interop: every check but use_after_free, seed 4711, 25 examples an operation"
schemathesis --checks all --exclude-checks use_after_free --seed 4711 --max-examples 25 ||
    status=$?
echo "openapi interop: the checks above, for at most $max_time s"
schemathesis --checks "$checks" --max-time "$max_time" --max-examples 100 || status=$?
# The request log of the demo: how many answers the budget refused.
answered=$(grep -cE '[A-Z]+ /v1/[^ ]* [0-9]{3} ' "$demo_dir/err" || true)
limited=$(grep -cE '[A-Z]+ /v1/[^ ]* 429 ' "$demo_dir/err" || true)
echo "openapi interop: the demo answered $answered requests under /v1, $limited of them 429"
exit "$status"
