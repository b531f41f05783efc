"""One language per page, checked on what a page says: a German page holds
no English sentence and no amount or date in the English notation, an
English page no German sentence and no amount or date in the German one,
and neither a date in ISO form (`2026-11-28`, `2026-11-28T16:44:05Z`).

A sentence is caught by its small words: each language has a list of words
no page of the other may hold (articles, verbs and words of the screens'
sentences, which no name, address or line text of the demo's data holds).
A page's text is every text node of its body (hidden ones and the options
of a choice too) and the attributes a person hears or sees (`aria-label`,
`title`, `placeholder`, `alt`), except what the page marks as another
language's (`lang`, as a supplier's document or an invoice's terms carry
it) or as a program's words (`code`, `kbd`, `samp`: an event's name); and
a line's quoted texts, e-mail and web addresses are names, not words.

`TEXT_OF_PAGE` is the script that reads a document's text in the browser;
`offences(text, lang)` lists what on a page of `lang` is of the other
language.
"""

import re
from html.parser import HTMLParser

# Words of English sentences that no German page may hold.
ENGLISH = {
    "the", "The", "is", "are", "were", "and", "not", "with", "must",
    "has", "have", "cannot", "which", "than", "this", "This", "that", "of",
    "for", "to", "or", "be", "been", "please", "Please", "Nothing", "nothing",
    "saved", "missing", "field", "amount", "Amount", "outstanding", "refused",
    "Refused", "overpayments", "give", "add", "it", "its", "there", "There",
    "from", "by", "only", "already", "should", "would", "does", "do",
    "your", "Your", "you", "You", "yet", "when", "When", "who", "what",
    "What", "Invoice", "invoice", "Customer", "customer", "Payment",
    "payment", "paid", "Paid", "Due", "due", "Save", "Cancel", "Back",
    "Sign", "Open", "Close", "Delete", "Settings", "Reminders", "Customers",
    "Invoices", "Bills", "Drafts", "Dashboard", "Today", "today", "Yes",
    "No", "None", "none", "Balance", "balance", "Stage", "Done",
    "New", "Notes", "Line", "Lines", "Date", "Street",
    "City", "Country", "Reference", "Search", "Page", "page", "of",
    "Reminder", "reminder", "Account", "account", "Books",
}

# Words of German sentences that no English page may hold.
GERMAN = {
    "der", "Der", "die", "Die", "das", "Das", "und", "nicht", "ist", "wurde",
    "wurden", "mit", "für", "Für", "ein", "eine", "einen", "Bitte", "bitte",
    "fehlt", "Betrag", "Rechnung", "Rechnungen", "keine", "Keine", "oder",
    "zu", "von", "den", "dem", "des", "wird", "sind", "nichts", "Nichts",
    "gespeichert", "auf", "bei", "noch", "Sie", "Ihre", "Ihr", "kein",
    "Kunde", "Kunden", "Zahlung", "Zahlungen", "bezahlt", "fällig",
    "Fällig", "Speichern", "Abbrechen", "Zurück", "Einstellungen",
    "Mahnungen", "Mahnung", "Übersicht", "Entwürfe", "Heute", "heute",
    "Ja", "Nein", "Summe", "Saldo", "Phase", "Erledigt", "Neu", "Notiz",
    "Datum", "Straße", "Ort", "Suche", "Seite",
    "Konto", "Bücher", "abgelehnt", "Abgelehnt", "schon", "bereits",
    "nur", "wenn", "wer", "als",
}

# Amounts and dates in the English notation: 1,234.56 and 23 Nov 2026.
ENGLISH_AMOUNT = re.compile(
    r"(?<![\w.,])\d{1,3}(?:,\d{3})+\.\d+(?![\w.,])"
    r"|(?<![\w.,])\d+\.\d{2}(?!\d)\s?(?:EUR|USD|GBP|CHF|€)"
    r"|[€$£]\s?\d"
)
ENGLISH_DATE = re.compile(r"\b\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}\b")
# Amounts and dates in the German notation: 1.234,56 and 23.11.2026.
GERMAN_AMOUNT = re.compile(
    r"(?<![\w.,])\d{1,3}(?:\.\d{3})+,\d+(?![\w.,])"
    r"|(?<![\w.,])\d+,\d{2}(?!\d)\s?(?:EUR|USD|GBP|CHF|€)"
    r"|\d\s?€"
)
GERMAN_DATE = re.compile(r"(?<![\w.])\d{2}\.\d{2}\.\d{4}\b")
# A date in ISO form, with or without its time: no page's notation.
ISO_DATE = re.compile(r"(?<![\w-])\d{4}-\d{2}-\d{2}(?:T[\d:.]+Z?)?(?![\w-])")

WORD = re.compile(r"[A-Za-zÄÖÜäöüß]+(?:'[a-z]+)?")

# What a sentence quotes or names verbatim is no word of its language: a
# quoted text ("…", „…“), an e-mail address, a web address.
VERBATIM = re.compile(r'"[^"]*"|„[^“]*“|\S+@\S+|\b\w+://\S+')

# A number's separators between two digits: `1,234.56`.
SEPARATOR = re.compile(r"(?<=\d)[.,](?=\d)")


def in_other_notation(value):
    """A typed value with the separators of its numbers swapped (`1,234.56`
    to `1.234,56`), so a form posted again in the other language means the
    same figures."""
    return SEPARATOR.sub(lambda m: "," if m.group(0) == "." else ".", value)

