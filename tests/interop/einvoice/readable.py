"""The Factur-X PDFs as a person and a banking app read them.

For every `<stem>.pdf` with its `<stem>.cii.xml` beside it (the CII the PDF
embeds, validated separately): `pdftotext` of the PDF shows the invoice
number, the amount due as the seller's language writes it, and the IBAN
grouped by four; for a EUR invoice (type 380) with an IBAN and an amount due
above 0, the pages rendered at 300 dpi hold an EPC QR code that `zbarimg`
decodes to BCD/002/1/SCT, the BIC, the IBAN, EUR and the amount, and the
remittance: the ISO 11649 creditor reference the CII names as BT-83
(`RF…`, structured, also shown grouped by four in the text), else the
number (unstructured). The code stands on the last page. Exit 1 on any
mismatch.

    python3 tests/interop/einvoice/readable.py DIR
"""
import pathlib
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

NS = {
    "rsm": "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
    "ram": "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
}


def text(root, path):
    node = root.find(path, NS)
    return None if node is None else node.text


def written(amount: str, german: bool) -> str:
    """A decimal as the PDF writes it: grouped by three, the seller's marks."""
    whole, _, fraction = amount.partition(".")
    groups = []
    while len(whole) > 3:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    groups.insert(0, whole)
    sep, mark = (".", ",") if german else (",", ".")
    return sep.join(groups) + (mark + fraction if fraction else "")


def main(folder: str) -> int:
    failures = 0
    checked = 0
    for pdf in sorted(pathlib.Path(folder).glob("*.pdf")):
        cii = pdf.with_suffix(".cii.xml")
        if not cii.exists():
            continue
        root = ET.parse(cii).getroot()
        number = text(root, "rsm:ExchangedDocument/ram:ID")
        kind = text(root, "rsm:ExchangedDocument/ram:TypeCode")
        settlement = "rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/"
        currency = text(root, settlement + "ram:InvoiceCurrencyCode")
        due = text(root, settlement + "ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:DuePayableAmount")
        iban = text(root, settlement + "ram:SpecifiedTradeSettlementPaymentMeans/ram:PayeePartyCreditorFinancialAccount/ram:IBANID")
        bic = text(root, settlement + "ram:SpecifiedTradeSettlementPaymentMeans/ram:PayeeSpecifiedCreditorFinancialInstitution/ram:BICID")
        reference = text(root, settlement + "ram:PaymentReference")
        creditor_reference = reference if reference and reference.startswith("RF") else None
        country = text(root, "rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:PostalTradeAddress/ram:CountryID")
        german = country in ("DE", "AT", "CH", "LI")
        page = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
        problems = []
        if number not in page:
            problems.append(f"number {number} not in the text")
        if written(due, german) not in page:
            problems.append(f"amount due {written(due, german)} not in the text")
        if iban:
            grouped = " ".join(iban[i:i + 4] for i in range(0, len(iban), 4))
            if grouped not in page:
                problems.append(f"IBAN {grouped} not in the text")
        if creditor_reference:
            grouped = " ".join(creditor_reference[i:i + 4] for i in range(0, len(creditor_reference), 4))
            if grouped not in page:
                problems.append(f"creditor reference {grouped} not in the text")
        qr = ""
        if kind == "380" and currency == "EUR" and iban and due and float(due) > 0:
            with tempfile.TemporaryDirectory() as tmp:
                # The code stands below the totals: on the last page.
                subprocess.run(["pdftoppm", "-r", "300", "-png", str(pdf), f"{tmp}/page"], check=True)
                images = sorted(str(p) for p in pathlib.Path(tmp).glob("page*.png"))
                qr = subprocess.run(["zbarimg", "--quiet", "--raw", *images], capture_output=True, text=True).stdout
            fields = qr.rstrip("\n").split("\n")
            expected = ["BCD", "002", "1", "SCT", bic or "", None, iban, f"EUR{due}", ""]
            # Structured remittance (a creditor reference) or unstructured (the number).
            expected += [creditor_reference] if creditor_reference else ["", number]
            if len(fields) < len(expected) or any(e is not None and f != e for f, e in zip(fields, expected)):
                problems.append(f"QR code decodes to {fields!r}, expected {expected!r}")
            qr = " + QR"
        checked += 1
        if problems:
            failures += 1
            print(f"FAIL {pdf.name}: " + "; ".join(problems))
        else:
            print(f"ok   {pdf.name}: {number}, due {written(due, german)}{', IBAN' if iban else ''}{qr}")
    print(f"{checked} PDFs read, {failures} with mismatches")
    return 1 if failures or not checked else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
