-- Step 2 → 3, frozen: the columns of version 3, `ALTER TABLE … ADD COLUMN`
-- in order.

ALTER TABLE companies ADD COLUMN legal_name TEXT;
ALTER TABLE companies ADD COLUMN street TEXT;
ALTER TABLE companies ADD COLUMN postal_code TEXT;
ALTER TABLE companies ADD COLUMN city TEXT;
ALTER TABLE companies ADD COLUMN vat_id TEXT;
ALTER TABLE companies ADD COLUMN tax_number TEXT;
ALTER TABLE companies ADD COLUMN registration TEXT;
ALTER TABLE companies ADD COLUMN contact_name TEXT;
ALTER TABLE companies ADD COLUMN contact_phone TEXT;
ALTER TABLE companies ADD COLUMN contact_email TEXT;
ALTER TABLE companies ADD COLUMN electronic_address TEXT;
ALTER TABLE companies ADD COLUMN iban TEXT;
ALTER TABLE companies ADD COLUMN bic TEXT;
ALTER TABLE companies ADD COLUMN account_holder TEXT;
ALTER TABLE companies ADD COLUMN managing_directors TEXT;
ALTER TABLE companies ADD COLUMN small_business INTEGER NOT NULL DEFAULT 0 CHECK (small_business IN (0, 1));
ALTER TABLE customers ADD COLUMN buyer_reference TEXT;
ALTER TABLE customers ADD COLUMN electronic_address TEXT;
ALTER TABLE customers ADD COLUMN einvoice_format TEXT NOT NULL DEFAULT 'facturx' CHECK (einvoice_format IN ('facturx', 'xrechnung', 'peppol'));
ALTER TABLE drafts ADD COLUMN buyer_reference TEXT;
ALTER TABLE drafts ADD COLUMN order_reference TEXT;
ALTER TABLE drafts ADD COLUMN period_start TEXT;
ALTER TABLE drafts ADD COLUMN period_end TEXT CHECK ((period_start IS NULL) = (period_end IS NULL) AND (period_end IS NULL OR period_start <= period_end));
