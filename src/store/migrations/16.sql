-- Step 15 → 16, frozen: the chart of accounts is the ledger's own. A
-- journal line names the chart's account a person chose for it (`chart`),
-- the day sums are kept per such account too (account_days rebuilt with
-- `chart` in its key, every old row under ''), a bill's line names the
-- account its cost went to, and a company may keep accounts of its own.

ALTER TABLE journal ADD COLUMN chart TEXT NOT NULL DEFAULT '';
ALTER TABLE purchase_lines ADD COLUMN account TEXT NOT NULL DEFAULT '';
-- Every cost booked so far went to the other operating expenses.
UPDATE purchase_lines SET account = 'other_expenses';

CREATE TABLE new_account_days (
    company_id  TEXT NOT NULL REFERENCES companies (id),
    environment TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    account     TEXT NOT NULL,
    detail      TEXT NOT NULL DEFAULT '',
    posted_on   TEXT NOT NULL,
    debit       INTEGER NOT NULL,
    credit      INTEGER NOT NULL,
    chart       TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (company_id, environment, account, detail, chart, posted_on)
) STRICT, WITHOUT ROWID;
INSERT INTO new_account_days (company_id, environment, account, detail, posted_on, debit, credit, chart)
    SELECT company_id, environment, account, detail, posted_on, debit, credit, '' FROM account_days;
DROP TABLE account_days;
ALTER TABLE new_account_days RENAME TO account_days;

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
