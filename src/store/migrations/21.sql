-- Version 21, frozen: the tables step 21 rebuilds (a role may be ADVISER)
-- and the one it creates (the files of the exports made).
CREATE TABLE memberships (
    user_id    TEXT NOT NULL REFERENCES users (id),
    company_id TEXT NOT NULL REFERENCES companies (id),
    role       TEXT NOT NULL CHECK (role IN ('OWNER', 'ACCOUNTANT', 'VIEWER', 'ADVISER')),
    created_at TEXT NOT NULL,
    -- disabled in this company by its owner: no session shows the company
    disabled_at TEXT,
    PRIMARY KEY (user_id, company_id)
) STRICT;
CREATE INDEX memberships_company ON memberships (company_id);

CREATE TABLE one_time_links (
    seq        INTEGER PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    kind       TEXT NOT NULL CHECK (kind IN ('INVITATION', 'RESET')),
    company_id TEXT NOT NULL REFERENCES companies (id),
    email      TEXT NOT NULL,
    name       TEXT,
    role       TEXT CHECK (role IN ('OWNER', 'ACCOUNTANT', 'VIEWER', 'ADVISER')),
    user_id    TEXT REFERENCES users (id),
    -- who made it; NULL: the console
    created_by TEXT REFERENCES users (id),
    created_at TEXT NOT NULL,
    used_at    TEXT,
    CHECK ((kind = 'INVITATION') = (name IS NOT NULL AND role IS NOT NULL)),
    CHECK ((kind = 'RESET') = (user_id IS NOT NULL))
) STRICT;
CREATE INDEX one_time_links_company ON one_time_links (company_id, kind, email);

CREATE TABLE export_files (
    export_id TEXT PRIMARY KEY REFERENCES exports (id),
    name      TEXT NOT NULL,
    bytes     BLOB NOT NULL
) STRICT;
