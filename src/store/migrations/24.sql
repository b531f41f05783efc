-- Step 23 → 24, frozen: what of each document's VAT is not yet due or not
-- yet deductible (VAT on payments received), each move with the entry that
-- made it; a bill records whether its supplier taxes on payments received
-- and whether it is a down payment (neither on every bill of an older
-- file).

ALTER TABLE purchases ADD COLUMN supplier_cash_basis INTEGER NOT NULL DEFAULT 0
    CHECK (supplier_cash_basis IN (0, 1));
ALTER TABLE purchases ADD COLUMN down_payment INTEGER NOT NULL DEFAULT 0
    CHECK (down_payment IN (0, 1));

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
