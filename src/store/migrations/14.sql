-- Step 13 → 14, frozen: a bank entry's keys become what makes it the same
-- money (its days and signed amount with a digest of what it says, and
-- its day and signed amount with the bank's reference), with its identity
-- (the keys without their days); a line gains the notes of what its reader
-- changed to read it, and a settlement undone the entry that undid it.
-- The keys themselves are computed by the step
-- (to_14.rs).

ALTER TABLE bank_entries ADD COLUMN reference_key TEXT;
ALTER TABLE bank_entries ADD COLUMN identity TEXT NOT NULL DEFAULT '';
CREATE INDEX bank_entries_reference ON bank_entries (company_id, environment, bank_account_id, reference_key)
    WHERE reference_key IS NOT NULL;
CREATE INDEX bank_entries_identity ON bank_entries (company_id, environment, bank_account_id, identity, amount);
ALTER TABLE bank_lines ADD COLUMN notes TEXT NOT NULL DEFAULT '[]';
ALTER TABLE bank_settlements ADD COLUMN undone_by TEXT;
CREATE INDEX bank_settlements_undone ON bank_settlements (undone_by) WHERE undone_by IS NOT NULL;
