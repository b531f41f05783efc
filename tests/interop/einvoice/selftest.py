"""Proof that validate.py accepts valid documents and names the broken rules.

1. The hand-made samples in samples/ pass with no fatal finding.
2. The example documents shipped inside the artefact packages (Peppol BIS
   examples, the KoSIT XRechnung test suite's standard business cases, the
   FeRD EN 16931 examples) are validated too, as a check of the harness on
   documents others made; their findings are printed, not asserted, except
   that the Peppol examples and the KoSIT cases must pass.
3. Copies of the samples, each broken in one way, must be refused with the
   rule ids listed in BROKEN.

Prints 'N passed, N failed' and exits non-zero on any failure.

    python selftest.py
"""

from __future__ import annotations

import copy
import sys
import tempfile
import time
from pathlib import Path

from lxml import etree

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import artefacts  # noqa: E402
import validate  # noqa: E402

SAMPLES = HERE / "samples"
RAM = "{urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100}"
CBC = "{urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2}"
CAC = "{urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2}"


def _remove(tree, tag):
    el = next(tree.iter(tag))
    el.getparent().remove(el)


def _set(tree, tag, value, nth=0):
    els = list(tree.iter(tag))
    els[nth].text = value


def _cii_second_rate(tree):
    """Line 2 at 7 % while the breakdown still says 19 % only."""
    rates = list(tree.iter(f"{RAM}RateApplicablePercent"))
    rates[1].text = "7"


def _cii_line_two_taxes(tree):
    """Line 1 carries a second VAT (two rates on one line)."""
    line_tax = next(tree.iter(f"{RAM}SpecifiedLineTradeSettlement")).find(f"{RAM}ApplicableTradeTax")
    second = copy.deepcopy(line_tax)
    second.find(f"{RAM}RateApplicablePercent").text = "7"
    line_tax.addnext(second)


def _ubl_unknown_element(tree):
    root = tree.getroot()
    root.insert(0, etree.Element(f"{CBC}NotAnElement"))


# (sample, description, mutation, rule ids that must be reported as fatal,
#  [rule ids that must be reported as warnings])
BROKEN = [
    ("xrechnung-cii-19.xml", "buyer reference removed",
     lambda t: _remove(t, f"{RAM}BuyerReference"), {"BR-DE-15"}),
    ("xrechnung-cii-19.xml", "seller contact telephone removed",
     lambda t: _remove(t, f"{RAM}TelephoneUniversalCommunication"), {"BR-DE-6"}),
    ("xrechnung-cii-19.xml", "seller e-mail contact removed",
     lambda t: _remove(t, f"{RAM}EmailURIUniversalCommunication"), {"BR-DE-7"}),
    ("xrechnung-cii-19.xml", "payment means removed",
     lambda t: _remove(t, f"{RAM}SpecifiedTradeSettlementPaymentMeans"), {"BR-DE-1"}),
    ("xrechnung-cii-19.xml", "seller electronic address removed",
     lambda t: _remove(t, f"{RAM}URIUniversalCommunication"), {"PEPPOL-EN16931-R020"}),
    ("cii-en16931-19.xml", "sum of line net amounts wrong",
     lambda t: _set(t, f"{RAM}LineTotalAmount", "1330.00", nth=2), {"BR-CO-10"}),
    ("cii-en16931-19.xml", "grand total wrong",
     lambda t: _set(t, f"{RAM}GrandTotalAmount", "1570.00"), {"BR-CO-15"}),
    ("cii-en16931-19.xml", "a 7 % line without its breakdown",
     _cii_second_rate, {"BR-S-08"}),
    # The CII XSD and the EN 16931 rules let a line carry two VATs; the CEN
    # CII rules only warn (CII-SR-454), so whoever writes CII must refuse it.
    ("cii-en16931-19.xml", "two VAT rates on one line",
     _cii_line_two_taxes, set(), {"CII-SR-454"}),
    ("cii-en16931-19.xml", "seller VAT id removed",
     lambda t: _remove(t, f"{RAM}SpecifiedTaxRegistration"), {"BR-S-02"}),
    ("peppol-ubl-19.xml", "ProfileID removed",
     lambda t: _remove(t, f"{CBC}ProfileID"), {"PEPPOL-EN16931-R001"}),
    ("peppol-ubl-19.xml", "seller endpoint removed",
     lambda t: _remove(t, f"{CBC}EndpointID"), {"PEPPOL-EN16931-R020"}),
    ("peppol-ubl-19.xml", "payable amount wrong",
     lambda t: _set(t, f"{CBC}PayableAmount", "1570.00"), {"BR-CO-16"}),
    ("peppol-ubl-19.xml", "element outside UBL 2.1",
     _ubl_unknown_element, {"XSD"}),
]


