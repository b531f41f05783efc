-- Step 7 → 8, frozen: the ledger's details and the partners' particulars for
-- payments and mail.

ALTER TABLE journal ADD COLUMN detail TEXT NOT NULL DEFAULT '';
CREATE INDEX journal_day ON journal (company_id, environment, posted_on, seq);

-- The day sums gain the detail in their key: rebuilt, every old row under ''.
CREATE TABLE new_account_days (
    company_id  TEXT NOT NULL REFERENCES companies (id),
    environment TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    account     TEXT NOT NULL,
    detail      TEXT NOT NULL DEFAULT '',
    posted_on   TEXT NOT NULL,
    debit       INTEGER NOT NULL,
    credit      INTEGER NOT NULL,
    PRIMARY KEY (company_id, environment, account, detail, posted_on)
) STRICT, WITHOUT ROWID;
INSERT INTO new_account_days (company_id, environment, account, detail, posted_on, debit, credit)
    SELECT company_id, environment, account, '', posted_on, debit, credit FROM account_days;
DROP TABLE account_days;
ALTER TABLE new_account_days RENAME TO account_days;

-- The partner of each receivables and payables line of the old journal,
-- from the record its entry names: an invoice or correction, a payment (of
-- an invoice or a bill), a bill, a credit applied to a bill.
UPDATE journal SET detail = (SELECT customer_id FROM invoices WHERE invoices.id = journal.entry)
    WHERE account = 'receivables' AND entry LIKE 'inv\_%' ESCAPE '\';
UPDATE journal SET detail = (
        SELECT coalesce(i.customer_id, p.supplier_id) FROM payments y
        LEFT JOIN invoices i ON i.id = y.invoice_id
        LEFT JOIN purchases p ON p.id = y.purchase_id
        WHERE y.id = journal.entry)
    WHERE account IN ('receivables', 'payables') AND entry LIKE 'pay\_%' ESCAPE '\';
UPDATE journal SET detail = (SELECT supplier_id FROM purchases WHERE purchases.id = journal.entry)
    WHERE account = 'payables' AND entry LIKE 'pur\_%' ESCAPE '\';
UPDATE journal SET detail = (
        SELECT p.supplier_id FROM credit_applications a JOIN purchases p ON p.id = a.bill_id
        WHERE a.id = journal.entry)
    WHERE account = 'payables' AND entry LIKE 'cra\_%' ESCAPE '\';
UPDATE journal SET detail = '' WHERE detail IS NULL;

ALTER TABLE customers ADD COLUMN iban TEXT;
ALTER TABLE customers ADD COLUMN invoice_email TEXT;
ALTER TABLE customers ADD COLUMN consumer INTEGER NOT NULL DEFAULT 0 CHECK (consumer IN (0, 1));
ALTER TABLE customers ADD COLUMN language TEXT CHECK (language IN ('de', 'en'));
