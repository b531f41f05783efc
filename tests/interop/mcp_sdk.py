"""Interop check of /mcp with the official Python MCP SDK (2.x), in both eras.

Run by .ci/run against a running `kontor demo`:

    python tests/interop/mcp_sdk.py http://127.0.0.1:PORT svc_live_…

It lists the tools and calls every one against the demo's data, once with
mode="legacy" (initialize handshake) and once with mode="2026-07-28", and ends
with one line `N passed, N failed`.

Every check names what the demo holds (src/console/demo.rs): one customer
matching "Bau", three open invoices (one partly paid, two overdue), one open
bill, the ledger's totals, an archived transaction; ids and numbers are read from
the REST API of the same demo, and what a tool returns is compared with what
REST returns for the same thing. The amounts do not depend on the day the
demo runs; what does (late transactions, the writes of an earlier mode) is
derived from REST.
"""

import asyncio
import json
import sys
import urllib.request
from datetime import date, timedelta
from decimal import Decimal

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

EXPECTED_TOOLS = {
    "get_customer", "search_customers", "get_invoice", "list_invoices", "get_transaction",
    "list_transactions", "list_receivables", "list_payables", "get_profit_and_loss",
    "get_balance_sheet", "get_vat_return", "get_business_attention", "create_invoice_draft", "create_quote_draft",
    "create_transaction", "add_transaction_note",
}
MODES = ("legacy", "2026-07-28")
# The demo's live books, in minor units of EUR (src/console/demo.rs).
RECEIVABLES = 3_571_288  # 14 875,00 + 5 962,88 (10 962,88 less 5 000,00 paid) + 14 875,00
OVERDUE = 2_083_788  # the first two of them
PAYABLE = 357_000  # bill HM-2211 (3 808,00) less the credit HM-G-0042 (238,00)
REVENUE = 3_469_250  # net of the four invoices that stand (the cancelled one is corrected)
EXPENSES = 390_000  # the two bills less the credit, net
BANK = 450_020  # 5 000,00 + 571,20 received, 1 071,00 paid
INPUT_TAX = 74_100
OUTPUT_TAX = 659_158