def main() -> int:
    artefacts.ensure()
    v = validate.Validator()
    passed = failed = 0
    started = time.monotonic()

    def check(ok: bool, label: str, res: validate.Result) -> None:
        nonlocal passed, failed
        fatal = sorted({f.id for f in res.fatal})
        warn = sorted({f.id for f in res.warnings})
        print(f"{'PASS' if ok else 'FAIL'} {label}: fatal={fatal} warnings={warn}")
        if ok:
            passed += 1
        else:
            failed += 1
            for f in res.fatal:
                print(f"       {f.id} {f.ruleset}: {f.text[:200]}")

    print("-- samples")
    for f in sorted(SAMPLES.iterdir()):
        if f.suffix in (".xml", ".pdf"):
            res = v.run(f, None)
            check(not res.fatal, f"{f.name} [{res.kind}] valid", res)

    print("-- examples shipped in the artefact packages")
    rules = artefacts.RULES
    must_pass = sorted((rules / "examples/peppol-bis").glob("*.xml")) + sorted(
        (rules / "kosit/testsuite/test/business-cases/standard").glob("*.xml")
    )
    for f in must_pass:
        res = v.run(f, None)
        check(not res.fatal, f"{f.relative_to(rules)} [{res.kind}] valid", res)
    for f in sorted((rules / "examples/ferd-en16931").glob("*.xml")):
        res = v.run(f, None)
        print(f"INFO {f.relative_to(rules)} [{res.kind}]: fatal={sorted({x.id for x in res.fatal})} "
              f"warnings={sorted({x.id for x in res.warnings})}")

    print("-- broken copies")
    with tempfile.TemporaryDirectory() as tmp:
        for n, (sample, what, mutate, expected, *warned) in enumerate(BROKEN, 1):
            tree = etree.parse(str(SAMPLES / sample))
            mutate(tree)
            out = Path(tmp) / f"{n:02d}-{sample}"
            tree.write(str(out), xml_declaration=True, encoding="UTF-8")
            res = v.run(out, None)
            got = {f.id for f in res.fatal}
            got_warn = {f.id for f in res.warnings}
            want_warn = warned[0] if warned else set()
            label = f"{sample}: {what} -> expects {sorted(expected)}"
            if want_warn:
                label += f" and warning {sorted(want_warn)}"
            check(expected <= got and want_warn <= got_warn and (expected or not got), label, res)

        pdf = SAMPLES / "facturx-en16931-19.pdf"
        if pdf.exists():
            import pikepdf

            # The XMP without the Factur-X properties.
            broken = Path(tmp) / "facturx-no-fx-xmp.pdf"
            with pikepdf.open(pdf) as doc:
                with doc.open_metadata(set_pikepdf_as_editor=False) as meta:
                    for key in list(meta.keys()):
                        if "factur-x" in key:
                            del meta[key]
                doc.save(broken)
            res = v.run(broken, None)
            check("PDF-XMP-FX" in {f.id for f in res.fatal}, "facturx PDF without fx: XMP -> PDF-XMP-FX", res)
            # A CII file beside the PDF that is not the embedded one.
            other = Path(tmp) / "facturx-mismatch.pdf"
            other.write_bytes(pdf.read_bytes())
            other.with_suffix(".xml").write_bytes(
                (SAMPLES / "cii-en16931-19.xml").read_bytes().replace(b"1570.80", b"1570.81")
            )
            res = v.run(other, None)
            check("PDF-FX-EQUAL" in {f.id for f in res.fatal}, "facturx PDF beside a different CII -> PDF-FX-EQUAL", res)

    print(f"selftest: {time.monotonic() - started:.1f}s")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
