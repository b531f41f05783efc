//! People, their sign-in and the API's keys (`Access`), and webhook
//! endpoints (`Webhook`).

/// People, their sign-in, links and second factors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Access {
    /// A one-time link used already.
    LinkUsed,
    /// A one-time link older than a day.
    LinkExpired,
    /// The Idempotency-Key header is missing.
    IdempotencyKeyMissing,
    /// An Idempotency-Key of the wrong length.
    IdempotencyKeyLength,
    /// An Idempotency-Key with control characters.
    IdempotencyKeyControl,
    /// The Idempotency-Key header sent more than once.
    IdempotencyKeyRepeated,
    /// An expiry that does not lie ahead.
    NotInFuture,
    /// An address of a person of this company already.
    MemberAlready,
    /// The address of a disabled person.
    DisabledAddress,
    /// A disabled person gets no reset link.
    DisabledNoReset { email: String },
    /// A person of other companies too is reset on the console only.
    ResetOnConsole { email: String },
    /// An invitation to a person kontor knows.
    KnownPerson,
    /// The link's person was disabled since.
    LinkPersonDisabled,
    /// Passkeys at a public URL without a host name (WebAuthn refuses IP
    /// addresses).
    PasskeysNeedHostName { url: String },
    /// A passkey check that cannot be made: the WebAuthn library's reason.
    PasskeysUnusable { why: String },
    /// No passkey registration is open.
    NoPasskeyRegistration,
    /// The browser's answer is not a passkey.
    NotPasskey,
    /// The passkey could not be verified.
    PasskeyUnverified { why: String },
    /// The passkey is registered already.
    PasskeyKnown,
    /// No passkey is registered for the person.
    NoPasskey,
    /// A password shorter than `min` characters.
    PasswordShort { min: usize },
    /// A password longer than `max` bytes.
    PasswordLong { max: usize },
    /// A password for a person who has one.
    PasswordNotTaken,
    /// A person new to kontor needs a password.
    PasswordNeeded,
    /// The person belongs to the company already.
    BelongsAlready { email: String, company: String },
    /// The only owner cannot be given another role.
    OnlyOwnerRole { email: String },
    /// The only owner cannot be disabled.
    OnlyOwnerDisabled { email: String },
    /// `--as` names no enabled person of the company.
    NotAPerson { email: String, company: String },
    /// `--as` names a person whose role does not allow the act.
    RoleDoesNotAllow {
        email: String,
        company: String,
        role: String,
    },
    /// Not a scope.
    NotScope { got: String, known: Vec<String> },
    /// No scope.
    NoScope,
    /// An authenticator app is on already.
    AppOnAlready,
    /// No app is being set up.
    NoAppSetUp,
    /// Not the code the app shows now.
    WrongCode,
    /// Recovery codes need a second factor first.
    RecoveryNeedsFactor,
    /// A person of other companies too has their factors reset on the console only.
    FactorsResetOnConsole { email: String },
}

/// Webhook endpoints and the addresses they are sent to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Webhook {
    NotUrl {
        got: String,
    },
    NotAbsolute {
        got: String,
    },
    NoHost {
        got: String,
    },
    NotHttp {
        got: String,
    },
    /// A user name or password in the URL.
    Credentials,
    HttpsOnly,
    Port443 {
        port: u16,
    },
    LoopbackName {
        host: String,
    },
    ZoneId {
        host: String,
    },
    NumericHost {
        host: String,
    },
    /// The host's address is not public: the address and what it is.
    HostNotPublic {
        problem: String,
    },
    /// The host resolves to an address that is not public.
    ResolvesInward {
        reason: String,
    },
    /// No event kind.
    NoEvents,
    /// Not an event kind.
    NotEventKind {
        got: String,
        known: Vec<String>,
    },
    /// The endpoint is disabled.
    Disabled {
        id: String,
    },
}
