-- Step 12 → 13, frozen: what the tax adviser
-- and the tax office need: the company's DATEV settings, the account numbers
-- given to partners and bank accounts, and the exports made.

ALTER TABLE companies ADD COLUMN chart TEXT NOT NULL DEFAULT 'skr03' CHECK (chart IN ('skr03', 'skr04'));
ALTER TABLE companies ADD COLUMN datev_adviser INTEGER CHECK (datev_adviser BETWEEN 1001 AND 9999999);
ALTER TABLE companies ADD COLUMN datev_client INTEGER CHECK (datev_client BETWEEN 1 AND 99999);
ALTER TABLE companies ADD COLUMN fiscal_year_start TEXT NOT NULL DEFAULT '01-01' CHECK (fiscal_year_start GLOB '[01][0-9]-[0-3][0-9]');

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
