-- Step 14 → 15, frozen: every reference into a company-owned table is
-- composite with company_id and environment, so SQLite itself refuses a
-- row that points into another company or environment. The tables whose
-- references change are rebuilt from these definitions; the keys and the
-- statements gain the unique index such a reference points at (both made by
-- to_15.rs, whose tables this text does not hold).

CREATE TABLE payments (
    seq         INTEGER PRIMARY KEY,
    id          TEXT NOT NULL UNIQUE,
    company_id  TEXT NOT NULL REFERENCES companies (id),
    environment TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    direction   TEXT NOT NULL CHECK (direction IN ('in', 'out')),
    -- the document paid: an invoice for money in, a bill for money out
    invoice_id  TEXT,
    purchase_id TEXT,
    currency    TEXT NOT NULL CHECK (currency GLOB '[A-Z][A-Z][A-Z]'),
    amount      INTEGER NOT NULL CHECK (amount > 0),
    amount_book INTEGER NOT NULL CHECK (amount_book > 0),
    method      TEXT NOT NULL CHECK (method IN ('bank', 'cash', 'card', 'other')),
    reference   TEXT,
    paid_on     TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    -- the bank line it was settled from, and the day a person undid it by a
    -- counter-posting (version 10)
    bank_line_id TEXT,
    reversed_on  TEXT,
    CHECK ((direction = 'in' AND invoice_id IS NOT NULL AND purchase_id IS NULL)
        OR (direction = 'out' AND purchase_id IS NOT NULL AND invoice_id IS NULL)),
    UNIQUE (id, company_id, environment),
    FOREIGN KEY (invoice_id, company_id, environment) REFERENCES invoices (id, company_id, environment),
    FOREIGN KEY (purchase_id, company_id, environment) REFERENCES purchases (id, company_id, environment),
    FOREIGN KEY (bank_line_id, company_id, environment) REFERENCES bank_lines (id, company_id, environment)
) STRICT;
CREATE INDEX payments_invoice ON payments (invoice_id) WHERE invoice_id IS NOT NULL;
CREATE INDEX payments_purchase ON payments (purchase_id) WHERE purchase_id IS NOT NULL;

CREATE TABLE audit (
    seq         INTEGER PRIMARY KEY,
    company_id  TEXT NOT NULL REFERENCES companies (id),
    environment TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    user_id     TEXT REFERENCES users (id),
    actor       TEXT NOT NULL,
    act         TEXT NOT NULL,
    subject     TEXT NOT NULL,
    at          TEXT NOT NULL,
    key_id      TEXT,
    FOREIGN KEY (key_id, company_id, environment) REFERENCES api_keys (id, company_id, environment)
) STRICT;
CREATE INDEX audit_subject ON audit (company_id, environment, subject, seq);

CREATE TABLE bank_entries (
    seq              INTEGER PRIMARY KEY,
    id               TEXT NOT NULL UNIQUE,
    company_id       TEXT NOT NULL REFERENCES companies (id),
    environment      TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    statement_id     TEXT NOT NULL,
    bank_account_id  TEXT NOT NULL,
    -- what the entry says: its days, its signed amount and a digest of its
    -- reference and lines ('… sum:…'); see books::bank::keys
    entry_key        TEXT NOT NULL,
    amount           INTEGER NOT NULL,
    currency         TEXT NOT NULL CHECK (currency GLOB '[A-Z][A-Z][A-Z]'),
    booked           INTEGER NOT NULL CHECK (booked IN (0, 1)),
    booked_on        TEXT,
    value_on         TEXT,
    bank_reference   TEXT,
    reversal         INTEGER NOT NULL CHECK (reversal IN (0, 1)),
    booking_text     TEXT,
    transaction_code TEXT,
    batch            INTEGER NOT NULL CHECK (batch IN (0, 1)),
    -- the camt.054 that detailed this entry's transactions, if one did
    detailed_by      TEXT,
    -- its day, its signed amount and the bank's reference ('… ref:…'), for
    -- a reference with a digit; looked up for a reference that tells
    -- entries apart in its file
    reference_key    TEXT,
    -- the keys without their days ('ref:…' or 'sum:…'): by it and the
    -- amount a booked entry finds the preliminary one it confirms
    identity         TEXT NOT NULL DEFAULT '',
    UNIQUE (id, company_id, environment),
    FOREIGN KEY (statement_id, company_id, environment) REFERENCES bank_statements (id, company_id, environment),
    FOREIGN KEY (detailed_by, company_id, environment) REFERENCES bank_statements (id, company_id, environment),
    FOREIGN KEY (bank_account_id, company_id, environment) REFERENCES bank_accounts (id, company_id, environment)
) STRICT;
CREATE UNIQUE INDEX bank_entries_key ON bank_entries (company_id, environment, bank_account_id, entry_key, booked);
CREATE INDEX bank_entries_reference ON bank_entries (company_id, environment, bank_account_id, reference_key)
    WHERE reference_key IS NOT NULL;
CREATE INDEX bank_entries_identity ON bank_entries (company_id, environment, bank_account_id, identity, amount);

CREATE TABLE bank_settlements (
    seq          INTEGER PRIMARY KEY,
    id           TEXT NOT NULL UNIQUE,
    company_id   TEXT NOT NULL REFERENCES companies (id),
    environment  TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    line_id      TEXT NOT NULL,
    kind         TEXT NOT NULL CHECK (kind IN ('payment', 'difference', 'booking', 'return')),
    payment_id   TEXT,
    target_kind  TEXT CHECK (target_kind IN ('invoice', 'purchase')),
    target_id    TEXT,
    number       TEXT,
    account      TEXT,
    detail       TEXT NOT NULL DEFAULT '',
    -- minor units, positive, in the line's direction
    amount       INTEGER NOT NULL CHECK (amount > 0),
    on_day       TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    undone_at    TEXT,
    -- the ledger entry that undid it (version 14; none for older undos)
    undone_by    TEXT,
    CHECK ((kind IN ('payment', 'return') AND payment_id IS NOT NULL AND target_id IS NOT NULL)
        OR (kind = 'difference' AND target_id IS NOT NULL AND account IS NOT NULL)
        OR (kind = 'booking' AND account IS NOT NULL)),
    FOREIGN KEY (line_id, company_id, environment) REFERENCES bank_lines (id, company_id, environment),
    FOREIGN KEY (payment_id, company_id, environment) REFERENCES payments (id, company_id, environment)
) STRICT;
CREATE INDEX bank_settlements_line ON bank_settlements (line_id);
CREATE INDEX bank_settlements_undone ON bank_settlements (undone_by) WHERE undone_by IS NOT NULL;
