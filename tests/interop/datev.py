"""An outside reader of DATEV EXTF files reads kontor's export back.

The reader is mloda-community-german-ledger's `read_batch` (PyPI, pinned in
datev.sh): a strict reader of EXTF 700 `Buchungsstapel` files written by
others, which refuses a wrong delimiter, a dot in an amount, a negative
amount, an account longer than the G/L length allows, a Belegdatum outside
the batch period and more fields than named columns. Every booking row
becomes two legs (Konto and Gegenkonto), each signed from its own
account's side.

    python datev.py EXPORT.zip SUMMARY.json

SUMMARY.json is what `kontor export datev` printed: the chart, the
adviser's and client's numbers, whether the batch is final, and the
ledger's total per chart account (`accounts`: number -> debit minus credit
in cents), worked out from the journal lines on their own, not from the
bookings. The legs the reader returns must add up to exactly those totals,
and the header must say what the summary says. Prints one line per check;
exits non-zero on the first disagreement.
"""

import json
import sys
import tempfile
import zipfile
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

from mloda.community.feature_groups.experimental.german_ledger.datev import read_batch


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def main(zip_path, summary_path):
    summary = json.loads(Path(summary_path).read_text())
    with tempfile.TemporaryDirectory() as folder, zipfile.ZipFile(zip_path) as archive:
        names = [n for n in archive.namelist() if n.startswith("EXTF_Buchungsstapel_")]
        if not names:
            fail(f"no EXTF_Buchungsstapel_*.csv in {archive.namelist()}")
        if not any(n.startswith("EXTF_Debitoren_Kreditoren_") for n in archive.namelist()):
            fail("no EXTF_Debitoren_Kreditoren_*.csv in the ZIP")
        totals = defaultdict(Decimal)
        rows = 0
        for name in names:
            path = Path(folder) / Path(name).name
            path.write_bytes(archive.read(name))
            header, legs = read_batch(str(path))
            if (header.version, header.category, header.format_version) != (700, 21, 13):
                fail(f"{name}: header says {header.version}/{header.category}/{header.format_version}")
            if header.sachkontenlaenge != 4:
                fail(f"{name}: Sachkontenlänge {header.sachkontenlaenge}")
            if header.skr != summary["chart"].replace("skr", ""):
                fail(f"{name}: SKR {header.skr!r}, the company's chart is {summary['chart']}")
            if (header.berater, header.mandant) != (str(summary["adviser"]), str(summary["client"])):
                fail(f"{name}: adviser/client {header.berater}/{header.mandant}")
            if header.festschreibung != summary["final"]:
                fail(f"{name}: Festschreibung {header.festschreibung}, final is {summary['final']}")
            for account, amount in zip(legs["Konto"], legs["Betrag"]):
                totals[account] += amount
            rows += len(legs["Konto"]) // 2
            print(f"ok: {name}: {len(legs['Konto']) // 2} bookings read, header as exported")
        if rows != summary["bookings"]:
            fail(f"the reader found {rows} bookings, kontor wrote {summary['bookings']}")
        expected = {str(k): Decimal(v) / 100 for k, v in summary["accounts"].items() if v != 0}
        got = {k: v for k, v in totals.items() if v != 0}
        if got != expected:
            keys = sorted(set(got) | set(expected))
            diff = [(k, got.get(k), expected.get(k)) for k in keys if got.get(k) != expected.get(k)]
            fail(f"per account the legs differ from the ledger: {diff}")
        print(f"ok: {len(got)} accounts sum to the ledger's totals on the {summary['chart']} chart")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
