-- Step 5 → 6, frozen: the column that disables a membership and the table of
-- one-time links.

ALTER TABLE memberships ADD COLUMN disabled_at TEXT;
CREATE TABLE one_time_links (
    seq        INTEGER PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    kind       TEXT NOT NULL CHECK (kind IN ('INVITATION', 'RESET')),
    company_id TEXT NOT NULL REFERENCES companies (id),
    email      TEXT NOT NULL,
    name       TEXT,
    role       TEXT CHECK (role IN ('OWNER', 'ACCOUNTANT', 'VIEWER')),
    user_id    TEXT REFERENCES users (id),
    created_by TEXT REFERENCES users (id),
    created_at TEXT NOT NULL,
    used_at    TEXT,
    CHECK ((kind = 'INVITATION') = (name IS NOT NULL AND role IS NOT NULL)),
    CHECK ((kind = 'RESET') = (user_id IS NOT NULL))
) STRICT;
CREATE INDEX one_time_links_company ON one_time_links (company_id, kind, email);
