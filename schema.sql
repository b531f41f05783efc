-- The kontor data file: the whole current schema, applied to a fresh file.
-- `PRAGMA user_version` records the version a data file carries; numbered
-- migrations bring an older file up to this one (see src/store/migrations/).
--
-- Conventions:
-- * every table is STRICT;
-- * `seq` is the insertion order (newest first = seq DESC), `id` the opaque
--   public identifier with its type prefix;
-- * every company-owned row carries `company_id` and `environment`
--   ('PRODUCTION' or 'SANDBOX'); every query filters on both, and a row that
--   points to another company-owned row does so by (id, company_id,
--   environment), so it cannot point into another company or environment;
-- * amounts carry CHECKs on their sign, currencies on their shape (three
--   capital letters; the ISO list is checked by the program);
-- * instants are TEXT `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC, fixed width so text order is
--   time order); calendar dates are TEXT `YYYY-MM-DD`.

CREATE TABLE companies (
    seq            INTEGER PRIMARY KEY,
    id             TEXT NOT NULL UNIQUE,
    name           TEXT NOT NULL,
    country        TEXT NOT NULL,
    currency       TEXT NOT NULL CHECK (currency GLOB '[A-Z][A-Z][A-Z]'),
    plan           TEXT NOT NULL CHECK (plan IN ('STARTER', 'PROFESSIONAL', 'ENTERPRISE')),
    invoice_prefix TEXT NOT NULL DEFAULT '',
    payment_days   INTEGER,
    timezone       TEXT NOT NULL,
    -- the workflow: stage keys separated by ',' in order; the first is the start
    workflow       TEXT NOT NULL,
    created_at     TEXT NOT NULL,
    -- The seller's particulars (§14 UStG, §35a GmbHG, EN 16931 BG-4), set by
    -- a person; each may be absent (a file of version 2 has none). Checked by
    -- the program: the IBAN and BIC upper case without spaces, the VAT id
    -- compact, the electronic address `SCHEME:VALUE` with a scheme of the EAS list.
    legal_name                TEXT,
    street                    TEXT,
    postal_code               TEXT,
    city                      TEXT,
    vat_id                    TEXT,
    tax_number                TEXT,
    registration              TEXT,
    contact_name              TEXT,
    contact_phone             TEXT,
    contact_email             TEXT,
    electronic_address        TEXT,
    iban                      TEXT,
    bic                       TEXT,
    account_holder            TEXT,
    managing_directors        TEXT,
    -- §19 UStG: invoices charge no VAT and say why
    small_business            INTEGER NOT NULL DEFAULT 0 CHECK (small_business IN (0, 1)),
    -- How much less than open a bank line may pay to be fee-reduced rather
    -- than partial (version 10; minor units).
    fee_tolerance             INTEGER NOT NULL DEFAULT 0 CHECK (fee_tolerance >= 0),
    -- What the tax adviser's DATEV import needs (version 13): the chart of
    -- accounts, the adviser's and client's numbers (none until set), and
    -- the first day of the fiscal year as MM-DD.
    chart             TEXT NOT NULL DEFAULT 'skr03' CHECK (chart IN ('skr03', 'skr04')),
    datev_adviser     INTEGER CHECK (datev_adviser BETWEEN 1001 AND 9999999),
    datev_client      INTEGER CHECK (datev_client BETWEEN 1 AND 99999),
    fiscal_year_start TEXT NOT NULL DEFAULT '01-01' CHECK (fiscal_year_start GLOB '[01][0-9]-[0-3][0-9]'),
    -- The legal form (version 23; none until set): whether the company may
    -- determine its profit by the EÜR (rules::tax_methods).
    legal_form TEXT CHECK (legal_form IN (
        'SOLE_PROPRIETOR', 'REGISTERED_TRADER', 'GBR', 'PARTG', 'OHG', 'KG', 'GMBH_CO_KG',
        'GMBH', 'UG', 'AG'))
) STRICT;

CREATE TABLE api_keys (
    seq          INTEGER PRIMARY KEY,
    id           TEXT NOT NULL UNIQUE,
    company_id   TEXT NOT NULL REFERENCES companies (id),
    environment  TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    name         TEXT NOT NULL,
    -- lowercase hex SHA-256 of the whole key; the key itself is never stored
    secret_hash  TEXT NOT NULL UNIQUE,
    display      TEXT NOT NULL,
    -- scope names separated by ','
    scopes       TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    expires_at   TEXT,
    revoked_at   TEXT,
    last_used_at TEXT
) STRICT;
CREATE INDEX api_keys_company ON api_keys (company_id, seq);
-- what a composite reference into the keys points at (version 15)
CREATE UNIQUE INDEX api_keys_tenant ON api_keys (id, company_id, environment);

-- The generation of what a key may do: a server keeps keys in memory and
-- reads this one row on every request; any change that could make a kept key
-- wrong (a key made, revoked or changed; a company's plan or name changed,
-- by any process) moves it on, and the server reads its keys afresh.
CREATE TABLE key_generation (
    one   INTEGER PRIMARY KEY CHECK (one = 1),
    value INTEGER NOT NULL
) STRICT;
INSERT INTO key_generation (one, value) VALUES (1, 0);
CREATE TRIGGER api_keys_made AFTER INSERT ON api_keys BEGIN
    UPDATE key_generation SET value = value + 1;
END;
CREATE TRIGGER api_keys_changed AFTER UPDATE OF revoked_at, expires_at, scopes, environment, company_id, secret_hash, name ON api_keys BEGIN
    UPDATE key_generation SET value = value + 1;
END;
CREATE TRIGGER companies_plan_changed AFTER UPDATE OF plan, name ON companies BEGIN
    UPDATE key_generation SET value = value + 1;
END;

-- Numbering sequences: one row per (company, environment, series). `series`
-- names the sequence, e.g. 'customer' or 'transaction:2026'. Incremented inside
-- the creating transaction, so numbers are gapless and never reused.
CREATE TABLE counters (
    company_id  TEXT NOT NULL REFERENCES companies (id),
    environment TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    series      TEXT NOT NULL,
    value       INTEGER NOT NULL,
    PRIMARY KEY (company_id, environment, series)
) STRICT, WITHOUT ROWID;

CREATE TABLE idempotency_keys (
    company_id   TEXT NOT NULL REFERENCES companies (id),
    environment  TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    key          TEXT NOT NULL,
    -- SHA-256 of method, path and the canonical JSON body
    fingerprint  TEXT NOT NULL,
    status       INTEGER NOT NULL,
    resource_id  TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    PRIMARY KEY (company_id, environment, key)
) STRICT, WITHOUT ROWID;
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

CREATE TABLE customers (
    seq          INTEGER PRIMARY KEY,
    id           TEXT NOT NULL UNIQUE,
    company_id   TEXT NOT NULL REFERENCES companies (id),
    environment  TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    number       TEXT NOT NULL,
    name         TEXT NOT NULL,
    contact      TEXT,
    email        TEXT,
    phone        TEXT,
    street       TEXT NOT NULL,
    postal_code  TEXT NOT NULL,
    city         TEXT NOT NULL,
    country      TEXT NOT NULL,
    vat_id       TEXT,
    currency     TEXT CHECK (currency GLOB '[A-Z][A-Z][A-Z]'),
    is_customer  INTEGER NOT NULL,
    is_supplier  INTEGER NOT NULL,
    archived     INTEGER NOT NULL DEFAULT 0,
    payment_days INTEGER,
    created_at   TEXT NOT NULL,
    -- The buyer's particulars for e-invoices (version 3): the buyer reference
    -- (BT-10, a Leitweg-ID for German public buyers), the electronic address
    -- (BT-49, `SCHEME:VALUE` with a scheme of the EAS list), and the format the
    -- customer receives.
    buyer_reference           TEXT,
    electronic_address        TEXT,
    einvoice_format           TEXT NOT NULL DEFAULT 'facturx' CHECK (einvoice_format IN ('facturx', 'xrechnung', 'peppol')),
    -- For payments and mail (version 8): the partner's bank account (an
    -- IBAN, compact), where invoices are sent (none: `email`), whether the
    -- customer is a consumer rather than a business, and the language of
    -- what kontor sends (none: by the customer's country).
    iban                      TEXT,
    invoice_email             TEXT,
    consumer                  INTEGER NOT NULL DEFAULT 0 CHECK (consumer IN (0, 1)),
    language                  TEXT CHECK (language IN ('de', 'en')),
    -- A supplier whose valid e-invoices are booked as they arrive (version 11).
    trusted_supplier          INTEGER NOT NULL DEFAULT 0 CHECK (trusted_supplier IN (0, 1)),
    UNIQUE (company_id, environment, number),
    UNIQUE (id, company_id, environment)
) STRICT;
CREATE INDEX customers_tenant ON customers (company_id, environment, seq);
CREATE INDEX customers_name ON customers (company_id, environment, name COLLATE NOCASE);
CREATE INDEX customers_number ON customers (company_id, environment, number COLLATE NOCASE);

-- Substring search over name, number, e-mail and city: an FTS5 trigram
-- index (case folded), kept by triggers; a search of three characters or
-- more reads it instead of scanning every customer.
CREATE VIRTUAL TABLE customers_fts USING fts5 (
    name, number, email, city,
    content = 'customers', content_rowid = 'seq',
    tokenize = 'trigram'
);
CREATE TRIGGER customers_fts_insert AFTER INSERT ON customers BEGIN
    INSERT INTO customers_fts (rowid, name, number, email, city)
    VALUES (new.seq, new.name, new.number, coalesce(new.email, ''), new.city);
END;
CREATE TRIGGER customers_fts_update AFTER UPDATE OF name, number, email, city ON customers BEGIN
    INSERT INTO customers_fts (customers_fts, rowid, name, number, email, city)
    VALUES ('delete', old.seq, old.name, old.number, coalesce(old.email, ''), old.city);
    INSERT INTO customers_fts (rowid, name, number, email, city)
    VALUES (new.seq, new.name, new.number, coalesce(new.email, ''), new.city);
END;

-- How often a company's partners (customers and suppliers) have changed in
-- one environment: the triggers move it on at every insert, update or
-- delete of a customers row, in whichever process writes, so a server that
-- keeps a page of customers can tell in its reader's snapshot, by this one
-- row, whether the page still holds (no row: no change yet).
CREATE TABLE customer_changes (
    company_id  TEXT NOT NULL,
    environment TEXT NOT NULL,
    value       INTEGER NOT NULL,
    PRIMARY KEY (company_id, environment)
) STRICT, WITHOUT ROWID;
CREATE TRIGGER customers_changed_insert AFTER INSERT ON customers BEGIN
    INSERT OR IGNORE INTO customer_changes (company_id, environment, value)
    VALUES (new.company_id, new.environment, 0);
    UPDATE customer_changes SET value = value + 1
    WHERE company_id = new.company_id AND environment = new.environment;
END;
CREATE TRIGGER customers_changed_update AFTER UPDATE ON customers BEGIN
    INSERT OR IGNORE INTO customer_changes (company_id, environment, value)
    VALUES (new.company_id, new.environment, 0);
    UPDATE customer_changes SET value = value + 1
    WHERE company_id = new.company_id AND environment = new.environment;
END;
CREATE TRIGGER customers_changed_delete AFTER DELETE ON customers BEGIN
    INSERT OR IGNORE INTO customer_changes (company_id, environment, value)
    VALUES (old.company_id, old.environment, 0);
    UPDATE customer_changes SET value = value + 1
    WHERE company_id = old.company_id AND environment = old.environment;
END;

CREATE TABLE transactions (
    seq          INTEGER PRIMARY KEY,
    id           TEXT NOT NULL UNIQUE,
    company_id   TEXT NOT NULL REFERENCES companies (id),
    environment  TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    number       TEXT NOT NULL,
    title        TEXT NOT NULL,
    description  TEXT,
    stage        TEXT NOT NULL,
    customer_id  TEXT,
    due_on       TEXT,
    -- the date the work started: the creation date in the company's time zone
    started_on   TEXT NOT NULL,
    archived     INTEGER NOT NULL DEFAULT 0,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    UNIQUE (company_id, environment, number),
    UNIQUE (id, company_id, environment),
    FOREIGN KEY (customer_id, company_id, environment) REFERENCES customers (id, company_id, environment)
) STRICT;
CREATE INDEX transactions_tenant ON transactions (company_id, environment, seq);
CREATE INDEX transactions_started ON transactions (company_id, environment, started_on);

-- Full-text index over number, title and description, kept by triggers.
CREATE VIRTUAL TABLE transactions_fts USING fts5 (
    number, title, description,
    content = 'transactions', content_rowid = 'seq',
    tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER transactions_fts_insert AFTER INSERT ON transactions BEGIN
    INSERT INTO transactions_fts (rowid, number, title, description)
    VALUES (new.seq, new.number, new.title, coalesce(new.description, ''));
END;
CREATE TRIGGER transactions_fts_update AFTER UPDATE OF number, title, description ON transactions BEGIN
    INSERT INTO transactions_fts (transactions_fts, rowid, number, title, description)
    VALUES ('delete', old.seq, old.number, old.title, coalesce(old.description, ''));
    INSERT INTO transactions_fts (rowid, number, title, description)
    VALUES (new.seq, new.number, new.title, coalesce(new.description, ''));
END;

CREATE TABLE transaction_notes (
    seq            INTEGER PRIMARY KEY,
    id             TEXT NOT NULL UNIQUE,
    company_id     TEXT NOT NULL REFERENCES companies (id),
    environment    TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    transaction_id TEXT NOT NULL,
    text           TEXT NOT NULL,
    author         TEXT NOT NULL,
    created_at     TEXT NOT NULL,
    FOREIGN KEY (transaction_id, company_id, environment) REFERENCES transactions (id, company_id, environment)
) STRICT;
CREATE INDEX transaction_notes_transaction ON transaction_notes (transaction_id, seq);

-- ---------------------------------------------------------------------------
-- The books. Amounts are INTEGER minor units; `*_book` columns are in the
-- company's book currency at the rate fixed when the document was recorded.
-- Quantities and rates are TEXT exact decimals.

-- Invoice and quote drafts: not documents yet, no number, no legal effect.
CREATE TABLE drafts (
    seq           INTEGER PRIMARY KEY,
    id            TEXT NOT NULL UNIQUE,
    company_id    TEXT NOT NULL REFERENCES companies (id),
    environment   TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    document_type TEXT NOT NULL CHECK (document_type IN ('INVOICE', 'QUOTE')),
    customer_id   TEXT NOT NULL,
    currency      TEXT NOT NULL CHECK (currency GLOB '[A-Z][A-Z][A-Z]'),
    state         TEXT NOT NULL CHECK (state IN ('DRAFT', 'ISSUED')),
    invoice_id    TEXT,
    created_at    TEXT NOT NULL,
    -- What the draft's invoice will say beyond its lines (version 3): a buyer
    -- reference of its own (none: the customer's applies), the buyer's order
    -- (BT-13), and the delivery period (BG-14), dates from ≤ to.
    buyer_reference TEXT,
    order_reference TEXT,
    period_start    TEXT,
    period_end      TEXT CHECK ((period_start IS NULL) = (period_end IS NULL) AND (period_end IS NULL OR period_start <= period_end)),
    CHECK ((state = 'ISSUED') = (invoice_id IS NOT NULL)),
    UNIQUE (id, company_id, environment),
    FOREIGN KEY (customer_id, company_id, environment) REFERENCES customers (id, company_id, environment),
    FOREIGN KEY (invoice_id, company_id, environment) REFERENCES invoices (id, company_id, environment)
) STRICT;
CREATE INDEX drafts_tenant ON drafts (company_id, environment, state, created_at);

CREATE TABLE draft_lines (
    seq         INTEGER PRIMARY KEY,
    draft_id    TEXT NOT NULL REFERENCES drafts (id),
    description TEXT NOT NULL,
    quantity    TEXT NOT NULL,
    unit_price  INTEGER NOT NULL CHECK (unit_price >= 0),
    -- JSON array of {name, rate, reason}; empty when no tax decision was made
    taxes       TEXT NOT NULL,
    -- UN/ECE Recommendation 20 unit code
    unit         TEXT NOT NULL DEFAULT 'C62',
    -- the VAT category (UNTDID 5305 as EN 16931 uses it); none: S above 0 %
    vat_category TEXT CHECK (vat_category IN ('S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M')),
    exemption_code TEXT
) STRICT;
CREATE INDEX draft_lines_draft ON draft_lines (draft_id, seq);

-- Issued documents (invoices and their corrections): frozen at issue, never
-- deleted; only `outstanding*`, `paid_on` and `cancelled_*` move afterwards.
CREATE TABLE invoices (
    seq               INTEGER PRIMARY KEY,
    id                TEXT NOT NULL UNIQUE,
    company_id        TEXT NOT NULL REFERENCES companies (id),
    environment       TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    document_type     TEXT NOT NULL CHECK (document_type IN ('INVOICE', 'CORRECTION')),
    number            TEXT NOT NULL,
    -- the draft it was issued from (none for a correction)
    draft_id          TEXT UNIQUE,
    customer_id       TEXT NOT NULL,
    buyer_name        TEXT NOT NULL,
    buyer_street      TEXT NOT NULL,
    buyer_postal_code TEXT NOT NULL,
    buyer_city        TEXT NOT NULL,
    buyer_country     TEXT NOT NULL,
    buyer_vat_id      TEXT,
    currency          TEXT NOT NULL CHECK (currency GLOB '[A-Z][A-Z][A-Z]'),
    -- book-currency units per unit of `currency`
    rate              TEXT NOT NULL,
    issued_on         TEXT NOT NULL,
    due_on            TEXT NOT NULL,
    delivered_on      TEXT NOT NULL,
    net               INTEGER NOT NULL,
    tax               INTEGER NOT NULL,
    gross             INTEGER NOT NULL,
    gross_book        INTEGER NOT NULL,
    outstanding       INTEGER NOT NULL,
    outstanding_book  INTEGER NOT NULL,
    paid_on           TEXT,
    payment_sentence  TEXT NOT NULL,
    corrects_id       TEXT,
    cancelled_by_id   TEXT,
    cancel_reason     TEXT,
    recorded_at       TEXT NOT NULL,
    -- why the invoice lacks documents (issued before kontor wrote them, or
    -- EN 16931 cannot carry it); none when it has them all
    documents_note    TEXT,
    -- the ISO 11649 creditor reference it was issued with (version 10;
    -- none for invoices issued before)
    payment_reference TEXT,
    -- an invoice owes what it is worth or less; a correction reverses one and owes nothing
    CHECK (gross = net + tax),
    CHECK (document_type <> 'INVOICE' OR (net >= 0 AND tax >= 0 AND gross > 0 AND gross_book > 0
        AND outstanding BETWEEN 0 AND gross AND outstanding_book BETWEEN 0 AND gross_book)),
    CHECK (document_type <> 'CORRECTION' OR (net <= 0 AND tax <= 0 AND gross < 0 AND gross_book < 0
        AND outstanding = 0 AND outstanding_book = 0)),
    UNIQUE (company_id, environment, number),
    UNIQUE (id, company_id, environment),
    FOREIGN KEY (customer_id, company_id, environment) REFERENCES customers (id, company_id, environment),
    FOREIGN KEY (draft_id, company_id, environment) REFERENCES drafts (id, company_id, environment),
    FOREIGN KEY (corrects_id, company_id, environment) REFERENCES invoices (id, company_id, environment),
    FOREIGN KEY (cancelled_by_id, company_id, environment) REFERENCES invoices (id, company_id, environment)
) STRICT;
CREATE INDEX invoices_issued ON invoices (company_id, environment, issued_on, seq);
CREATE INDEX invoices_open ON invoices (company_id, environment, issued_on, seq) WHERE outstanding <> 0;

CREATE TABLE invoice_lines (
    seq         INTEGER PRIMARY KEY,
    invoice_id  TEXT NOT NULL REFERENCES invoices (id),
    description TEXT NOT NULL,
    quantity    TEXT NOT NULL,
    unit_price  INTEGER NOT NULL CHECK (unit_price >= 0),
    net         INTEGER NOT NULL,
    -- frozen at issue: unit, VAT category, rate and exemption (none on
    -- invoices issued before kontor recorded them)
    unit             TEXT NOT NULL DEFAULT 'C62',
    vat_category     TEXT CHECK (vat_category IN ('S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M')),
    vat_rate         TEXT,
    exemption_reason TEXT,
    exemption_code   TEXT
) STRICT;
CREATE INDEX invoice_lines_invoice ON invoice_lines (invoice_id, seq);

CREATE TABLE invoice_taxes (
    seq        INTEGER PRIMARY KEY,
    invoice_id TEXT NOT NULL REFERENCES invoices (id),
    name       TEXT NOT NULL,
    rate       TEXT NOT NULL,
    reason     TEXT,
    base       INTEGER NOT NULL,
    amount     INTEGER NOT NULL,
    -- the VAT category of the lines taxed (none before kontor recorded it)
    vat_category TEXT CHECK (vat_category IN ('S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M'))
) STRICT;
CREATE INDEX invoice_taxes_invoice ON invoice_taxes (invoice_id, seq);

-- The documents of an issued invoice, written once at issue and served
-- unchanged: the bytes and their SHA-256 (lowercase hex).
CREATE TABLE invoice_documents (
    seq         INTEGER PRIMARY KEY,
    invoice_id  TEXT NOT NULL,
    company_id  TEXT NOT NULL REFERENCES companies (id),
    environment TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    format      TEXT NOT NULL CHECK (format IN ('facturx', 'cii', 'xrechnung', 'peppol')),
    content     BLOB NOT NULL,
    sha256      TEXT NOT NULL CHECK (length(sha256) = 64),
    UNIQUE (invoice_id, format),
    FOREIGN KEY (invoice_id, company_id, environment) REFERENCES invoices (id, company_id, environment)
) STRICT;

-- Incoming purchase documents (bills and supplier credits).
CREATE TABLE purchases (
    seq              INTEGER PRIMARY KEY,
    id               TEXT NOT NULL UNIQUE,
    company_id       TEXT NOT NULL REFERENCES companies (id),
    environment      TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    supplier_id      TEXT NOT NULL,
    kind             TEXT NOT NULL CHECK (kind IN ('bill', 'credit')),
    document_number  TEXT NOT NULL,
    document_date    TEXT NOT NULL,
    due_on           TEXT NOT NULL,
    currency         TEXT NOT NULL CHECK (currency GLOB '[A-Z][A-Z][A-Z]'),
    rate             TEXT NOT NULL,
    net              INTEGER NOT NULL,
    tax              INTEGER NOT NULL,
    gross            INTEGER NOT NULL,
    gross_book       INTEGER NOT NULL,
    outstanding      INTEGER NOT NULL,
    outstanding_book INTEGER NOT NULL,
    paid_on          TEXT,
    recorded_at      TEXT NOT NULL,
    -- Where paying the bill and matching its bank line look (version 11):
    -- the reference the supplier asks the payer to give, and its account.
    payment_reference TEXT,
    payee_iban        TEXT,
    -- The day the bill is booked (version 18): its entry's date, which
    -- decides its VAT period; the document date unless the bill came late
    -- into closed books or a person chose another.
    posted_on         TEXT NOT NULL DEFAULT '',
    -- The bill's receipt (version 18): a file of received_files, kept as
    -- it arrived (a typed bill's PDF or image; none for a received
    -- e-invoice, whose file is its bill's).
    receipt_file_id   TEXT,
    -- The cash discount the supplier grants (version 19), as a received
    -- e-invoice's payment terms state it: the last day to take it and its
    -- percent (a decimal as written, "2" or "2.5"); none when it grants none.
    discount_until    TEXT,
    discount_percent  TEXT,
    -- Whether the supplier taxes on payments received (version 24): from
    -- 2028 its input tax is deductible only as paid (§ 15 (1) UStG); and
    -- whether the bill is a down payment, whose input tax counts when paid.
    supplier_cash_basis INTEGER NOT NULL DEFAULT 0 CHECK (supplier_cash_basis IN (0, 1)),
    down_payment        INTEGER NOT NULL DEFAULT 0 CHECK (down_payment IN (0, 1)),
    -- a bill owes what it is worth or less; a supplier's credit is booked negated
    CHECK (gross = net + tax),
    CHECK (kind <> 'bill' OR (net >= 0 AND tax >= 0 AND gross > 0 AND gross_book > 0
        AND outstanding BETWEEN 0 AND gross AND outstanding_book BETWEEN 0 AND gross_book)),
    CHECK (kind <> 'credit' OR (net <= 0 AND tax <= 0 AND gross < 0 AND gross_book < 0
        AND outstanding BETWEEN gross AND 0 AND outstanding_book BETWEEN gross_book AND 0)),
    UNIQUE (company_id, environment, supplier_id, document_number),
    UNIQUE (id, company_id, environment),
    FOREIGN KEY (supplier_id, company_id, environment) REFERENCES customers (id, company_id, environment)
) STRICT;
CREATE INDEX purchases_tenant ON purchases (company_id, environment, document_date, seq);

-- Money moving in (against an invoice) or out (against a bill).
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
    -- why a person took a payment recorded by hand back (version 17; none
    -- for a bank line's undo)
    reversal_reason TEXT,
    CHECK ((direction = 'in' AND invoice_id IS NOT NULL AND purchase_id IS NULL)
        OR (direction = 'out' AND purchase_id IS NOT NULL AND invoice_id IS NULL)),
    UNIQUE (id, company_id, environment),
    FOREIGN KEY (invoice_id, company_id, environment) REFERENCES invoices (id, company_id, environment),
    FOREIGN KEY (purchase_id, company_id, environment) REFERENCES purchases (id, company_id, environment),
    FOREIGN KEY (bank_line_id, company_id, environment) REFERENCES bank_lines (id, company_id, environment)
) STRICT;
CREATE INDEX payments_invoice ON payments (invoice_id) WHERE invoice_id IS NOT NULL;
CREATE INDEX payments_purchase ON payments (purchase_id) WHERE purchase_id IS NOT NULL;

-- A supplier's credit applied to a bill of the same supplier: no money moves;
-- the bill owes less and the credit has less left.
CREATE TABLE credit_applications (
    seq         INTEGER PRIMARY KEY,
    id          TEXT NOT NULL UNIQUE,
    company_id  TEXT NOT NULL REFERENCES companies (id),
    environment TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    credit_id   TEXT NOT NULL,
    bill_id     TEXT NOT NULL,
    currency    TEXT NOT NULL CHECK (currency GLOB '[A-Z][A-Z][A-Z]'),
    amount      INTEGER NOT NULL CHECK (amount > 0),
    amount_book INTEGER NOT NULL CHECK (amount_book > 0),
    applied_on  TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    CHECK (credit_id <> bill_id),
    FOREIGN KEY (credit_id, company_id, environment) REFERENCES purchases (id, company_id, environment),
    FOREIGN KEY (bill_id, company_id, environment) REFERENCES purchases (id, company_id, environment)
) STRICT;
CREATE INDEX credit_applications_credit ON credit_applications (credit_id);
CREATE INDEX credit_applications_bill ON credit_applications (bill_id);

-- The journal: balanced double-entry lines in the book currency, one entry
-- per act, named by the act's record id.
CREATE TABLE journal (
    seq         INTEGER PRIMARY KEY,
    company_id  TEXT NOT NULL REFERENCES companies (id),
    environment TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    entry       TEXT NOT NULL,
    posted_on   TEXT NOT NULL,
    account     TEXT NOT NULL,
    debit       INTEGER NOT NULL CHECK (debit >= 0),
    credit      INTEGER NOT NULL CHECK (credit >= 0),
    -- within the account (version 8): the partner's id on receivables and
    -- payables, the bank account's id on bank, the tax key (`S:19`,
    -- `AE:0:EU`, …) on revenue, expenses and the taxes; '' for none
    detail      TEXT NOT NULL DEFAULT '',
    -- the account of the chart a person chose for the line (version 16): a
    -- standard account's key (`rent`) or a company's own account's number
    -- (`4711`); '' where the ledger account and detail decide
    -- (rules::skr)
    chart       TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX journal_entry ON journal (entry);
CREATE INDEX journal_day ON journal (company_id, environment, posted_on, seq);

-- The journal summed per account, detail and day, kept in the same
-- transaction, so balances as of any date read a few rows per day instead of
-- every line. The partners of receivables and payables are summed under ''.
CREATE TABLE account_days (
    company_id  TEXT NOT NULL REFERENCES companies (id),
    environment TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    account     TEXT NOT NULL,
    detail      TEXT NOT NULL DEFAULT '',
    posted_on   TEXT NOT NULL,
    debit       INTEGER NOT NULL,
    credit      INTEGER NOT NULL,
    -- the chart's account a person chose (version 16; see journal.chart)
    chart       TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (company_id, environment, account, detail, chart, posted_on)
) STRICT, WITHOUT ROWID;

-- Open receivables and payables in the book currency, as changes summed per
-- (day of the change, due date): the outstanding report as of any date sums
-- the rows up to that day.
CREATE TABLE open_items (
    company_id   TEXT NOT NULL REFERENCES companies (id),
    environment  TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    side         TEXT NOT NULL CHECK (side IN ('receivable', 'payable')),
    effective_on TEXT NOT NULL,
    due_on       TEXT NOT NULL,
    amount       INTEGER NOT NULL,
    documents    INTEGER NOT NULL,
    PRIMARY KEY (company_id, environment, side, effective_on, due_on)
) STRICT, WITHOUT ROWID;

-- How many issued documents there are, open and paid, per tenant: the list
-- totals without counting rows.
CREATE TABLE invoice_tallies (
    company_id  TEXT NOT NULL REFERENCES companies (id),
    environment TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    tally       TEXT NOT NULL CHECK (tally IN ('all', 'open', 'paid')),
    value       INTEGER NOT NULL,
    PRIMARY KEY (company_id, environment, tally)
) STRICT, WITHOUT ROWID;

-- Closed books: acts dated on or before `through` are refused.
CREATE TABLE books_closed (
    company_id  TEXT NOT NULL REFERENCES companies (id),
    environment TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    through     TEXT NOT NULL,
    closed_at   TEXT NOT NULL,
    PRIMARY KEY (company_id, environment)
) STRICT, WITHOUT ROWID;

-- The outbox: every act writes its events here in its own transaction. The
-- body is the flat, sorted, all-string JSON object sent to receivers,
-- serialised once.
CREATE TABLE events (
    seq         INTEGER PRIMARY KEY,
    id          TEXT NOT NULL UNIQUE,
    company_id  TEXT NOT NULL REFERENCES companies (id),
    environment TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    kind        TEXT NOT NULL,
    subject     TEXT NOT NULL,
    body        TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    UNIQUE (id, company_id, environment)
) STRICT;
CREATE INDEX events_subject ON events (subject);

-- ---------------------------------------------------------------------------
-- Webhooks. Endpoints belong to a company and an environment; the act that
-- writes an event also writes one delivery per enabled endpoint subscribed to
-- its kind (the outbox's fan-out), and the delivery worker works them off.

CREATE TABLE webhook_endpoints (
    seq         INTEGER PRIMARY KEY,
    id          TEXT NOT NULL UNIQUE,
    company_id  TEXT NOT NULL REFERENCES companies (id),
    environment TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    url         TEXT NOT NULL,
    -- event kinds separated by ',', or '*' for all
    events      TEXT NOT NULL,
    description TEXT,
    -- the signing secret, whole (`whsec_…`); shown only to the key that
    -- registered the endpoint, in the answer to its registration (and its
    -- replays while the endpoint is enabled)
    secret      TEXT NOT NULL,
    enabled     INTEGER NOT NULL,
    -- the key that registered it (none for endpoints older than version 2)
    created_by  TEXT,
    created_at  TEXT NOT NULL,
    disabled_at TEXT,
    UNIQUE (id, company_id, environment)
) STRICT;
CREATE INDEX webhook_endpoints_tenant ON webhook_endpoints (company_id, environment, seq);

CREATE TABLE deliveries (
    seq             INTEGER PRIMARY KEY,
    id              TEXT NOT NULL UNIQUE,
    company_id      TEXT NOT NULL REFERENCES companies (id),
    environment     TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    endpoint_id     TEXT NOT NULL,
    event_id        TEXT NOT NULL,
    state           TEXT NOT NULL CHECK (state IN ('PENDING', 'DELIVERED', 'FAILED')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT,
    -- while a worker holds the delivery; a restart releases every lease
    lease_until     TEXT,
    last_status     INTEGER,
    last_error      TEXT,
    delivered_at    TEXT,
    created_at      TEXT NOT NULL,
    FOREIGN KEY (endpoint_id, company_id, environment) REFERENCES webhook_endpoints (id, company_id, environment),
    FOREIGN KEY (event_id, company_id, environment) REFERENCES events (id, company_id, environment)
) STRICT;
CREATE INDEX deliveries_endpoint ON deliveries (endpoint_id, seq);
CREATE INDEX deliveries_pending ON deliveries (endpoint_id, seq) WHERE state = 'PENDING';

CREATE TABLE delivery_attempts (
    seq         INTEGER PRIMARY KEY,
    delivery_id TEXT NOT NULL REFERENCES deliveries (id),
    attempt     INTEGER NOT NULL,
    started_at  TEXT NOT NULL,
    status      INTEGER,
    duration_ms INTEGER NOT NULL,
    error       TEXT,
    -- the first 1 KiB of the answer
    response    TEXT
) STRICT;
CREATE INDEX delivery_attempts_delivery ON delivery_attempts (delivery_id, seq);

-- People who use the screens, the companies they belong to with one role in
-- each, their server-side sessions, and who did what.

-- A person: one e-mail address (stored lower case), one password (an
-- Argon2id PHC string; the password itself is never stored).
CREATE TABLE users (
    seq           INTEGER PRIMARY KEY,
    id            TEXT NOT NULL UNIQUE,
    email         TEXT NOT NULL UNIQUE,
    name          TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    -- the screens' language chosen by the person; NULL: the browser's
    locale        TEXT CHECK (locale IN ('de', 'en')),
    disabled_at   TEXT,
    created_at    TEXT NOT NULL
) STRICT;

-- A person's role in a company (a tax adviser belongs to several; the
-- ADVISER role, version 21, reads everything and makes the exports).
CREATE TABLE memberships (
    user_id    TEXT NOT NULL REFERENCES users (id),
    company_id TEXT NOT NULL REFERENCES companies (id),
    role       TEXT NOT NULL CHECK (role IN ('OWNER', 'ACCOUNTANT', 'VIEWER', 'ADVISER')),
    created_at TEXT NOT NULL,
    -- disabled in this company by its owner: no session shows the company
    disabled_at TEXT,
    PRIMARY KEY (user_id, company_id)
) STRICT;
CREATE INDEX memberships_company ON memberships (company_id);

-- A signed-in browser: only the SHA-256 of the cookie's random id is kept.
-- The session shows one company in one environment at a time.
CREATE TABLE sessions (
    seq          INTEGER PRIMARY KEY,
    token_hash   TEXT NOT NULL UNIQUE,
    user_id      TEXT NOT NULL,
    company_id   TEXT NOT NULL,
    environment  TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    -- the token every form of this session carries
    csrf         TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    FOREIGN KEY (user_id, company_id) REFERENCES memberships (user_id, company_id)
) STRICT;
CREATE INDEX sessions_user ON sessions (user_id);

-- Who performed an act on a company's books, written by the act itself: a
-- person (`user_id`, `actor` their e-mail address), an API key (`key_id`,
-- `actor` its name) or the console without `--as` (`actor` 'system').
-- Event bodies stay as the contract defines them.
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

-- A one-time link a person opens without a session: an invitation to a
-- company (with the name and role it offers) or a password reset of a
-- person of the company. Only the SHA-256 of the link's random token is
-- kept; a link is used once and lives 24 hours from `created_at`. A newer
-- link of the same kind for the same person replaces an unused older one.
CREATE TABLE one_time_links (
    seq        INTEGER PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    kind       TEXT NOT NULL CHECK (kind IN ('INVITATION', 'RESET')),
    company_id TEXT NOT NULL REFERENCES companies (id),
    email      TEXT NOT NULL,
    name       TEXT,
    role       TEXT CHECK (role IN ('OWNER', 'ACCOUNTANT', 'VIEWER', 'ADVISER')),
    user_id    TEXT REFERENCES users (id),
    -- who made it; NULL: the console
    created_by TEXT REFERENCES users (id),
    created_at TEXT NOT NULL,
    used_at    TEXT,
    CHECK ((kind = 'INVITATION') = (name IS NOT NULL AND role IS NOT NULL)),
    CHECK ((kind = 'RESET') = (user_id IS NOT NULL))
) STRICT;
CREATE INDEX one_time_links_company ON one_time_links (company_id, kind, email);

-- Two-factor sign-in (version 22).

-- A person's authenticator app: the secret (base32) sealed under the key
-- file beside the data file (context `{user_id}/totp`), never in clear.
-- Until a first code confirms it, it is only being set up and does not count.
CREATE TABLE totp_factors (
    user_id      TEXT PRIMARY KEY REFERENCES users (id),
    secret       TEXT NOT NULL,
    confirmed_at TEXT,
    -- the RFC 6238 time step of the last code taken: a code is taken once
    last_step    INTEGER,
    created_at   TEXT NOT NULL
) STRICT;

-- A person's recovery codes, each good for one sign-in instead of a code
-- of the app; only the SHA-256 of the code is kept.
CREATE TABLE recovery_codes (
    seq        INTEGER PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id),
    code_hash  TEXT NOT NULL UNIQUE,
    used_at    TEXT,
    created_at TEXT NOT NULL
) STRICT;
CREATE INDEX recovery_codes_user ON recovery_codes (user_id);

-- A person's passkeys: the credential as the WebAuthn relying party keeps
-- it (its public key and counter, as JSON), under the name the person gave.
CREATE TABLE passkeys (
    seq           INTEGER PRIMARY KEY,
    id            TEXT NOT NULL UNIQUE,
    user_id       TEXT NOT NULL REFERENCES users (id),
    name          TEXT NOT NULL,
    -- base64url of the credential's id, as the browser names it
    credential_id TEXT NOT NULL UNIQUE,
    credential    TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    last_used_at  TEXT
) STRICT;
CREATE INDEX passkeys_user ON passkeys (user_id);

-- A sign-in whose password was right and whose second factor is awaited:
-- no session, it reads nothing. Only the SHA-256 of its cookie's random id
-- is kept; it lives five minutes.
CREATE TABLE sign_in_steps (
    seq           INTEGER PRIMARY KEY,
    token_hash    TEXT NOT NULL UNIQUE,
    user_id       TEXT NOT NULL REFERENCES users (id),
    -- the token the step's forms carry
    csrf          TEXT NOT NULL,
    -- the passkey challenge asked of the browser, while one is open
    passkey_state TEXT,
    created_at    TEXT NOT NULL
) STRICT;

-- A passkey registration waiting for the browser's answer, by the SHA-256
-- of the session that asked (one at a time per session).
CREATE TABLE passkey_registrations (
    session_hash TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (id),
    state        TEXT NOT NULL,
    created_at   TEXT NOT NULL
) STRICT;

-- A company whose people must all sign in with two factors, since when
-- and by whose act; none: each person chooses.
CREATE TABLE two_factor_required (
    company_id TEXT PRIMARY KEY REFERENCES companies (id),
    since      TEXT NOT NULL
) STRICT;

-- Bank statements (version 10): the company's bank accounts, the files
-- imported (with their SHA-256), their statements, entries and lines, and
-- what each line did.
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
-- what a composite reference into the statements points at (version 15)
CREATE UNIQUE INDEX bank_statements_tenant ON bank_statements (id, company_id, environment);

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
    -- what the reader changed to read the line, as a JSON array of sentences
    notes                TEXT NOT NULL DEFAULT '[]',
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
    -- the account of the chart the line's cost went to (version 16; '' for
    -- lines booked before, on the general account of their rate)
    account      TEXT NOT NULL DEFAULT '',
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


-- Invoices leaving kontor (mail, reminders, the VAT register at issue).

CREATE TABLE mail_settings (
    company_id      TEXT PRIMARY KEY REFERENCES companies (id),
    host            TEXT NOT NULL,
    port            INTEGER NOT NULL CHECK (port BETWEEN 1 AND 65535),
    security        TEXT NOT NULL CHECK (security IN ('tls', 'starttls', 'none')),
    user            TEXT,
    -- sealed under the key file beside the data file, never the password itself
    password_sealed TEXT CHECK (password_sealed IS NULL OR password_sealed GLOB 'v1.*'),
    from_address    TEXT NOT NULL,
    from_name       TEXT,
    reply_to        TEXT,
    bcc             TEXT,
    -- PEM certificates to trust besides the system's
    ca_pem          TEXT,
    -- whether an XML e-invoice goes with its PDF as a second attachment
    pdf_with_xml    INTEGER NOT NULL DEFAULT 1 CHECK (pdf_with_xml IN (0, 1)),
    updated_at      TEXT NOT NULL
) STRICT;

CREATE TABLE mail_templates (
    company_id TEXT NOT NULL REFERENCES companies (id),
    purpose    TEXT NOT NULL CHECK (purpose IN ('invoice', 'reminder')),
    language   TEXT NOT NULL CHECK (language IN ('de', 'en')),
    subject    TEXT NOT NULL,
    body       TEXT NOT NULL,
    PRIMARY KEY (company_id, purpose, language)
) STRICT, WITHOUT ROWID;

-- The mail outbox: the message as composed by the act, sent by the worker.
CREATE TABLE mails (
    seq             INTEGER PRIMARY KEY,
    id              TEXT NOT NULL UNIQUE,
    company_id      TEXT NOT NULL REFERENCES companies (id),
    environment     TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    -- a notice to a person (version 22): their two-factor sign-in reset
    purpose         TEXT NOT NULL CHECK (purpose IN ('invoice', 'reminder', 'test', 'notice')),
    invoice_id      TEXT,
    recipient       TEXT NOT NULL,
    envelope_from   TEXT NOT NULL,
    -- a JSON array of addresses: the recipient and the archive copy
    envelope_to     TEXT NOT NULL,
    subject         TEXT NOT NULL,
    message         BLOB NOT NULL,
    message_id      TEXT NOT NULL,
    state           TEXT NOT NULL CHECK (state IN ('queued', 'sent', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at TEXT,
    lease_until     TEXT,
    smtp_reply      TEXT,
    last_error      TEXT,
    sent_at         TEXT,
    created_at      TEXT NOT NULL,
    CHECK (state <> 'queued' OR next_attempt_at IS NOT NULL),
    CHECK (purpose IN ('test', 'notice') OR invoice_id IS NOT NULL),
    UNIQUE (id, company_id, environment),
    FOREIGN KEY (invoice_id, company_id, environment) REFERENCES invoices (id, company_id, environment)
) STRICT;
CREATE INDEX mails_queued ON mails (state, company_id, seq);
CREATE INDEX mails_of_invoice ON mails (invoice_id, seq);

CREATE TABLE mail_attempts (
    mail_id     TEXT NOT NULL REFERENCES mails (id),
    attempt     INTEGER NOT NULL,
    started_at  TEXT NOT NULL,
    duration_ms INTEGER NOT NULL,
    smtp_reply  TEXT,
    error       TEXT,
    PRIMARY KEY (mail_id, attempt)
) STRICT, WITHOUT ROWID;

-- A company's own ladder; without rows it uses the default one.
CREATE TABLE dunning_levels (
    company_id TEXT NOT NULL REFERENCES companies (id),
    level      INTEGER NOT NULL CHECK (level BETWEEN 1 AND 5),
    days       INTEGER NOT NULL CHECK (days BETWEEN 1 AND 365),
    fee        INTEGER NOT NULL CHECK (fee >= 0),
    interest   INTEGER NOT NULL CHECK (interest IN (0, 1)),
    pay_days   INTEGER NOT NULL CHECK (pay_days BETWEEN 1 AND 90),
    title_en   TEXT NOT NULL,
    title_de   TEXT NOT NULL,
    text_en    TEXT NOT NULL,
    text_de    TEXT NOT NULL,
    PRIMARY KEY (company_id, level)
) STRICT, WITHOUT ROWID;

-- Rows of the base-rate table an owner added to the shipped one.
CREATE TABLE base_rates (
    company_id TEXT NOT NULL REFERENCES companies (id),
    from_day   TEXT NOT NULL,
    percent    TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (company_id, from_day)
) STRICT, WITHOUT ROWID;

-- A reminder sent: what it stated, its PDF, and the mail that carried it.
CREATE TABLE reminders (
    seq              INTEGER PRIMARY KEY,
    id               TEXT NOT NULL UNIQUE,
    company_id       TEXT NOT NULL REFERENCES companies (id),
    environment      TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    invoice_id       TEXT NOT NULL,
    level            INTEGER NOT NULL CHECK (level BETWEEN 1 AND 5),
    on_day           TEXT NOT NULL,
    open             INTEGER NOT NULL CHECK (open > 0),
    fee              INTEGER NOT NULL CHECK (fee >= 0),
    interest         INTEGER NOT NULL CHECK (interest >= 0),
    interest_from    TEXT,
    interest_through TEXT,
    interest_percent TEXT,
    flat_sum         INTEGER CHECK (flat_sum IS NULL OR flat_sum > 0),
    new_due          TEXT NOT NULL,
    mail_id          TEXT,
    document         BLOB NOT NULL,
    created_at       TEXT NOT NULL,
    UNIQUE (invoice_id, level),
    FOREIGN KEY (invoice_id, company_id, environment) REFERENCES invoices (id, company_id, environment),
    FOREIGN KEY (mail_id, company_id, environment) REFERENCES mails (id, company_id, environment)
) STRICT;

-- What the VAT register answered when the invoice was issued. An invalid
-- id refuses the issue, so it is never kept with an invoice.
CREATE TABLE vat_checks (
    invoice_id   TEXT PRIMARY KEY,
    company_id   TEXT NOT NULL,
    environment  TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    vat_id       TEXT NOT NULL,
    register     TEXT NOT NULL CHECK (register IN ('VIES', 'EVATR', 'OFF')),
    outcome      TEXT NOT NULL CHECK (outcome IN ('VALID', 'UNREACHABLE', 'OFF')),
    name         TEXT,
    address      TEXT,
    consultation TEXT,
    requested_at TEXT NOT NULL,
    detail       TEXT,
    FOREIGN KEY (invoice_id, company_id, environment) REFERENCES invoices (id, company_id, environment)
) STRICT, WITHOUT ROWID;

-- The account numbers given for the tax adviser's chart (version 13): a
-- partner's personal account on receivables (10000–69999) or payables
-- (70000–99999), a bank account's number; kept once given, changeable by
-- an owner until the first DATEV export of the books.
CREATE TABLE account_numbers (
    company_id  TEXT NOT NULL REFERENCES companies (id),
    environment TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    account     TEXT NOT NULL CHECK (account IN ('receivables', 'payables', 'bank')),
    detail      TEXT NOT NULL CHECK (detail <> ''),
    number      INTEGER NOT NULL CHECK (number BETWEEN 1 AND 99999),
    given_at    TEXT NOT NULL,
    PRIMARY KEY (company_id, environment, account, detail),
    UNIQUE (company_id, environment, number)
) STRICT, WITHOUT ROWID;

-- The exports handed to the tax adviser (DATEV) and the tax audit (GoBD),
-- with their period and whether the period was closed (version 13).
CREATE TABLE exports (
    seq         INTEGER PRIMARY KEY,
    id          TEXT NOT NULL UNIQUE,
    company_id  TEXT NOT NULL REFERENCES companies (id),
    environment TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    kind        TEXT NOT NULL CHECK (kind IN ('datev', 'gobd')),
    period_from TEXT NOT NULL,
    period_to   TEXT NOT NULL,
    final       INTEGER NOT NULL CHECK (final IN (0, 1)),
    rows        INTEGER NOT NULL CHECK (rows >= 0),
    made_at     TEXT NOT NULL,
    CHECK (period_from <= period_to)
) STRICT;
CREATE INDEX exports_tenant ON exports (company_id, environment, kind, seq);

-- The file an export handed over (version 21), kept so it can be
-- downloaded again: the DATEV ZIP, the GoBD data medium as a ZIP.
CREATE TABLE export_files (
    export_id TEXT PRIMARY KEY REFERENCES exports (id),
    name      TEXT NOT NULL,
    bytes     BLOB NOT NULL
) STRICT;

-- A company's own accounts within its chart (version 16): a number in the
-- range its kind may take on that chart (rules::chart::own_range), names in
-- German and English, its kind and its line of the HGB statements. The
-- standard accounts are rules::chart's and are not stored.
CREATE TABLE chart_accounts (
    company_id TEXT NOT NULL REFERENCES companies (id),
    chart      TEXT NOT NULL CHECK (chart IN ('skr03', 'skr04')),
    number     INTEGER NOT NULL CHECK (number BETWEEN 1 AND 9999),
    name_de    TEXT NOT NULL CHECK (name_de <> ''),
    name_en    TEXT NOT NULL CHECK (name_en <> ''),
    kind       TEXT NOT NULL CHECK (kind IN ('asset', 'liability', 'equity', 'revenue', 'expense', 'tax')),
    line       TEXT NOT NULL,
    added_at   TEXT NOT NULL,
    PRIMARY KEY (company_id, chart, number)
) STRICT, WITHOUT ROWID;


-- Fixed assets (version 20).

-- The register (Anlagenverzeichnis): each asset with its class of the
-- depreciation table (rules::afa), the day it was acquired and its cost in
-- the book currency (net where the input VAT is deductible), the method it
-- is written off by (straight_line, one_year, low_value, pool), its useful
-- life in months, the chart accounts it stands on and its depreciation goes
-- to, the bill line it came from (its purchase and the line's position),
-- the day its recording was posted; once it leaves, the day, the entry that
-- took its remaining value out and, for a sale, the proceeds, the invoice
-- that sold it and the entry that moved them off revenue.
CREATE TABLE assets (
    seq                  INTEGER PRIMARY KEY,
    id                   TEXT NOT NULL UNIQUE,
    company_id           TEXT NOT NULL REFERENCES companies (id),
    environment          TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    name                 TEXT NOT NULL CHECK (name <> ''),
    class                TEXT NOT NULL,
    acquired_on          TEXT NOT NULL,
    cost                 INTEGER NOT NULL CHECK (cost > 0),
    method               TEXT NOT NULL CHECK (method IN ('straight_line', 'one_year', 'low_value', 'pool')),
    life_months          INTEGER NOT NULL CHECK (life_months BETWEEN 1 AND 1200),
    account              TEXT NOT NULL,
    depreciation_account TEXT NOT NULL,
    purchase_id          TEXT,
    purchase_line        INTEGER,
    posted_on            TEXT NOT NULL,
    recorded_at          TEXT NOT NULL,
    disposed_on          TEXT,
    disposal_entry       TEXT,
    proceeds             INTEGER CHECK (proceeds IS NULL OR proceeds > 0),
    invoice_id           TEXT,
    sale_entry           TEXT,
    CHECK ((purchase_id IS NULL) = (purchase_line IS NULL)),
    CHECK (disposed_on IS NULL OR disposed_on >= acquired_on),
    CHECK ((disposed_on IS NULL) = (disposal_entry IS NULL)),
    CHECK ((proceeds IS NULL) = (invoice_id IS NULL)),
    CHECK ((proceeds IS NULL) = (sale_entry IS NULL)),
    CHECK (proceeds IS NULL OR disposed_on IS NOT NULL),
    UNIQUE (id, company_id, environment),
    FOREIGN KEY (purchase_id, company_id, environment) REFERENCES purchases (id, company_id, environment),
    FOREIGN KEY (invoice_id, company_id, environment) REFERENCES invoices (id, company_id, environment)
) STRICT;
CREATE INDEX assets_tenant ON assets (company_id, environment, seq);
CREATE INDEX assets_purchase ON assets (purchase_id, purchase_line);

-- The depreciation posted: one row per ledger entry, its asset, the fiscal
-- year (the calendar year it starts in) and the amount (negative where a
-- disposal takes back what a year's run wrote off past its month).
CREATE TABLE asset_depreciations (
    entry       TEXT PRIMARY KEY,
    asset_id    TEXT NOT NULL,
    company_id  TEXT NOT NULL REFERENCES companies (id),
    environment TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    year        INTEGER NOT NULL CHECK (year BETWEEN 1900 AND 9998),
    amount      INTEGER NOT NULL,
    posted_on   TEXT NOT NULL,
    FOREIGN KEY (asset_id, company_id, environment) REFERENCES assets (id, company_id, environment)
) STRICT;
CREATE INDEX asset_depreciations_asset ON asset_depreciations (asset_id, year);
CREATE INDEX asset_depreciations_year ON asset_depreciations (company_id, environment, year);

-- A fiscal year's choices (§ 6 (2), (2a) EStG): whether low-value assets are
-- written off at once, whether the pool is kept; a year without a row
-- applies the low-value rule and keeps no pool.
CREATE TABLE depreciation_rules (
    company_id  TEXT NOT NULL REFERENCES companies (id),
    environment TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    year        INTEGER NOT NULL CHECK (year BETWEEN 1900 AND 9998),
    low_value   INTEGER NOT NULL CHECK (low_value IN (0, 1)),
    pool        INTEGER NOT NULL CHECK (pool IN (0, 1)),
    set_at      TEXT NOT NULL,
    PRIMARY KEY (company_id, environment, year)
) STRICT, WITHOUT ROWID;

-- A company's tax methods (version 23), each row holding from its day until
-- the next: VAT on invoices issued (SOLL) or on payments received (IST, with
-- the ground of § 20 sentence 1 UStG claimed), profit by balance sheet or by
-- the EÜR (§ 4 (3) EStG), the VAT return's period and whether it has the
-- one-month extension (§§ 46–48 UStDV). A company without a row: SOLL,
-- BALANCE, MONTHLY, no extension.
CREATE TABLE tax_methods (
    company_id    TEXT NOT NULL REFERENCES companies (id),
    -- the first day of a VAT return period (and of a fiscal year when the
    -- profit method changes), YYYY-MM-DD
    valid_from    TEXT NOT NULL,
    vat_method    TEXT NOT NULL CHECK (vat_method IN ('SOLL', 'IST')),
    -- the ground of § 20 sentence 1 UStG claimed, with IST only
    ist_reason    TEXT CHECK (ist_reason IN ('TURNOVER', 'NO_BOOKKEEPING', 'FREELANCE')),
    profit_method TEXT NOT NULL CHECK (profit_method IN ('BALANCE', 'EUER')),
    return_period TEXT NOT NULL CHECK (return_period IN ('MONTHLY', 'QUARTERLY')),
    extension     INTEGER NOT NULL CHECK (extension IN (0, 1)),
    set_at        TEXT NOT NULL,
    CHECK ((vat_method = 'IST') = (ist_reason IS NOT NULL)),
    PRIMARY KEY (company_id, valid_from)
) STRICT, WITHOUT ROWID;

-- What of each document's VAT is not yet due (a sale taxed on payments
-- received, until its money comes in) or not yet deductible (a bill of a
-- supplier taxed on payments received, a down payment, until paid), move by
-- move, each with the ledger entry that made it (version 24): issued,
-- received, refunded (a payment taken back), released (a discount, a fee,
-- that never falls due), restored (such a settlement undone), cancelled
-- (the invoice corrected) and switched (the company taxed on invoices from
-- a day on). What a document has not due through a day is the sum of its
-- rows up to that day.
CREATE TABLE vat_moves (
    seq         INTEGER PRIMARY KEY,
    company_id  TEXT NOT NULL REFERENCES companies (id),
    environment TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    -- the ledger entry that moved it
    entry       TEXT NOT NULL,
    -- a sale's output tax (an invoice) or a purchase's input tax (a bill)
    side        TEXT NOT NULL CHECK (side IN ('sale', 'purchase')),
    -- the invoice or bill whose VAT moved
    document_id TEXT NOT NULL,
    -- the payment whose money moved it (a reversal: the payment taken back)
    payment_id  TEXT,
    moved_on    TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN (
        'issued', 'received', 'refunded', 'released', 'restored', 'cancelled', 'switched')),
    tax_key     TEXT NOT NULL,
    -- the change of what is not yet due: added positive, taken off negative
    base        INTEGER NOT NULL,
    tax         INTEGER NOT NULL
) STRICT;
CREATE INDEX vat_moves_document ON vat_moves (company_id, environment, document_id, moved_on);
CREATE INDEX vat_moves_entry ON vat_moves (entry);
