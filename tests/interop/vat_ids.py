"""kontor's VAT id verdicts against python-stdnum's, state by state.

For each state (the 27 EU member states with Greece as EL, XI, CH, GB and
NO) this generates ids that python-stdnum accepts, in every form it
accepts (see VARIANTS), each with its check digits found by trying every
value until stdnum's own validation accepts one. Then, per state:

- the valid ids, as a person might type them (separators the state's
  numbers are written with, lower case, spaces around);
- as many one-digit mutations (one digit of a valid id changed to another);
- as many separator probes (one separator or bracket put somewhere after
  the prefix, which stdnum removes for some states and not for others);
- as many edits (one character after the prefix removed, added or
  replaced by any character) and as many random strings after the prefix;

all go through `kontor vat-id check` in one run, and each verdict and each
compact form must equal stdnum's (`stdnum.eu.vat` for EU and XI ids,
`stdnum.ch.vat`, `stdnum.gb.vat`, `stdnum.no.mva`). Prints counts per state
and the elapsed time; exits 1 on any disagreement.

    python tests/interop/vat_ids.py KONTOR [--per-state N] [--seed S]
"""

import argparse
import datetime
import random
import subprocess
import sys
import time

import stdnum
from stdnum import luhn
from stdnum.bg import egn, pnf
from stdnum.ch import vat as ch_vat
from stdnum.eu import vat as eu_vat
from stdnum.gb import vat as gb_vat
from stdnum.nl import bsn
from stdnum.no import mva as no_vat
from stdnum.util import clean

DIGITS = "0123456789"


def digits(n):
    return "".join(random.choice(DIGITS) for _ in range(n))


def nonzero_digits(n):
    return random.choice("123456789") + digits(n - 1)


def two_digits():
    return ["%02d" % i for i in range(100)]


def oracle(prefix, text):
    """stdnum's verdict and compact form for an id of the state `prefix`.

    The compact form is the prefix and the state module's `compact` (RO's
    keeps its prefix itself). `eu.vat.compact` adds the prefix only when
    the rest does not already start with it, so for an id whose number
    repeats the prefix (FRFR123456789, key "FR") it drops one and names
    another number; kontor keeps both, as the state module reads them.
    """
    try:
        if prefix == "CH":
            return ch_vat.is_valid(text), ch_vat.compact(text)
        if prefix == "GB":
            return gb_vat.is_valid(text), "GB" + gb_vat.compact(text)
        if prefix == "NO":
            return no_vat.is_valid(text), "NO" + no_vat.compact(text)
        module = eu_vat._get_cc_module(prefix)
        compact = clean(text, "").upper().strip()
        compact = module.compact(compact)
        if prefix != "RO":
            compact = prefix + compact
        return eu_vat.is_valid(text), compact
    except Exception as e:  # stdnum raising anything but ValidationError
        return False, "stdnum raised %s" % type(e).__name__


def accepted(prefix, text, also=None):
    return oracle(prefix, text)[0] and (also is None or also(text))


def complete(prefix, make, choices, also=None):
    """An id `make(check)` stdnum accepts, trying the choices in random
    order; None when no choice makes one."""
    choices = list(choices)
    random.shuffle(choices)
    for check in choices:
        text = make(check)
        if accepted(prefix, text, also):
            return text
    return None


def birth_date(first_year, last_year):
    while True:
        year = random.randint(first_year, last_year)
        month = random.randint(1, 12)
        day = random.randint(1, 31)
        try:
            datetime.date(year, month, day)
            return year, month, day
        except ValueError:
            continue


# --- The forms of each state, as functions giving a candidate or None -------


def at_uid():
    return complete("AT", lambda c: "ATU" + digits(7) + c, DIGITS)


def be_ten():
    body = random.choice("01") + digits(7)
    return complete("BE", lambda c: "BE" + body + c, two_digits())