# A script's function that gives a document's text: each text node and the
# attributes a person hears or sees, one per line; a node inside an element
# marked as being in another language than the page (`lang`, as the HTML
# of a record's own words carries it: a supplier's document, a bank's
# remittance text) is left out, as a screen reader reads it in its own.
TEXT_OF = """
function textOf(doc) {
    const page = doc.documentElement.lang;
    const own = el => { const l = el && el.closest('[lang]'); return !l || l.getAttribute('lang') === page; };
    const out = [];
    const walker = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        const node = walker.currentNode;
        const el = node.parentElement;
        const tag = el ? el.tagName : '';
        if (tag === 'SCRIPT' || tag === 'STYLE' || !own(el) || el.closest('code, kbd, samp')) continue;
        if (node.nodeValue.trim()) out.push(node.nodeValue.trim());
    }
    for (const el of doc.body.querySelectorAll('[aria-label],[title],[placeholder],[alt]')) {
        if (!own(el)) continue;
        for (const a of ['aria-label', 'title', 'placeholder', 'alt']) {
            const v = el.getAttribute(a);
            if (v && v.trim()) out.push(v.trim());
        }
    }
    return out.join('\\n');
}
"""

# The script that gives the page's own text.
TEXT_OF_PAGE = TEXT_OF + "return textOf(document);"


class _Text(HTMLParser):
    """The text of an HTML document as `TEXT_OF` reads it in the browser."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.page = ""
        self.stack = []  # (tag, lang or None)
        self.out = []
        self.in_body = False

    def own(self):
        for _, lang in reversed(self.stack):
            if lang is not None:
                return lang == self.page
        return True

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.page = attrs.get("lang", "")
            return
        if tag == "body":
            self.in_body = True
        lang = attrs.get("lang")
        if tag not in self.VOID:
            self.stack.append((tag, lang))
        if self.in_body and (lang is None or lang == self.page) and self.own():
            for a in ("aria-label", "title", "placeholder", "alt"):
                if attrs.get(a, "").strip():
                    self.out.append(attrs[a].strip())

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if not self.in_body or not data.strip():
            return
        if any(t in ("script", "style", "code", "kbd", "samp") for t, _ in self.stack):
            return
        if self.own():
            self.out.append(data.strip())


def text_of_html(html):
    """A document's language (its `lang`) and its text, as `TEXT_OF` reads it."""
    parser = _Text()
    parser.feed(html)
    return parser.page, "\n".join(parser.out)


def words_of_the_other(line, lang):
    """The words of `line` that belong to the other language's list."""
    foreign = ENGLISH if lang == "de" else GERMAN
    return [w for w in WORD.findall(line) if w in foreign]


def offences(text, lang, data=()):
    """What on a page of `lang` ('de' or 'en') is of the other language:
    each line with a foreign word, an amount or a date in the other
    notation, or an ISO date, as 'why: line'. `data` are texts of the
    records shown (names, line texts), taken out before the words are read."""
    found = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        clean = VERBATIM.sub(" ", line)
        for d in data:
            clean = clean.replace(d, " ")
        words = words_of_the_other(clean, lang)
        if words:
            found.append(f"words {sorted(set(words))}: {line}")
        if lang == "de":
            for m in ENGLISH_AMOUNT.findall(clean):
                found.append(f"English amount {m!r}: {line}")
            for m in ENGLISH_DATE.findall(clean):
                found.append(f"English date {m!r}: {line}")
        else:
            for m in GERMAN_AMOUNT.findall(clean):
                found.append(f"German amount {m!r}: {line}")
            for m in GERMAN_DATE.findall(clean):
                found.append(f"German date {m!r}: {line}")
        for m in ISO_DATE.findall(clean):
            found.append(f"ISO date {m!r}: {line}")
    return found


def selftest():
    """The checker itself: each kind of offence is found, and a clean page is clean."""
    assert offences("Betrag: is not an amount", "de")
    assert offences("mehr als die offenen 875.00 EUR", "de")
    assert offences("am 28 Nov 2026", "de")
    assert offences("um 2026-11-28T16:44:05.392Z", "de")
    assert offences("Betrag fehlt", "en")
    assert offences("Amount 1.234,56 €", "en")
    assert offences("on 28.11.2026", "en")
    assert not offences("Der Betrag fehlt. Offen: 1.234,56 € seit 28.11.2026", "de")
    assert not offences("The amount is missing. Open: €1,234.56 since 28 Nov 2026", "en")
    assert not offences("RE-2026-0001 · 23.11.2026", "de")
    assert not offences("von 250,01 € bis 1.000 € netto", "de")
    assert not offences('Das Dokument ist an "The Customer Ltd" gerichtet, info@the-customer.example', "de")
    assert offences(
        "Vorschlag: The remittance names RE-1; the amount is 10.00 EUR less than open (a partial payment).", "de"
    )
    assert in_other_notation("1,190.01 and 12,50 on 2026-11-10") == "1.190,01 and 12.50 on 2026-11-10"
    lang, text = text_of_html(
        '<html lang="de"><body><p title="Hinweis">Der Betrag</p>'
        '<div lang="en">Payable within 30 days</div><script>var the = 1;</script></body></html>'
    )
    assert lang == "de" and text == "Hinweis\nDer Betrag", text


selftest()
