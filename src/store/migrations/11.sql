-- Step 10 → 11, frozen: received e-invoices.

-- The files received as e-invoices, byte for byte as they arrived, with
-- their SHA-256, the channel they came by and when: never changed, kept ten
-- years (GoBD). The triggers refuse every change and any deletion before
-- `keep_until`, whoever asks.
CREATE TABLE received_files (
    seq          INTEGER PRIMARY KEY,
    id           TEXT NOT NULL UNIQUE,
    company_id   TEXT NOT NULL REFERENCES companies (id),
    environment  TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    file_name    TEXT NOT NULL,
    content      BLOB NOT NULL,
    sha256       TEXT NOT NULL CHECK (length(sha256) = 64),
    size         INTEGER NOT NULL CHECK (size = length(content)),
    channel      TEXT NOT NULL CHECK (channel IN ('upload', 'console', 'mailbox')),
    -- the mailbox message's Message-ID, the uploading person's e-mail address
    channel_ref  TEXT,
    received_at  TEXT NOT NULL,
    keep_until   TEXT NOT NULL,
    UNIQUE (company_id, environment, sha256),
    UNIQUE (id, company_id, environment)
) STRICT;
CREATE TRIGGER received_files_unchanged BEFORE UPDATE ON received_files
BEGIN
    SELECT RAISE(ABORT, 'a received file is kept as it arrived and never changed');
END;
CREATE TRIGGER received_files_kept BEFORE DELETE ON received_files
WHEN OLD.keep_until > strftime('%Y-%m-%d', 'now')
BEGIN
    SELECT RAISE(ABORT, 'a received file is kept ten years and not deleted before');
END;

-- A bill as received: what its file says (the figures the lists show; the
-- whole document is read again from the file), the verdict, and the
-- person's decision. Booked, its id is the purchase's.
CREATE TABLE bills (
    seq               INTEGER PRIMARY KEY,
    id                TEXT NOT NULL UNIQUE,
    company_id        TEXT NOT NULL REFERENCES companies (id),
    environment       TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    file_id           TEXT NOT NULL UNIQUE,
    state             TEXT NOT NULL CHECK (state IN ('received', 'booked', 'refused')),
    syntax            TEXT NOT NULL CHECK (syntax IN ('cii', 'ubl')),
    valid             INTEGER NOT NULL CHECK (valid IN (0, 1)),
    -- JSON: [{rule, sentence}]
    findings          TEXT NOT NULL,
    supplier_id       TEXT,
    supplier_name     TEXT NOT NULL,
    supplier_vat_id   TEXT,
    document_number   TEXT NOT NULL,
    type_code         INTEGER NOT NULL,
    issued_on         TEXT NOT NULL,
    due_on            TEXT,
    currency          TEXT NOT NULL CHECK (currency GLOB '[A-Z][A-Z][A-Z]'),
    line_count        INTEGER NOT NULL,
    line_total        INTEGER NOT NULL,
    tax_exclusive     INTEGER NOT NULL,
    tax               INTEGER NOT NULL,
    tax_inclusive     INTEGER NOT NULL,
    payable           INTEGER NOT NULL,
    -- JSON: [{category, rate, base, amount}]
    taxes             TEXT NOT NULL,
    -- how the bill is paid: what the payer gives (BT-83) and to which account
    payment_reference TEXT,
    iban              TEXT,
    bic               TEXT,
    refused_reason    TEXT,
    decided_at        TEXT,
    received_at       TEXT NOT NULL,
    CHECK ((state = 'refused') = (refused_reason IS NOT NULL)),
    UNIQUE (id, company_id, environment),
    FOREIGN KEY (file_id, company_id, environment) REFERENCES received_files (id, company_id, environment),
    FOREIGN KEY (supplier_id, company_id, environment) REFERENCES customers (id, company_id, environment)
) STRICT;
CREATE INDEX bills_tenant ON bills (company_id, environment, state, seq);
CREATE INDEX bills_number ON bills (company_id, environment, document_number);

-- A purchase's lines (a received bill's; typed bills have none) and its
-- amounts per tax key, signed as the purchase is (a credit negative); a
-- reverse charge received carries the VAT it self-assesses.
CREATE TABLE purchase_lines (
    purchase_id  TEXT NOT NULL REFERENCES purchases (id),
    seq          INTEGER NOT NULL,
    line_id      TEXT NOT NULL,
    description  TEXT NOT NULL,
    quantity     TEXT NOT NULL,
    unit         TEXT NOT NULL,
    unit_price   TEXT NOT NULL,
    net          INTEGER NOT NULL,
    vat_category TEXT NOT NULL,
    vat_rate     TEXT NOT NULL,
    PRIMARY KEY (purchase_id, seq)
) STRICT;
CREATE TABLE purchase_taxes (
    purchase_id  TEXT NOT NULL REFERENCES purchases (id),
    seq          INTEGER NOT NULL,
    tax_key      TEXT NOT NULL,
    vat_category TEXT,
    vat_rate     TEXT,
    base         INTEGER NOT NULL,
    amount       INTEGER NOT NULL,
    base_book    INTEGER NOT NULL,
    amount_book  INTEGER NOT NULL,
    reverse_book INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (purchase_id, seq)
) STRICT;

-- Where paying a bill and matching its bank line look: the payment
-- reference and the account the supplier named.
ALTER TABLE purchases ADD COLUMN payment_reference TEXT;
ALTER TABLE purchases ADD COLUMN payee_iban TEXT;

-- A supplier whose valid e-invoices are booked as they arrive.
ALTER TABLE customers ADD COLUMN trusted_supplier INTEGER NOT NULL DEFAULT 0 CHECK (trusted_supplier IN (0, 1));