def be_old_nine():
    body = nonzero_digits(8)
    return complete("BE", lambda c: "BE" + body + c, two_digits())


def be_bracketed():
    body = digits(7)
    return complete("BE", lambda c: "BE(0)" + body + c, two_digits())


def bg_legal():
    body = digits(8)
    return complete("BG", lambda c: "BG" + body + c, DIGITS)


def bg_egn():
    year, month, day = birth_date(1800, 2099)
    if year < 1900:
        month += 20
    elif year >= 2000:
        month += 40
    body = "%02d%02d%02d" % (year % 100, month, day) + digits(3)
    return complete("BG", lambda c: "BG" + body + c, DIGITS, lambda t: egn.is_valid(t[2:]))


def bg_pnf():
    body = digits(9)
    return complete("BG", lambda c: "BG" + body + c, DIGITS, lambda t: pnf.is_valid(t[2:]))


def bg_other():
    body = digits(9)
    return complete(
        "BG",
        lambda c: "BG" + body + c,
        DIGITS,
        lambda t: not egn.is_valid(t[2:]) and not pnf.is_valid(t[2:]),
    )


def cy_vat():
    body = random.choice("0345679") + digits(7)
    return complete("CY", lambda c: "CY" + body + c, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def cz_legal():
    body = random.choice("012345678") + digits(6)
    return complete("CZ", lambda c: "CZ" + body + c, DIGITS)


def cz_special():
    body = "6" + digits(7)
    return complete("CZ", lambda c: "CZ" + body + c, DIGITS)


def birth_number(country, length):
    if length == 9:
        year, month, day = birth_date(1880, 1953)
        if 1954 <= year < 1980 or year < 1880:
            return None
        month += random.choice([0, 50])
        return "%s%02d%02d%02d%s" % (country, year % 100, month, day, digits(3))
    year, month, day = birth_date(1954, 2053)
    month += random.choice([0, 20, 50, 70] if year >= 2004 else [0, 50])
    body = "%02d%02d%02d" % (year % 100, month, day) + digits(3)
    return complete(country, lambda c: country + body + c, DIGITS)


def cz_birth_9():
    text = birth_number("CZ", 9)
    return text if text and text[2] != "6" and accepted("CZ", text) else None


def cz_birth_10():
    return birth_number("CZ", 10)


def de_ust():
    body = nonzero_digits(8)
    return complete("DE", lambda c: "DE" + body + c, DIGITS)


def dk_cvr():
    body = nonzero_digits(7)
    return complete("DK", lambda c: "DK" + body + c, DIGITS)


def ee_kmkr():
    body = digits(8)
    return complete("EE", lambda c: "EE" + body + c, DIGITS)


def el_nine():
    body = digits(8)
    return complete("EL", lambda c: "EL" + body + c, DIGITS)


def el_eight():
    body = digits(7)
    return complete("EL", lambda c: "EL" + body + c, DIGITS)


LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def es_dni():
    body = digits(8)
    return complete("ES", lambda c: "ES" + body + c, LETTERS)


def es_nie():
    body = random.choice("XYZ") + digits(7)
    return complete("ES", lambda c: "ES" + body + c, LETTERS)


def es_klm():
    body = random.choice("KLM") + digits(7)
    return complete("ES", lambda c: "ES" + body + c, LETTERS)


def es_cif_digit():
    body = random.choice("ABCDEFGHJNPQRSUVW") + digits(7)
    return complete("ES", lambda c: "ES" + body + c, DIGITS)


def es_cif_letter():
    body = random.choice("ABCDEFGHJNPQRSUVW") + digits(7)
    return complete("ES", lambda c: "ES" + body + c, "JABCDEFGHI")


def fi_alv():
    body = digits(7)
    return complete("FI", lambda c: "FI" + body + c, DIGITS)


FR_KEY = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"
FR_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"


def siren():
    body = digits(8)
    return next(body + c for c in DIGITS if luhn.is_valid(body + c))


def fr_numeric():
    number = siren()
    return complete("FR", lambda c: "FR" + c + number, two_digits())


def fr_keys(firsts, seconds):
    number = siren()
    keys = [a + b for a in firsts for b in seconds]
    return complete("FR", lambda c: "FR" + c + number, random.sample(keys, min(len(keys), 60)))


def fr_digit_letter():
    return fr_keys(DIGITS, FR_LETTERS)


def fr_letter_digit():
    return fr_keys(FR_LETTERS, DIGITS)


def fr_letter_letter():
    return fr_keys(FR_LETTERS, FR_LETTERS)


def fr_no_siren():
    number = "000" + digits(6)
    keys = [a + b for a in FR_KEY for b in FR_KEY]
    return complete("FR", lambda c: "FR" + c + number, random.sample(keys, 60))


def hr_oib():
    body = digits(10)
    return complete("HR", lambda c: "HR" + body + c, DIGITS)


def hu_anum():
    body = digits(7)
    return complete("HU", lambda c: "HU" + body + c, DIGITS)


IE_LETTERS = "WABCDEFGHIJKLMNOPQRSTUV"


def ie_new():
    body = digits(7)
    return complete("IE", lambda c: "IE" + body + c, IE_LETTERS)


def ie_new_two_letters():
    body = digits(7)
    second = random.choice(IE_LETTERS)
    return complete("IE", lambda c: "IE" + body + c + second, IE_LETTERS)


def ie_old():
    body = digits(1) + random.choice(LETTERS + "+*") + digits(5)
    return complete("IE", lambda c: "IE" + body + c, IE_LETTERS)


def ie_old_nine():
    body = digits(1) + random.choice(LETTERS + "+*") + digits(5)
    second = random.choice(IE_LETTERS)
    return complete("IE", lambda c: "IE" + body + c + second, IE_LETTERS)


IT_OFFICES = ["%03d" % i for i in range(1, 101)] + ["120", "121", "888", "999"]


def it_iva():
    body = digits(7) + random.choice(IT_OFFICES)
    return complete("IT", lambda c: "IT" + body + c, DIGITS)


def lt_nine():
    body = digits(7) + "1"
    return complete("LT", lambda c: "LT" + body + c, DIGITS)


def lt_twelve():
    body = digits(10) + "1"
    return complete("LT", lambda c: "LT" + body + c, DIGITS)


def lu_tva():
    body = digits(6)
    return complete("LU", lambda c: "LU" + body + c, two_digits())


def lv_legal():
    body = random.choice("456789") + digits(9)
    return complete("LV", lambda c: "LV" + body + c, DIGITS)


def lv_person():
    year, month, day = birth_date(1800, 2099)
    body = "%02d%02d%02d%d" % (day, month, year % 100, (year - 1800) // 100) + digits(3)
    return complete("LV", lambda c: "LV" + body + c, DIGITS)


def lv_person_32():
    body = "32" + digits(8)
    return complete("LV", lambda c: "LV" + body + c, DIGITS)


def mt_vat():
    body = nonzero_digits(7)
    return complete("MT", lambda c: "MT" + body + c, DIGITS)


def branch():
    return "B" + random.choice(["%02d" % i for i in range(1, 100)])


def nl_rsin():
    body = digits(8)
    b = branch()
    return complete("NL", lambda c: "NL" + body + c + b, DIGITS, lambda t: bsn.is_valid(t[2:11]))


def nl_btw_id():
    body = digits(9) + "B"
    choices = ["%02d" % i for i in range(1, 100)]
    return complete("NL", lambda c: "NL" + body + c, choices, lambda t: not bsn.is_valid(t[2:11]))


def nl_short():
    text = random.choice([nl_rsin, nl_btw_id])()
    if not text:
        return None
    number = text[2:11].lstrip("0") or "0"
    shortened = "NL" + number + text[11:]
    return shortened if accepted("NL", shortened) else None


def nl_zeros():
    body = "0" * random.randint(1, 4)
    body += digits(8 - len(body))
    b = branch()
    return complete("NL", lambda c: "NL" + body + c + b, DIGITS)


def pl_nip():
    body = digits(9)
    return complete("PL", lambda c: "PL" + body + c, DIGITS)


def pt_nif():
    body = nonzero_digits(8)
    return complete("PT", lambda c: "PT" + body + c, DIGITS)


RO_COUNTIES = ["%02d" % i for i in range(1, 49)] + ["51", "52", "70", "80", "81", "82", "83"]


def ro_cui():
    body = nonzero_digits(random.randint(1, 9))
    return complete("RO", lambda c: "RO" + body + c, DIGITS)


def ro_cnp():
    first = random.choice("123456789")
    century = {"1": 1900, "2": 1900, "3": 1800, "4": 1800, "5": 2000, "6": 2000}.get(first, 1900)
    year, month, day = birth_date(century, century + 99)
    body = first + "%02d%02d%02d" % (year % 100, month, day) + random.choice(RO_COUNTIES) + digits(3)
    return complete("RO", lambda c: "RO" + body + c, DIGITS)


def se_vat():
    body = digits(9)
    return complete("SE", lambda c: "SE" + body + c + "01", DIGITS)


def si_ddv():
    body = nonzero_digits(7)
    return complete("SI", lambda c: "SI" + body + c, DIGITS)


def sk_legal():
    body = nonzero_digits(1) + digits(1) + random.choice("234789") + digits(6)
    return complete("SK", lambda c: "SK" + body + c, DIGITS)


def sk_birth():
    return birth_number("SK", 10)


def named(make, name):
    make.__name__ = name
    return make


def uk_standard(prefix):
    def make():
        body = digits(7)
        return complete(prefix, lambda c: prefix + body + c, two_digits())

    return named(make, "standard")


def uk_branch(prefix):
    def make():
        body = digits(7)
        extra = digits(3)
        return complete(prefix, lambda c: prefix + body + c + extra, two_digits())

    return named(make, "branch")


def uk_short(prefix):
    def make():
        if random.random() < 0.5:
            return prefix + "GD" + "%03d" % random.randint(0, 499)
        return prefix + "HA" + "%03d" % random.randint(500, 999)

    return named(make, "government_or_health")


def uk_long(prefix):
    def make():
        if random.random() < 0.5:
            code = "GD8888%03d" % random.randint(0, 499)
        else:
            code = "HA8888%03d" % random.randint(500, 999)
        return complete(prefix, lambda c: prefix + code + c, two_digits())

    return named(make, "government_or_health_long")


def ch_uid():
    body = digits(8)
    suffix = random.choice(["MWST", "TVA", "IVA", "TPV"])
    return complete("CH", lambda c: "CHE" + body + c + suffix, DIGITS)


def no_mva():
    body = digits(8)
    return complete("NO", lambda c: "NO" + body + c + "MVA", DIGITS)


VARIANTS = {
    "AT": [at_uid],
    "BE": [be_ten, be_old_nine, be_bracketed],
    "BG": [bg_legal, bg_egn, bg_pnf, bg_other],
    "CY": [cy_vat],
    "CZ": [cz_legal, cz_special, cz_birth_9, cz_birth_10],
    "DE": [de_ust],
    "DK": [dk_cvr],
    "EE": [ee_kmkr],
    "EL": [el_nine, el_eight],
    "ES": [es_dni, es_nie, es_klm, es_cif_digit, es_cif_letter],
    "FI": [fi_alv],
    "FR": [fr_numeric, fr_digit_letter, fr_letter_digit, fr_letter_letter, fr_no_siren],
    "HR": [hr_oib],
    "HU": [hu_anum],
    "IE": [ie_new, ie_new_two_letters, ie_old, ie_old_nine],
    "IT": [it_iva],
    "LT": [lt_nine, lt_twelve],
    "LU": [lu_tva],
    "LV": [lv_legal, lv_person, lv_person_32],
    "MT": [mt_vat],
    "NL": [nl_rsin, nl_btw_id, nl_short, nl_zeros],
    "PL": [pl_nip],
    "PT": [pt_nif],
    "RO": [ro_cui, ro_cnp],
    "SE": [se_vat],
    "SI": [si_ddv],
    "SK": [sk_legal, sk_birth],
    "XI": [uk_standard("XI"), uk_branch("XI"), uk_short("XI"), uk_long("XI")],
    "GB": [uk_standard("GB"), uk_branch("GB"), uk_short("GB"), uk_long("GB")],
    "CH": [ch_uid],
    "NO": [no_mva],
}

# Separators a person may type; which of them a state's ids may carry is
# stdnum's rule, so presented ids keep only what stdnum still accepts.
TYPED = " -./,:"
PROBES = " -./,:()_+*"


def presented(prefix, text):
    """The valid id as a person might type it, still accepted by stdnum."""
    shown = text
    if random.random() < 0.6:
        chars = list(shown)
        for _ in range(random.randint(1, 3)):
            chars.insert(random.randint(2, len(chars)), random.choice(TYPED))
        candidate = "".join(chars)
        if random.random() < 0.3:
            candidate = candidate[:2] + " " + candidate[2:]
        if accepted(prefix, candidate):
            shown = candidate
    if random.random() < 0.2:
        shown = shown.lower()
    if random.random() < 0.1:
        shown = "  " + shown + " "
    return shown


def mutated(text):
    """The id with one digit after its prefix changed to another digit."""
    places = [i for i, c in enumerate(text) if c.isdigit() and i >= 2]
    if not places:
        return None
    i = random.choice(places)
    other = random.choice([d for d in DIGITS if d != text[i]])
    return text[:i] + other + text[i + 1 :]


def probed(text):
    """The id with one separator or bracket put somewhere after its prefix."""
    i = random.randint(2, len(text))
    return text[:i] + random.choice(PROBES) + text[i:]


NOISE = DIGITS * 4 + LETTERS + " -./,:()+*" + "01"


def noise(prefix):
    """The prefix and up to 16 random characters, shaped like the state's
    ids half of the time, so both verdicts occur."""
    body = "".join(random.choice(NOISE) for _ in range(random.randint(0, 16)))
    if random.random() < 0.5:
        if prefix == "CH":
            body = "E" + body[:9] + random.choice(["MWST", "TVA", "IVA", "TPV", ""])
        elif prefix == "NO":
            body = body[:10] + "MVA"
        elif prefix in ("GB", "XI"):
            body = random.choice(["GD", "HA", "GD8888", "HA8888", ""]) + body[:5]
        elif prefix == "NL":
            body = body[:10] + "B" + body[10:13]
    return prefix + body


def edited(text):
    """The id with one character after its prefix removed, added or
    replaced, by any character."""
    i = random.randint(2, len(text))
    how = random.choice(["remove", "add", "replace"])
    if how == "remove" and i < len(text):
        return text[:i] + text[i + 1 :]
    if how == "replace" and i < len(text):
        return text[:i] + random.choice(NOISE) + text[i + 1 :]
    return text[:i] + random.choice(NOISE) + text[i:]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("kontor")
    parser.add_argument("--per-state", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=20261123)
    args = parser.parse_args()
    random.seed(args.seed)
    started = time.monotonic()

    cases = []  # (state, kind, text)
    variants_made = {}
    for prefix, variants in VARIANTS.items():
        valid = []
        made = {}
        misses = 0
        while len(valid) < args.per_state:
            variant = variants[len(valid) % len(variants)]
            text = variant()
            if text is None:
                misses += 1
                if misses > 20 * args.per_state:
                    sys.exit("%s: %s makes no valid id" % (prefix, variant.__name__))
                continue
            assert accepted(prefix, text), (prefix, variant.__name__, text)
            valid.append(text)
            name = variant.__name__
            made[name] = made.get(name, 0) + 1
        variants_made[prefix] = made
        for text in valid:
            cases.append((prefix, "valid", presented(prefix, text)))
        mutations = 0
        while mutations < args.per_state:
            text = mutated(random.choice(valid))
            if text is not None:
                cases.append((prefix, "mutation", text))
                mutations += 1
        for _ in range(args.per_state):
            cases.append((prefix, "probe", probed(random.choice(valid))))
        for _ in range(args.per_state):
            cases.append((prefix, "edit", edited(random.choice(valid))))
            cases.append((prefix, "noise", noise(prefix)))
    generated = time.monotonic()

    stdin = "".join(text + "\n" for _, _, text in cases)
    run = subprocess.run([args.kontor, "vat-id", "check"], input=stdin.encode(), capture_output=True)
    answers = run.stdout.decode().split("\n")[:-1]
    if len(answers) != len(cases):
        sys.exit(
            "kontor answered %d lines for %d ids (exit %d): %s"
            % (len(answers), len(cases), run.returncode, run.stderr.decode()[:500])
        )
    judged = time.monotonic()

    counts = {}
    disagreements = []
    for (prefix, kind, text), answer in zip(cases, answers):
        fields = answer.split("\t")
        kontor_valid = fields[0] == "valid"
        kontor_compact = fields[1] if len(fields) > 1 else ""
        if fields[0] not in ("valid", "invalid"):
            disagreements.append((prefix, kind, text, "kontor: " + answer))
        stdnum_valid, stdnum_compact = oracle(prefix, text)
        c = counts.setdefault(
            prefix, {"valid": 0, "mutation": 0, "probe": 0, "edit": 0, "noise": 0, "accepted": 0, "refused": 0}
        )
        c[kind] += 1
        c["accepted" if stdnum_valid else "refused"] += 1
        if kontor_valid != stdnum_valid:
            disagreements.append(
                (prefix, kind, text, "kontor %s, stdnum %s: %s" % ("valid" if kontor_valid else "invalid", "valid" if stdnum_valid else "invalid", answer))
            )
        elif kontor_compact != stdnum_compact:
            disagreements.append(
                (prefix, kind, text, "compact forms differ: kontor %r, stdnum %r" % (kontor_compact, stdnum_compact))
            )
    compared = time.monotonic()

    print("python-stdnum %s, seed %d, %d ids per state and kind" % (stdnum.__version__, args.seed, args.per_state))
    print(
        "%-5s %6s %9s %6s %6s %6s %9s %8s  %s"
        % ("state", "valid", "mutations", "probes", "edits", "noise", "accepted", "refused", "forms of the valid ids")
    )
    for prefix, c in counts.items():
        forms = ", ".join("%s %d" % kv for kv in variants_made[prefix].items())
        print(
            "%-5s %6d %9d %6d %6d %6d %9d %8d  %s"
            % (prefix, c["valid"], c["mutation"], c["probe"], c["edit"], c["noise"], c["accepted"], c["refused"], forms)
        )
    total = len(cases)
    print(
        "%d ids compared (verdict and compact form) in %.1f s: generating %.1f s, "
        "kontor %.1f s, comparing %.1f s"
        % (total, compared - started, generated - started, judged - generated, compared - judged)
    )
    if disagreements:
        print("%d disagreements, the first 30:" % len(disagreements))
        for prefix, kind, text, what in disagreements[:30]:
            print("  %s %s %r: %s" % (prefix, kind, text, what))
        print("%d passed, %d failed" % (total - len(disagreements), len(disagreements)))
        return 1
    print("0 disagreements")
    print("%d passed, 0 failed" % total)
    return 0


if __name__ == "__main__":
    sys.exit(main())
