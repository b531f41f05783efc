-- Step 17 → 18, frozen: every bill has a posting date besides its document
-- date (the day it is booked, which decides its VAT period and ledger; the
-- document date on every bill booked before), and may carry its receipt,
-- a file kept as received (received_files).

ALTER TABLE purchases ADD COLUMN posted_on TEXT NOT NULL DEFAULT '';
UPDATE purchases SET posted_on = document_date;
ALTER TABLE purchases ADD COLUMN receipt_file_id TEXT;
