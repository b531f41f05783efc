-- Step 19 → 20, frozen: fixed assets. The register (Anlagenverzeichnis):
-- each asset with its class of the depreciation table, acquisition day and
-- cost, the method it is written off by and the chart accounts it stands
-- on, the bill line it came from, its disposal; the depreciation posted
-- per asset and fiscal year; and each fiscal year's choices of the
-- low-value rule and the pool. No entry changes.

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

CREATE TABLE depreciation_rules (
    company_id  TEXT NOT NULL REFERENCES companies (id),
    environment TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    year        INTEGER NOT NULL CHECK (year BETWEEN 1900 AND 9998),
    low_value   INTEGER NOT NULL CHECK (low_value IN (0, 1)),
    pool        INTEGER NOT NULL CHECK (pool IN (0, 1)),
    set_at      TEXT NOT NULL,
    PRIMARY KEY (company_id, environment, year)
) STRICT, WITHOUT ROWID;
