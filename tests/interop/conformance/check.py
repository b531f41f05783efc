"""Compares a run of the MCP conformance suite with the committed baseline.

Usage: check.py BASELINE RESULTS [SUITE_VERSION]

RESULTS holds, for each run named in the baseline (a protocol revision, or
`extension`), the scenarios the suite lists for it (`RUN.list`, the output
of `conformance list --server [--spec-version RUN]`) and its results
(`RUN/server-SCENARIO-TIMESTAMP/checks.json`), and `all.list`, every server
scenario. A baseline entry is one of

    "passes"                          no check of the scenario fails
    {"passes": NOTE}                  the same, with a note
    {"passes": NOTE, "except": {CHECK: REASON, ...}}
                                      no check but these fails
    "not applicable: REASON"          run and shown, never judged

Exits 1 when the baseline was written for another suite version, when a scenario listed as passing fails or did not run, when the
suite lists a scenario the baseline does not (or runs it at no revision
kontor serves), or when the baseline lists one the suite no longer has.
"""

import json
import os
import re
import sys

STAMP = re.compile(r"-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$")
LISTED = re.compile(r"^\s*- (\S+)(?: \[([^\]]*)\])?")


def listed(path: str) -> dict:
    """Scenario name -> its tags, from the output of `conformance list`."""
    scenarios = {}
    with open(path) as f:
        for line in f:
            m = LISTED.match(line)
            if m:
                scenarios[m.group(1)] = (m.group(2) or "").split(",")
    return scenarios


def results(directory: str) -> dict:
    """Scenario name -> its checks."""
    found = {}
    if not os.path.isdir(directory):
        return found
    for entry in sorted(os.listdir(directory)):
        checks = os.path.join(directory, entry, "checks.json")
        if entry.startswith("server-") and os.path.isfile(checks):
            with open(checks) as f:
                found[STAMP.sub("", entry[len("server-"):])] = json.load(f)
    return found


def main() -> int:
    baseline_path, root = sys.argv[1], sys.argv[2]
    with open(baseline_path) as f:
        document = json.load(f)
    baseline = document["runs"]
    every = listed(os.path.join(root, "all.list"))
    problems = []
    if len(sys.argv) > 3:
        suite = f"@modelcontextprotocol/conformance {sys.argv[3]}"
        if document.get("suite") != suite:
            problems.append(f"the baseline is for {document.get('suite')}, the suite run is {suite}")
    covered = set()
    counts = {"passes": 0, "not applicable": 0, "failed": 0}
    for run, entries in baseline.items():
        suite = listed(os.path.join(root, f"{run}.list"))
        covered.update(suite)
        ran = results(os.path.join(root, run))
        print(f"{run}:")
        for name in suite:
            if name not in entries:
                problems.append(f"{run}: the suite has {name}, the baseline does not list it")
                print(f"  NEW   {name}")
        for name in entries:
            if name not in suite:
                problems.append(f"{run}: the baseline lists {name}, the suite does not have it")
                continue
            entry = entries[name]
            checks = ran.get(name)
            failing = [c for c in checks or [] if c.get("status") == "FAILURE"]
            warned = [c for c in checks or [] if c.get("status") == "WARNING"]
            if isinstance(entry, str) and entry.startswith("not applicable"):
                counts["not applicable"] += 1
                state = "did not run" if checks is None else f"{len(failing)} failing checks"
                print(f"  n/a   {name} ({state})")
                if checks is not None and not failing:
                    print(f"        note: no check fails now; the baseline may list it as passing")
                continue
            if entry == "passes":
                excepted = {}
            elif isinstance(entry, dict) and "passes" in entry:
                excepted = entry.get("except", {})
            else:
                problems.append(f"{run}: {name}: unreadable baseline entry {entry!r}")
                continue
            if checks is None:
                counts["failed"] += 1
                problems.append(f"{run}: {name} is listed as passing but did not run")
                print(f"  FAIL  {name}: did not run")
                continue
            unexpected = [c for c in failing if c.get("id") not in excepted]
            if unexpected:
                counts["failed"] += 1
                print(f"  FAIL  {name}")
                for c in unexpected:
                    message = (c.get("errorMessage") or c.get("description") or "").strip()
                    print(f"        {c.get('id')}: {message[:600]}")
                    problems.append(f"{run}: {name}: {c.get('id')} fails")
                continue
            counts["passes"] += 1
            extra = f" (except {len(excepted)} not applicable checks)" if excepted else ""
            print(f"  pass  {name}{extra}")
            failing_ids = {c.get("id") for c in failing}
            for check in excepted:
                if check not in failing_ids:
                    print(f"        note: {check} no longer fails")
            for c in warned:
                message = (c.get("errorMessage") or c.get("description") or "").strip()
                print(f"        warning {c.get('id')}: {message[:300]}")
    for name, tags in every.items():
        if name not in covered:
            problems.append(
                f"the suite has {name} [{','.join(tags)}], run at no revision kontor serves:"
                " add a run or list it in the baseline"
            )
    print(
        f"scenario runs: {counts['passes']} pass, {counts['not applicable']} not applicable,"
        f" {counts['failed']} failed ({len(every)} server scenarios in the suite)"
    )
    if problems:
        print("conformance: differs from the baseline:", file=sys.stderr)
        for p in problems:
            print(f"  {p}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
