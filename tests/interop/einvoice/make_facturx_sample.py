"""Make samples/facturx-en16931-19.pdf, the Factur-X sample of the harness.

A one-page PDF drawn with pikepdf in DejaVu Sans (embedded, from Debian's
fonts-dejavu-core), with an sRGB OutputIntent (the ICC profile pikepdf
ships), turned into Factur-X EN 16931 by the ``factur-x`` package
(``generate_from_binary``: XMP with pdfaid part 3 and the fx: extension
schema, factur-x.xml embedded with AFRelationship Alternative) from
samples/cii-en16931-19.xml. It only proves that validate.py accepts a
well-formed Factur-X PDF; it is not what kontor writes.

    python make_facturx_sample.py
"""

from __future__ import annotations

import io
from pathlib import Path

import pikepdf
from facturx import generate_from_binary
from fontTools.ttLib import TTFont

HERE = Path(__file__).resolve().parent
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
LINES = [
    (18, "Nordlicht Software GmbH"),
    (11, "Mönckebergstraße 7, 20095 Hamburg"),
    (11, ""),
    (11, "Hafenkontor Müller KG, Am Markt 1, 28195 Bremen"),
    (11, ""),
    (16, "Rechnung RE-2026-00042"),
    (11, "Rechnungsdatum 20.11.2026, Leistungsdatum 15.11.2026"),
    (11, "1  Beratung            10 h     x 120,00 EUR   1.200,00 EUR"),
    (11, "2  Kabel, Meterware    2,500 m  x  48,00 EUR     120,00 EUR"),
    (11, "Summe netto 1.320,00 EUR, USt 19 % 250,80 EUR"),
    (13, "Gesamtbetrag 1.570,80 EUR"),
    (11, "Zahlbar bis 04.12.2026 auf IBAN DE02 1203 0000 0000 2020 51, BIC BYLADEM1001"),
    (9, "Geschäftsführer: Jana Beispiel, HRB 12345, Amtsgericht Hamburg, USt-IdNr. DE123456789"),
]


def base_pdf() -> bytes:
    pdf = pikepdf.new()
    tt = TTFont(FONT)
    scale = 1000 / tt["head"].unitsPerEm
    cmap = tt.getBestCmap()
    hmtx = tt["hmtx"]
    widths = []
    for code in range(32, 256):
        ch = bytes([code]).decode("cp1252", errors="replace")
        glyph = cmap.get(ord(ch), ".notdef")
        widths.append(round(hmtx[glyph][0] * scale))
    data = FONT.read_bytes()
    fontfile = pikepdf.Stream(pdf, data)
    fontfile.Length1 = len(data)
    head, os2 = tt["head"], tt["OS/2"]
    descriptor = pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.FontDescriptor,
        FontName=pikepdf.Name("/DejaVuSans"),
        Flags=32,
        FontBBox=[round(v * scale) for v in (head.xMin, head.yMin, head.xMax, head.yMax)],
        ItalicAngle=0,
        Ascent=round(os2.sTypoAscender * scale),
        Descent=round(os2.sTypoDescender * scale),
        CapHeight=round(getattr(os2, "sCapHeight", 729) * scale),
        StemV=80,
        FontFile2=pdf.make_indirect(fontfile),
    ))
    font = pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Font,
        Subtype=pikepdf.Name.TrueType,
        BaseFont=pikepdf.Name("/DejaVuSans"),
        FirstChar=32,
        LastChar=255,
        Widths=widths,
        Encoding=pikepdf.Name.WinAnsiEncoding,
        FontDescriptor=descriptor,
    ))
    ops = [b"BT"]
    y = 790
    for size, text in LINES:
        esc = text.encode("cp1252").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
        ops.append(b"/F1 %d Tf 1 0 0 1 56 %d Tm (%s) Tj" % (size, y, esc))
        y -= size + 10
    ops.append(b"ET")
    page = pikepdf.Dictionary(
        Type=pikepdf.Name.Page,
        MediaBox=[0, 0, 595, 842],
        Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font)),
        Contents=pdf.make_stream(b"\n".join(ops)),
    )
    pdf.pages.append(pikepdf.Page(page))
    icc_path = Path(pikepdf.__file__).parent / "pdfa" / "data" / "sRGB.icc"
    icc = pikepdf.Stream(pdf, icc_path.read_bytes())
    icc.N = 3
    pdf.Root.OutputIntents = [pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.OutputIntent,
        S=pikepdf.Name.GTS_PDFA1,
        OutputConditionIdentifier="sRGB IEC61966-2.1",
        Info="sRGB IEC61966-2.1",
        DestOutputProfile=pdf.make_indirect(icc),
    ))]
    buf = io.BytesIO()
    pdf.save(buf, static_id=True)
    return buf.getvalue()


def tidy(pdf_bytes: bytes) -> bytes:
    """Repair two things factur-x 7.8 writes that PDF/A-3 forbids.

    Its XMP has rdf:Description elements without rdf:about (ISO 19005-3
    6.6.2.1), and it sets the catalog's /PageMode to /UseAttachments, a
    value PDF/A does not allow.
    """
    from lxml import etree

    rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    with pikepdf.open(io.BytesIO(pdf_bytes)) as pdf:
        xmp = etree.fromstring(pdf.Root.Metadata.read_bytes())
        for desc in xmp.iter(f"{{{rdf}}}Description"):
            if desc.getparent().tag == f"{{{rdf}}}RDF" and desc.get(f"{{{rdf}}}about") is None:
                desc.set(f"{{{rdf}}}about", "")
        data = b'<?xpacket begin="\xef\xbb\xbf" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
        data += etree.tostring(xmp, encoding="UTF-8") + b'\n<?xpacket end="w"?>'
        meta = pikepdf.Stream(pdf, data)
        meta.Type = pikepdf.Name.Metadata
        meta.Subtype = pikepdf.Name.XML
        pdf.Root.Metadata = pdf.make_indirect(meta)
        if "/PageMode" in pdf.Root:
            del pdf.Root.PageMode
        buf = io.BytesIO()
        pdf.save(buf, static_id=True)
        return buf.getvalue()


def main() -> None:
    xml = (HERE / "samples" / "cii-en16931-19.xml").read_bytes()
    out = generate_from_binary(
        base_pdf(),
        xml,
        flavor="factur-x",
        level="en16931",
        check_xsd=True,
        afrelationship="alternative",
        lang="de-DE",
        pdf_metadata={
            "author": "Nordlicht Software GmbH",
            "keywords": "Factur-X, Rechnung",
            "title": "Rechnung RE-2026-00042",
            "subject": "Rechnung RE-2026-00042",
        },
    )
    target = HERE / "samples" / "facturx-en16931-19.pdf"
    target.write_bytes(tidy(out))
    print(f"wrote {target} ({len(out)} bytes)")


if __name__ == "__main__":
    main()
