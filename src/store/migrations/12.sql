-- Step 11 → 12, frozen: each company's mail settings and templates, the
-- mail outbox and its attempts; the ladder of reminders, the owner's rows
-- of the base-rate table, the reminders sent; the VAT register's answer
-- kept with an invoice.

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
    purpose         TEXT NOT NULL CHECK (purpose IN ('invoice', 'reminder', 'test')),
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
    CHECK (purpose = 'test' OR invoice_id IS NOT NULL),
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
