-- Step 19 → 20, frozen: two-factor sign-in. A person's authenticator app
-- (its RFC 6238 secret sealed under the key file), their single-use
-- recovery codes (only their SHA-256 kept), their passkeys (WebAuthn public
-- keys), the sign-ins waiting for their second factor, the passkey
-- registrations waiting for the browser's answer, and the companies that
-- require two factors of everyone. New tables only: nobody has a second
-- factor yet and no company requires one.

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
