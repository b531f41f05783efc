-- Step 4 → 5, frozen: the columns of step 5 (`ALTER TABLE … ADD COLUMN` in
-- order) and the table it creates.

ALTER TABLE draft_lines ADD COLUMN unit TEXT NOT NULL DEFAULT 'C62';
ALTER TABLE draft_lines ADD COLUMN vat_category TEXT CHECK (vat_category IN ('S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M'));
ALTER TABLE draft_lines ADD COLUMN exemption_code TEXT;
ALTER TABLE invoices ADD COLUMN documents_note TEXT;
ALTER TABLE invoice_lines ADD COLUMN unit TEXT NOT NULL DEFAULT 'C62';
ALTER TABLE invoice_lines ADD COLUMN vat_category TEXT CHECK (vat_category IN ('S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M'));
ALTER TABLE invoice_lines ADD COLUMN vat_rate TEXT;
ALTER TABLE invoice_lines ADD COLUMN exemption_reason TEXT;
ALTER TABLE invoice_lines ADD COLUMN exemption_code TEXT;
ALTER TABLE invoice_taxes ADD COLUMN vat_category TEXT CHECK (vat_category IN ('S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M'));

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
