-- The kontor data file. Applied at start to a fresh file; `PRAGMA user_version`
-- records which version of this file a data file carries (see src/db.rs).
--
-- Conventions:
-- * every table is STRICT;
-- * `seq` is the insertion order (newest first = seq DESC), `id` the opaque
--   public identifier with its type prefix;
-- * every company-owned row carries `company_id` and `environment`
--   ('PRODUCTION' or 'SANDBOX'); every query filters on both;
-- * instants are TEXT `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC, fixed width so text order is
--   time order); calendar dates are TEXT `YYYY-MM-DD`.

CREATE TABLE companies (
    seq            INTEGER PRIMARY KEY,
    id             TEXT NOT NULL UNIQUE,
    name           TEXT NOT NULL,
    country        TEXT NOT NULL,
    currency       TEXT NOT NULL,
    plan           TEXT NOT NULL CHECK (plan IN ('STARTER', 'PROFESSIONAL', 'ENTERPRISE')),
    invoice_prefix TEXT NOT NULL DEFAULT '',
    payment_days   INTEGER,
    timezone       TEXT NOT NULL,
    -- the workflow: stage keys separated by ',' in order; the first is the start
    workflow       TEXT NOT NULL,
    created_at     TEXT NOT NULL
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

-- Numbering sequences: one row per (company, environment, series). `series`
-- names the sequence, e.g. 'customer' or 'transaction:2026'. Incremented inside
-- the creating transaction, so numbers are gapless and never reused.
CREATE TABLE counters (
    company_id  TEXT NOT NULL REFERENCES companies (id),
    environment TEXT NOT NULL,
    series      TEXT NOT NULL,
    value       INTEGER NOT NULL,
    PRIMARY KEY (company_id, environment, series)
) STRICT, WITHOUT ROWID;

CREATE TABLE idempotency_keys (
    company_id   TEXT NOT NULL REFERENCES companies (id),
    environment  TEXT NOT NULL,
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
    currency     TEXT,
    is_customer  INTEGER NOT NULL,
    is_supplier  INTEGER NOT NULL,
    archived     INTEGER NOT NULL DEFAULT 0,
    payment_days INTEGER,
    created_at   TEXT NOT NULL,
    UNIQUE (company_id, environment, number)
) STRICT;
CREATE INDEX customers_tenant ON customers (company_id, environment, seq);

CREATE TABLE transactions (
    seq          INTEGER PRIMARY KEY,
    id           TEXT NOT NULL UNIQUE,
    company_id   TEXT NOT NULL REFERENCES companies (id),
    environment  TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    number       TEXT NOT NULL,
    title        TEXT NOT NULL,
    description  TEXT,
    stage        TEXT NOT NULL,
    customer_id  TEXT REFERENCES customers (id),
    due_on       TEXT,
    -- the date the work started: the creation date in the company's time zone
    started_on   TEXT NOT NULL,
    archived     INTEGER NOT NULL DEFAULT 0,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    UNIQUE (company_id, environment, number)
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
    environment    TEXT NOT NULL,
    transaction_id TEXT NOT NULL REFERENCES transactions (id),
    text           TEXT NOT NULL,
    author         TEXT NOT NULL,
    created_at     TEXT NOT NULL
) STRICT;
CREATE INDEX transaction_notes_transaction ON transaction_notes (transaction_id, seq);
