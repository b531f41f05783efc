-- People who use the screens, the companies they belong to with one role in
-- each, their server-side sessions, and who did what.

-- A person: one e-mail address (stored lower case), one password (an
-- Argon2id PHC string; the password itself is never stored).
CREATE TABLE users (
    seq           INTEGER PRIMARY KEY,
    id            TEXT NOT NULL UNIQUE,
    email         TEXT NOT NULL UNIQUE,
    name          TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    -- the screens' language chosen by the person; NULL: the browser's
    locale        TEXT CHECK (locale IN ('de', 'en')),
    disabled_at   TEXT,
    created_at    TEXT NOT NULL
) STRICT;

-- A person's role in a company (a tax adviser belongs to several).
CREATE TABLE memberships (
    user_id    TEXT NOT NULL REFERENCES users (id),
    company_id TEXT NOT NULL REFERENCES companies (id),
    role       TEXT NOT NULL CHECK (role IN ('OWNER', 'ACCOUNTANT', 'VIEWER')),
    created_at TEXT NOT NULL,
    PRIMARY KEY (user_id, company_id)
) STRICT;
CREATE INDEX memberships_company ON memberships (company_id);

-- A signed-in browser: only the SHA-256 of the cookie's random id is kept.
-- The session shows one company in one environment at a time.
CREATE TABLE sessions (
    seq          INTEGER PRIMARY KEY,
    token_hash   TEXT NOT NULL UNIQUE,
    user_id      TEXT NOT NULL,
    company_id   TEXT NOT NULL,
    environment  TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    -- the token every form of this session carries
    csrf         TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    FOREIGN KEY (user_id, company_id) REFERENCES memberships (user_id, company_id)
) STRICT;
CREATE INDEX sessions_user ON sessions (user_id);

-- Who performed an act on a company's books: a person of the screens, or
-- the console (`system`). Event bodies stay as the contract defines them.
CREATE TABLE audit (
    seq         INTEGER PRIMARY KEY,
    company_id  TEXT NOT NULL REFERENCES companies (id),
    environment TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    user_id     TEXT REFERENCES users (id),
    actor       TEXT NOT NULL,
    act         TEXT NOT NULL,
    subject     TEXT NOT NULL,
    at          TEXT NOT NULL
) STRICT;
CREATE INDEX audit_subject ON audit (company_id, environment, subject, seq);