def rest(base, key, path):
    request = urllib.request.Request(base + path, headers={"Authorization": f"Bearer {key}"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def expect(actual, wanted, what):
    if actual != wanted:
        raise AssertionError(f"{what}: {actual!r}, expected {wanted!r}")


def minor(money):
    expect(money["currency"], "EUR", "currency")
    return money["minor"]


def accounts_of(lines):
    """Every account of a statement's lines: its number on the chart and its amount."""
    return {a["number"]: minor(a["amount"]) for line in lines for a in line["accounts"]}


def next_number(numbers):
    """The number after the highest of `numbers` (V2026-0004 → V2026-0005)."""
    head, _, tail = max(numbers).rpartition("-")
    return f"{head}-{int(tail) + 1:0{len(tail)}d}"


def calls(base, key, mode, earlier):
    """The calls of one mode and their checks; `earlier` are the modes run before,
    whose writes (a transaction, a note) this mode sees."""
    def get(path):
        return rest(base, key, path)

    bau = get("/v1/customers?search=Bau")["data"]
    expect([c["name"] for c in bau], ["Müller Bau GmbH"], "REST: customers named Bau")
    customer = bau[0]["id"]
    open_invoices = get("/v1/invoices?status=OPEN")
    expect(open_invoices["total"], 3, "REST: open invoices")
    alpen = [i for i in open_invoices["data"] if i["buyer"] == "Alpen Tischlerei KG"]
    expect(len(alpen), 1, "REST: open invoices of Alpen Tischlerei KG")
    invoice = alpen[0]["number"]
    overdue = sorted(i["id"] for i in open_invoices["data"] if i["overdue"])
    expect(len(overdue), 2, "REST: overdue invoices")
    outstanding = get("/v1/reports/outstanding")
    transactions = get("/v1/transactions?includeArchived=true&size=100")
    job = [t for t in transactions["data"] if t["title"] == "Dachsanierung Lagerhalle"]
    expect(len(job), 1, "REST: the transaction Dachsanierung Lagerhalle")
    transaction = job[0]["id"]
    notes_before = [f"Notiz ({m})" for m in earlier]
    line = {"description": "Beratung", "quantity": 2.5, "unit_price_minor": 9500, "tax_rate_percent": 19}
    drafted_line = {
        "description": "Beratung", "quantity": "2.5", "unit": "C62", "unitPriceMinor": 9500,
        "taxes": [{"name": "USt", "rate": "19", "reason": None}],
        "vatCategory": None, "exemptionCode": None,
    }
    title = f"Über das SDK ({mode})"
    note = f"Notiz ({mode})"
    seen = {}

    def get_customer(r):
        expect(r, get(f"/v1/customers/{customer}"), "get_customer against REST")
        expect(r["name"], "Müller Bau GmbH", "name")

    def search_customers(r):
        expect((r["total"], [c["id"] for c in r["items"]]), (1, [customer]), "total and ids")
        expect(r["items"][0], get(f"/v1/customers/{customer}"), "the item against REST")

    def get_invoice(r):
        expect(r, get(f"/v1/invoices/{invoice}"), "get_invoice against REST")
        expect(r["buyer"], "Alpen Tischlerei KG", "buyer")
        expect([ln["description"] for ln in r["lines"]], ["Einbauküche Musterhaus", "Montage (Stunden)"], "lines")
        expect((minor(r["gross"]), minor(r["outstanding"])), (1_096_288, 596_288), "gross and outstanding")
        expect(r["paymentState"], "OVERDUE", "paymentState")

    def list_invoices(r):
        expect(r["total"], 3, "total of the open invoices")
        expect(r["items"], open_invoices["data"][:2], "the first page of two against REST")
        expect(r["next_cursor"] is not None, True, "a cursor to the third")

    def get_transaction(r):
        expect({k: v for k, v in r.items() if k != "notes"}, get(f"/v1/transactions/{transaction}"),
               "get_transaction against REST")
        expect(sorted(n["text"] for n in r["notes"]), sorted(notes_before), "the notes of earlier modes")

    def list_transactions(r):
        expect(r["total"], transactions["total"], "total against REST")
        expect([t["id"] for t in r["items"]], [t["id"] for t in transactions["data"]], "ids against REST")
        expect([t["title"] for t in r["items"] if t["archived"]], ["Angebot Fensterbau (abgesagt)"],
               "the archived one is included")
        expect(r["total"], 4 + len(earlier), "the demo's four and one per earlier mode")

    def list_receivables(r):
        s = r["summary"]
        expect((s["count"], minor(s["outstanding"]), minor(s["overdue"])), (3, RECEIVABLES, OVERDUE), "summary")
        expect(s, outstanding["receivables"], "summary against REST")
        expect(sorted(i["id"] for i in r["items"]), sorted(i["id"] for i in open_invoices["data"]),
               "the open invoices of REST")
        expect(sorted(i["partner"] for i in r["items"]),
               ["Alpen Tischlerei KG", "Müller Bau GmbH", "Müller Bau GmbH"], "partners")
        expect(sorted(i["id"] for i in r["items"] if i["overdue"]), overdue, "the overdue ones")

    def list_payables(r):
        expect((r["summary"]["count"], minor(r["summary"]["outstanding"])), (1, PAYABLE), "summary")
        expect(r["summary"], outstanding["payables"], "summary against REST")
        expect([(i["number"], i["partner"], minor(i["outstanding"])) for i in r["items"]],
               [("HM-2211", "Holzhandel Meier KG", PAYABLE)], "the open bill")

    def get_profit_and_loss(r):
        expect(r["from"], "2000-01-01", "from")
        expect((minor(r["revenue"]), minor(r["expenses"]), minor(r["result"])),
               (REVENUE, EXPENSES, REVENUE - EXPENSES), "revenue, expenses, result")
        # By § 275 (2) HGB: the revenue on line 1 (SKR03 8400), the bills on line 8 (4900).
        expect({line["code"]: minor(line["amount"]) for line in r["lines"]}, {"1": REVENUE, "8": EXPENSES},
               "lines")
        expect(accounts_of(r["lines"]), {8400: REVENUE, 4900: EXPENSES}, "accounts by number")
        expect(r["is_final"], False, "is_final (no books are closed)")

    def get_vat_return(r):
        expect((r["period"], r["from"], r["to"]), ("2026-11", "2026-11-01", "2026-11-30"), "the period")
        expect("83" in r["kz"] and isinstance(r["postings"], dict), True, "Kz 83 and the postings behind each Kz")

    # The demo's bills are dated back from today (up to 35 days); the
    # months around them hold all their input tax, in Kz 66, each cent
    # behind it a posting of one of the bills.
    months = sorted({(date.today() - timedelta(days=d)).strftime("%Y-%m") for d in range(0, 62)})
    input_tax = []

    def vat_return_of_a_month(r):
        behind = r["postings"].get("66", [])
        expect(sum(p["amount"] for p in behind), round(Decimal(r["kz"].get("66", "0")) * 100),
               f"Kz 66 of {r['period']} is the sum of its postings")
        expect({p["document"]["kind"] for p in behind} <= {"bill", "supplierCredit"}, True,
               "each input-tax posting names its bill or supplier credit")
        input_tax.append(Decimal(r["kz"].get("66", "0")))
        if len(input_tax) == len(months):
            expect(round(sum(input_tax) * 100), INPUT_TAX, "the input tax of the months around the bills")

    def get_balance_sheet(r):
        expect(r["balanced"], True, "balanced")
        # By § 266 HGB: the input tax netted with the output tax owed, one debt under C.
        expect(accounts_of(r["assets"]), {1400: RECEIVABLES, 1200: BANK}, "assets")
        expect(accounts_of(r["equity_and_liabilities"]),
               {1600: PAYABLE, 1776: OUTPUT_TAX, 1576: -INPUT_TAX}, "equity and liabilities")
        expect((minor(r["equity"]), minor(r["result"])), (REVENUE - EXPENSES, REVENUE - EXPENSES),
               "equity and result")
        expect(minor(r["total_assets"]), RECEIVABLES + BANK, "total assets")
        expect(minor(r["total_equity_and_liabilities"]),
               PAYABLE + OUTPUT_TAX - INPUT_TAX + REVENUE - EXPENSES, "total equity and liabilities")
        expect(minor(r["total_assets"]), minor(r["total_equity_and_liabilities"]), "the sides agree")

    def get_business_attention(r):
        kinds = {}
        for item in r["items"]:
            kinds.setdefault(item["kind"], []).append(item["id"])
        bills = [i for i in r["items"] if i["kind"] == "bill_due"]
        expect([(i["sentence"].split(" is due on ")[0], minor(i["amount"])) for i in bills],
               [("Bill HM-2211 of Holzhandel Meier KG", PAYABLE)], "the bill due within a week")
        # Transactions past their due date and not done: the demo's due dates are fixed days.
        late = sorted(t["id"] for t in transactions["data"]
                      if not t["archived"] and t["dueOn"] and t["dueOn"] < r["as_of"] and t["stage"] != "ERLEDIGT")
        wanted = {"overdue_invoice": overdue, "bill_due": [bills[0]["id"]]}
        if late:
            wanted["late_transaction"] = late
        expect({k: sorted(v) for k, v in kinds.items()}, wanted, "items by kind")
        expect(r["count"], len(r["items"]), "count")

    def create_invoice_draft(r):
        expect((r["state"], r["documentType"], r["customerId"]), ("DRAFT", "INVOICE", customer), "the draft")
        expect(r["lines"], [drafted_line], "its line")
        seen["draft"] = r["id"]

    def replayed_invoice_draft(r):
        expect(r["id"], seen["draft"], "the same idempotency_key returns the same draft")

    def create_quote_draft(r):
        expect((r["state"], r["documentType"], r["customerId"]), ("DRAFT", "QUOTE", customer), "the quote")
        expect(r["lines"], [drafted_line], "its line")
        expect(r["id"] != seen["draft"], True, "a new draft")

    def create_transaction(r):
        expect((r["title"], r["stage"], r["archived"]), (title, "NEU", False), "the transaction")
        expect(r["number"], next_number([t["number"] for t in transactions["data"]]), "the next number")
        expect(r, get(f"/v1/transactions/{r['id']}"), "REST shows it")

    def add_transaction_note(r):
        expect((r["note"]["text"], r["note"]["author"]), (note, "demo live key"), "the note")
        expect(r["transaction"]["id"], transaction, "its transaction")
        expect(sorted(n["text"] for n in r["transaction"]["notes"]), sorted(notes_before + [note]),
               "the transaction's notes")

    draft_arguments = {"customer_id": customer, "lines": [line], "idempotency_key": f"sdk-{mode}"}
    return [
        ("get_customer", {"customer_id": customer}, get_customer),
        ("search_customers", {"query": "Bau"}, search_customers),
        ("get_invoice", {"number": invoice}, get_invoice),
        ("list_invoices", {"status": "OPEN", "limit": 2}, list_invoices),
        ("get_transaction", {"transaction_id": transaction}, get_transaction),
        ("list_transactions", {"include_archived": True, "limit": 100}, list_transactions),
        ("list_receivables", {}, list_receivables),
        ("list_payables", {}, list_payables),
        ("get_profit_and_loss", {"from": "2000-01-01"}, get_profit_and_loss),
        ("get_balance_sheet", {}, get_balance_sheet),
        ("get_vat_return", {"period": "2026-11"}, get_vat_return),
        *[("get_vat_return", {"period": month}, vat_return_of_a_month) for month in months],
        ("get_business_attention", {}, get_business_attention),
        ("create_invoice_draft", draft_arguments, create_invoice_draft),
        ("create_invoice_draft", draft_arguments, replayed_invoice_draft),
        ("create_quote_draft", {"customer_id": customer, "lines": [line]}, create_quote_draft),
        ("create_transaction", {"title": title}, create_transaction),
        ("add_transaction_note", {"transaction_id": transaction, "text": note}, add_transaction_note),
    ]


async def check(base, key, mode, earlier):
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
            for name, arguments, verify in calls(base, key, mode, earlier):
                result = await client.call_tool(name, arguments)
                structured = result.structured_content
                try:
                    expect(result.is_error, False, "is_error")
                    expect(structured is not None, True, "structured content")
                    # The text block carries the same JSON.
                    expect(json.loads(result.content[0].text), structured, "the text block")
                    verify(structured)
                    passed += 1
                except (AssertionError, KeyError, IndexError, TypeError) as problem:
                    failed += 1
                    print(f"[{mode}] {name}: {type(problem).__name__}: {problem}\n    {result}")
            missing = await client.call_tool("get_customer", {"customer_id": "cus_doesnotexist0000000"})
            if missing.is_error and (missing.structured_content or {}).get("code") == "NICHT_GEFUNDEN":
                passed += 1
            else:
                failed += 1
                print(f"[{mode}] not found: {missing}")
    return passed, failed


def main():
    base, key = sys.argv[1], sys.argv[2]
    passed = failed = 0
    for n, mode in enumerate(MODES):
        p, f = asyncio.run(check(base, key, mode, MODES[:n]))
        print(f"mcp sdk, mode={mode}: {p} passed, {f} failed")
        passed, failed = passed + p, failed + f
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
