-- Step 8 → 9, frozen: the key that acted, on an audit row of an API act.

ALTER TABLE audit ADD COLUMN key_id TEXT REFERENCES api_keys (id);
