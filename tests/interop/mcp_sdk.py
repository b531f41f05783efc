"""Interop check of /mcp with the official Python MCP SDK (2.x), in both eras.

Run by .ci/run against a running `kontor demo`:

    python tests/interop/mcp_sdk.py http://127.0.0.1:PORT svc_live_…

It lists the tools and calls every one against the demo's data, once with
mode="legacy" (initialize handshake) and once with mode="2026-07-28", and ends
with one line `N passed, N failed`.
"""

import asyncio
import json
import sys
import urllib.request

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

EXPECTED_TOOLS = {
    "get_customer", "search_customers", "get_invoice", "list_invoices", "get_transaction",
    "list_transactions", "list_receivables", "list_payables", "get_profit_and_loss",
    "get_balance_sheet", "get_business_attention", "create_invoice_draft", "create_quote_draft",
    "create_transaction", "add_transaction_note",
}


def rest(base, key, path):
    request = urllib.request.Request(base + path, headers={"Authorization": f"Bearer {key}"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def calls(base, key, mode):
    customer = rest(base, key, "/v1/customers?search=Bau")["data"][0]["id"]
    transaction = rest(base, key, "/v1/transactions")["data"][0]["id"]
    invoice = rest(base, key, "/v1/invoices?status=OPEN")["data"][0]["number"]
    line = {"description": "Beratung", "quantity": 2.5, "unit_price_minor": 9500, "tax_rate_percent": 19}
    return [
        ("get_customer", {"customer_id": customer}, lambda r: r["id"] == customer),
        ("search_customers", {"query": "Bau"}, lambda r: r["total"] >= 1),
        ("get_invoice", {"number": invoice}, lambda r: r["number"] == invoice and r["lines"]),
        ("list_invoices", {"status": "OPEN", "limit": 2}, lambda r: len(r["items"]) <= 2),
        ("get_transaction", {"transaction_id": transaction}, lambda r: "notes" in r),
        ("list_transactions", {"include_archived": True}, lambda r: r["total"] >= 1),
        ("list_receivables", {}, lambda r: r["summary"]["count"] >= 1),
        ("list_payables", {}, lambda r: r["summary"]["count"] >= 0),
        ("get_profit_and_loss", {}, lambda r: "is_final" in r),
        ("get_balance_sheet", {}, lambda r: r["balanced"] is True),
        ("get_business_attention", {}, lambda r: r["count"] >= 1),
        ("create_invoice_draft", {"customer_id": customer, "lines": [line], "idempotency_key": f"sdk-{mode}"},
         lambda r: r["state"] == "DRAFT" and r["lines"][0]["quantity"] == "2.5"),
        ("create_quote_draft", {"customer_id": customer, "lines": [line]}, lambda r: r["documentType"] == "QUOTE"),
        ("create_transaction", {"title": f"Über das SDK ({mode})"}, lambda r: r["number"].startswith("V")),
        ("add_transaction_note", {"transaction_id": transaction, "text": f"Notiz ({mode})"},
         lambda r: r["transaction"]["notes"]),
    ]


async def check(base, key, mode):
    passed, failed = 0, 0
    headers = {"Authorization": f"Bearer {key}"}
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http:
        async with Client(streamable_http_client(base + "/mcp", http_client=http), mode=mode) as client:
            listed = await client.list_tools()
            names = {tool.name for tool in listed.tools}
            if names == EXPECTED_TOOLS:
                passed += 1
            else:
                failed += 1
                print(f"[{mode}] tools/list: {sorted(names)}")
            for name, arguments, ok in calls(base, key, mode):
                result = await client.call_tool(name, arguments)
                structured = result.structured_content
                good = not result.is_error and structured is not None and bool(ok(structured))
                # The text block carries the same JSON.
                good = good and json.loads(result.content[0].text) == structured
                if good:
                    passed += 1
                else:
                    failed += 1
                    print(f"[{mode}] {name}: {result}")
            missing = await client.call_tool("get_customer", {"customer_id": "cus_doesnotexist0000000"})
            if missing.is_error and missing.structured_content["code"] == "NICHT_GEFUNDEN":
                passed += 1
            else:
                failed += 1
                print(f"[{mode}] not found: {missing}")
    return passed, failed


def main():
    base, key = sys.argv[1], sys.argv[2]
    passed = failed = 0
    for mode in ("legacy", "2026-07-28"):
        p, f = asyncio.run(check(base, key, mode))
        print(f"mcp sdk, mode={mode}: {p} passed, {f} failed")
        passed, failed = passed + p, failed + f
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
