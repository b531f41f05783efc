-- Step 18 → 19, frozen: a bill may carry the cash discount its supplier
-- grants (the last day to take it and its percent), as a received
-- e-invoice's payment terms state it; none on every bill booked before.

ALTER TABLE purchases ADD COLUMN discount_until TEXT;
ALTER TABLE purchases ADD COLUMN discount_percent TEXT;
