-- Step 22 → 23, frozen: a company's legal form (none on every company of an
-- older file) and its tax methods, each row holding from its day; a company
-- without a row owes VAT on invoices issued, draws up a balance sheet and
-- files monthly without the extension.

ALTER TABLE companies ADD COLUMN legal_form TEXT CHECK (legal_form IN (
    'SOLE_PROPRIETOR', 'REGISTERED_TRADER', 'GBR', 'PARTG', 'OHG', 'KG', 'GMBH_CO_KG',
    'GMBH', 'UG', 'AG'));

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
