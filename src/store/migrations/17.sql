-- Step 16 → 17, frozen: a payment a person takes back keeps the reason
-- (none on every payment reversed before, and on a bank line's undo).

ALTER TABLE payments ADD COLUMN reversal_reason TEXT;
