-- Step 21 → 22, frozen: two-factor sign-in. A person's authenticator app
-- (its RFC 6238 secret sealed under the key file), their single-use
-- recovery codes (only their SHA-256 kept), their passkeys (WebAuthn public
-- keys), the sign-ins waiting for their second factor, the passkey
-- registrations waiting for the browser's answer, and the companies that
-- require two factors of everyone: new tables, empty (nobody has a second
-- factor yet and no company requires one). The mail outbox also carries a
-- notice to a person (their two-factor sign-in reset), which names no
-- invoice: `mails` is rebuilt with its purpose allowed.

-- A person's authenticator app: the secret (base32) sealed under the key
-- file beside the data file (context `{user_id}/totp`), never in clear.
-- Until a first code confirms it, it is only being set up and does not count.
CREATE TABLE totp_factors (
    user_id      TEXT PRIMARY KEY REFERENCES users (id),
    secret       TEXT NOT NULL,
    confirmed_at TEXT,
    -- the RFC 6238 time step of the last code taken: a code is taken once
    last_step    INTEGER,
    created_at   TEXT NOT NULL
) STRICT;

-- A person's recovery codes, each good for one sign-in instead of a code
-- of the app; only the SHA-256 of the code is kept.
CREATE TABLE recovery_codes (
    seq        INTEGER PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id),
    code_hash  TEXT NOT NULL UNIQUE,
    used_at    TEXT,
    created_at TEXT NOT NULL
) STRICT;
CREATE INDEX recovery_codes_user ON recovery_codes (user_id);

-- A person's passkeys: the credential as the WebAuthn relying party keeps
-- it (its public key and counter, as JSON), under the name the person gave.
CREATE TABLE passkeys (
    seq           INTEGER PRIMARY KEY,
    id            TEXT NOT NULL UNIQUE,
    user_id       TEXT NOT NULL REFERENCES users (id),
    name          TEXT NOT NULL,
    -- base64url of the credential's id, as the browser names it
    credential_id TEXT NOT NULL UNIQUE,
    credential    TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    last_used_at  TEXT
) STRICT;
CREATE INDEX passkeys_user ON passkeys (user_id);

-- A sign-in whose password was right and whose second factor is awaited:
-- no session, it reads nothing. Only the SHA-256 of its cookie's random id
-- is kept; it lives five minutes.
CREATE TABLE sign_in_steps (
    seq           INTEGER PRIMARY KEY,
    token_hash    TEXT NOT NULL UNIQUE,
    user_id       TEXT NOT NULL REFERENCES users (id),
    -- the token the step's forms carry
    csrf          TEXT NOT NULL,
    -- the passkey challenge asked of the browser, while one is open
    passkey_state TEXT,
    created_at    TEXT NOT NULL
) STRICT;

-- A passkey registration waiting for the browser's answer, by the SHA-256
-- of the session that asked (one at a time per session).
CREATE TABLE passkey_registrations (
    session_hash TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (id),
    state        TEXT NOT NULL,
    created_at   TEXT NOT NULL
) STRICT;

-- A company whose people must all sign in with two factors, since when
-- and by whose act; none: each person chooses.
CREATE TABLE two_factor_required (
    company_id TEXT PRIMARY KEY REFERENCES companies (id),
    since      TEXT NOT NULL
) STRICT;

-- The mail outbox: the message as composed by the act, sent by the worker.
CREATE TABLE mails (
    seq             INTEGER PRIMARY KEY,
    id              TEXT NOT NULL UNIQUE,
    company_id      TEXT NOT NULL REFERENCES companies (id),
    environment     TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
    purpose         TEXT NOT NULL CHECK (purpose IN ('invoice', 'reminder', 'test', 'notice')),
    invoice_id      TEXT,
    recipient       TEXT NOT NULL,
    envelope_from   TEXT NOT NULL,
    -- a JSON array of addresses: the recipient and the archive copy
    envelope_to     TEXT NOT NULL,
    subject         TEXT NOT NULL,
    message         BLOB NOT NULL,
    message_id      TEXT NOT NULL,
    state           TEXT NOT NULL CHECK (state IN ('queued', 'sent', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at TEXT,
    lease_until     TEXT,
    smtp_reply      TEXT,
    last_error      TEXT,
    sent_at         TEXT,
    created_at      TEXT NOT NULL,
    CHECK (state <> 'queued' OR next_attempt_at IS NOT NULL),
    -- a test mail and a notice to a person name no invoice
    CHECK (purpose IN ('test', 'notice') OR invoice_id IS NOT NULL),
    UNIQUE (id, company_id, environment),
    FOREIGN KEY (invoice_id, company_id, environment) REFERENCES invoices (id, company_id, environment)
) STRICT;
CREATE INDEX mails_queued ON mails (state, company_id, seq);
CREATE INDEX mails_of_invoice ON mails (invoice_id, seq);
