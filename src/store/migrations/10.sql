-- Step 9 → 10, frozen: the company's bank accounts, the statements
-- imported into them with their entries and lines, what each line settled,
-- a payment's bank line and reversal, and an invoice's creditor reference.

CREATE TABLE bank_accounts (
    seq            INTEGER PRIMARY KEY,
    id             TEXT NOT NULL UNIQUE,
    company_id     TEXT NOT NULL REFERENCES companies (id),
    environment    TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    -- the IBAN, normalised; NULL for an account no IBAN expresses
    iban           TEXT,
    -- the national bank code and account number (a German IBAN's own, or
    -- given for an account without IBAN)
    bank_code      TEXT,
    account_number TEXT,
    bic            TEXT,
    name           TEXT NOT NULL,
    currency       TEXT NOT NULL CHECK (currency GLOB '[A-Z][A-Z][A-Z]'),
    created_at     TEXT NOT NULL,
    CHECK (iban IS NOT NULL OR (bank_code IS NOT NULL AND account_number IS NOT NULL)),
    UNIQUE (id, company_id, environment)
) STRICT;
CREATE UNIQUE INDEX bank_accounts_iban ON bank_accounts (company_id, environment, iban)
    WHERE iban IS NOT NULL;
CREATE UNIQUE INDEX bank_accounts_national ON bank_accounts (company_id, environment, bank_code, account_number)
    WHERE iban IS NULL;

-- A statement file as it came, kept with its SHA-256.
CREATE TABLE bank_files (
    seq          INTEGER PRIMARY KEY,
    id           TEXT NOT NULL UNIQUE,
    company_id   TEXT NOT NULL REFERENCES companies (id),
    environment  TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    name         TEXT NOT NULL,
    sha256       TEXT NOT NULL,
    content      BLOB NOT NULL,
    imported_at  TEXT NOT NULL,
    imported_by  TEXT NOT NULL,
    UNIQUE (company_id, environment, sha256),
    UNIQUE (id, company_id, environment)
) STRICT;

CREATE TABLE bank_statements (
    seq             INTEGER PRIMARY KEY,
    id              TEXT NOT NULL UNIQUE,
    company_id      TEXT NOT NULL REFERENCES companies (id),
    environment     TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    file_id         TEXT NOT NULL,
    bank_account_id TEXT NOT NULL,
    message         TEXT NOT NULL CHECK (message IN ('report', 'statement', 'notification', 'mt940')),
    version         TEXT NOT NULL,
    statement_id    TEXT NOT NULL,
    sequence        TEXT NOT NULL,
    currency        TEXT NOT NULL CHECK (currency GLOB '[A-Z][A-Z][A-Z]'),
    opening         INTEGER,
    opening_on      TEXT,
    closing         INTEGER,
    closing_on      TEXT,
    UNIQUE (company_id, environment, bank_account_id, message, statement_id, sequence),
    FOREIGN KEY (file_id, company_id, environment) REFERENCES bank_files (id, company_id, environment),
    FOREIGN KEY (bank_account_id, company_id, environment) REFERENCES bank_accounts (id, company_id, environment)
) STRICT;

CREATE TABLE bank_entries (
    seq              INTEGER PRIMARY KEY,
    id               TEXT NOT NULL UNIQUE,
    company_id       TEXT NOT NULL REFERENCES companies (id),
    environment      TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    statement_id     TEXT NOT NULL REFERENCES bank_statements (id),
    bank_account_id  TEXT NOT NULL,
    -- the bank's reference ('ref:…') or a digest of the entry ('sum:…')
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
    detailed_by      TEXT REFERENCES bank_statements (id),
    UNIQUE (id, company_id, environment)
) STRICT;
CREATE UNIQUE INDEX bank_entries_key ON bank_entries (company_id, environment, bank_account_id, entry_key, booked);

CREATE TABLE bank_lines (
    seq                  INTEGER PRIMARY KEY,
    id                   TEXT NOT NULL UNIQUE,
    company_id           TEXT NOT NULL REFERENCES companies (id),
    environment          TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    entry_id             TEXT NOT NULL,
    bank_account_id      TEXT NOT NULL,
    amount               INTEGER NOT NULL,
    currency             TEXT NOT NULL CHECK (currency GLOB '[A-Z][A-Z][A-Z]'),
    booked_on            TEXT,
    value_on             TEXT,
    state                TEXT NOT NULL
        CHECK (state IN ('unmatched', 'suggested', 'settled', 'ignored', 'preliminary', 'replaced')),
    counterparty_name    TEXT,
    counterparty_iban    TEXT,
    counterparty_account TEXT,
    counterparty_bic     TEXT,
    remittance           TEXT NOT NULL,
    creditor_reference   TEXT,
    end_to_end_id        TEXT,
    mandate_id           TEXT,
    bank_reference       TEXT,
    return_reason        TEXT,
    charges              INTEGER NOT NULL DEFAULT 0 CHECK (charges >= 0),
    reversal             INTEGER NOT NULL CHECK (reversal IN (0, 1)),
    -- the ladder's proposals, best first, as JSON
    suggestions          TEXT NOT NULL DEFAULT '[]',
    ignored_reason       TEXT,
    imported_at          TEXT NOT NULL,
    FOREIGN KEY (entry_id, company_id, environment) REFERENCES bank_entries (id, company_id, environment),
    FOREIGN KEY (bank_account_id, company_id, environment) REFERENCES bank_accounts (id, company_id, environment),
    UNIQUE (id, company_id, environment)
) STRICT;
CREATE INDEX bank_lines_state ON bank_lines (company_id, environment, state, seq);
CREATE INDEX bank_lines_end_to_end ON bank_lines (company_id, environment, end_to_end_id)
    WHERE end_to_end_id IS NOT NULL;

-- What a line did: a payment of an invoice or bill, a difference of one
-- settled without money (to a fee or discount account), an amount booked to
-- an account (fees, interest, the tax office, a transfer, an overpayment
-- kept as the customer's credit), or a payment taken back by a returned
-- direct debit.
CREATE TABLE bank_settlements (
    seq          INTEGER PRIMARY KEY,
    id           TEXT NOT NULL UNIQUE,
    company_id   TEXT NOT NULL REFERENCES companies (id),
    environment  TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    line_id      TEXT NOT NULL,
    kind         TEXT NOT NULL CHECK (kind IN ('payment', 'difference', 'booking', 'return')),
    payment_id   TEXT REFERENCES payments (id),
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
    CHECK ((kind IN ('payment', 'return') AND payment_id IS NOT NULL AND target_id IS NOT NULL)
        OR (kind = 'difference' AND target_id IS NOT NULL AND account IS NOT NULL)
        OR (kind = 'booking' AND account IS NOT NULL)),
    FOREIGN KEY (line_id, company_id, environment) REFERENCES bank_lines (id, company_id, environment)
) STRICT;
CREATE INDEX bank_settlements_line ON bank_settlements (line_id);

ALTER TABLE payments ADD COLUMN bank_line_id TEXT REFERENCES bank_lines (id);
ALTER TABLE payments ADD COLUMN reversed_on TEXT;
ALTER TABLE invoices ADD COLUMN payment_reference TEXT;
ALTER TABLE companies ADD COLUMN fee_tolerance INTEGER NOT NULL DEFAULT 0 CHECK (fee_tolerance >= 0);
