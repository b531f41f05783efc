//! People, their sign-in, one-time links and second factors, and the API's
//! keys and idempotency (`Access`). What only the console does (resetting a
//! person of several companies) a screen says so, without its command.

use crate::error::said::Access;
use crate::error::Lang;

use super::reader::Reader;

/// The message in the reader's words.
pub fn text(access: &Access, r: Reader) -> String {
    match (access, r.lang) {
        (Access::LinkUsed, _) => r
            .pick(
                "This link was used already: a link works once. Ask the company's owner for a new one.",
                "Dieser Link wurde schon benutzt: Ein Link funktioniert einmal. Bitten Sie den Inhaber der Firma um einen neuen.",
            )
            .into(),
        (Access::LinkExpired, _) => r
            .pick(
                "This link has expired: a link works for 24 hours. Ask the company's owner for a new one.",
                "Dieser Link ist abgelaufen: Ein Link funktioniert 24 Stunden lang. Bitten Sie den Inhaber der Firma um einen neuen.",
            )
            .into(),
        (Access::IdempotencyKeyMissing, _) => r
            .pick(
                "The Idempotency-Key header is missing; every POST needs one.",
                "Der Header Idempotency-Key fehlt; jeder POST braucht einen.",
            )
            .into(),
        (Access::IdempotencyKeyLength, _) => r
            .pick(
                "The Idempotency-Key must have 1 to 200 characters.",
                "Der Idempotency-Key muss 1 bis 200 Zeichen haben.",
            )
            .into(),
        (Access::IdempotencyKeyControl, _) => r
            .pick(
                "The Idempotency-Key must not contain control characters.",
                "Der Idempotency-Key darf keine Steuerzeichen enthalten.",
            )
            .into(),
        (Access::IdempotencyKeyRepeated, _) => r
            .pick(
                "The Idempotency-Key header is sent more than once; send one.",
                "Der Header Idempotency-Key wurde mehrfach gesendet; senden Sie ihn einmal.",
            )
            .into(),
        (Access::NotInFuture, _) => r
            .pick("must lie in the future", "muss in der Zukunft liegen")
            .into(),
        (Access::MemberAlready, _) => r
            .pick(
                "belongs to a person of this company already",
                "gehört schon einer Person dieser Firma",
            )
            .into(),
        (Access::DisabledAddress, _) => r
            .pick(
                "is the address of a person disabled in kontor",
                "ist die Adresse einer in kontor gesperrten Person",
            )
            .into(),
        (Access::DisabledNoReset { email }, Lang::En) => {
            format!("{email} is disabled; a disabled person gets no reset link.")
        }
        (Access::DisabledNoReset { email }, Lang::De) => {
            format!("{email} ist gesperrt; eine gesperrte Person bekommt keinen Link zum Zurücksetzen.")
        }
        (Access::ResetOnConsole { email }, Lang::En) if r.on_screens() => format!(
            "{email} belongs to other companies too, which a new password would open; only whoever runs kontor resets it, on its console."
        ),
        (Access::ResetOnConsole { email }, Lang::En) => format!(
            "{email} belongs to other companies too, which a new password would open; only the console resets it (`kontor user reset` without --as)."
        ),
        (Access::ResetOnConsole { email }, Lang::De) if r.on_screens() => format!(
            "{email} gehört auch zu anderen Firmen, die ein neues Passwort öffnen würde; nur wer kontor betreibt, setzt es zurück, auf dessen Konsole."
        ),
        (Access::ResetOnConsole { email }, Lang::De) => format!(
            "{email} gehört auch zu anderen Firmen, die ein neues Passwort öffnen würde; nur die Konsole setzt es zurück (`kontor user reset` ohne --as)."
        ),
        (Access::KnownPerson, _) => r
            .pick(
                "This invitation's address belongs to a person kontor knows; they join with their own password.",
                "Die Adresse dieser Einladung gehört einer Person, die kontor kennt; sie tritt mit ihrem eigenen Passwort bei.",
            )
            .into(),
        (Access::LinkPersonDisabled, _) => r
            .pick(
                "This link works no more: its person was disabled since it was made.",
                "Dieser Link funktioniert nicht mehr: Seine Person wurde gesperrt, seit er erstellt wurde.",
            )
            .into(),
        (Access::PasskeysNeedHostName { url }, Lang::En) => format!(
            "Passkeys need the screens reached at a host name; {url} names none (WebAuthn refuses IP addresses)."
        ),
        (Access::PasskeysNeedHostName { url }, Lang::De) => format!(
            "Passkeys brauchen die Bildschirme unter einem Hostnamen; {url} nennt keinen (WebAuthn lehnt IP-Adressen ab)."
        ),
        (Access::PasskeysUnusable { why }, Lang::En) => {
            format!("Passkeys cannot be used here ({why}).")
        }
        (Access::PasskeysUnusable { why }, Lang::De) => {
            format!("Passkeys sind hier nicht nutzbar ({why}).")
        }
        (Access::NoPasskeyRegistration, _) => r
            .pick(
                "No passkey registration is open; begin again.",
                "Keine Passkey-Registrierung ist offen; beginnen Sie neu.",
            )
            .into(),
        (Access::NotPasskey, _) => r
            .pick(
                "The browser's answer is not a passkey; nothing was registered.",
                "Die Antwort des Browsers ist kein Passkey; es wurde nichts registriert.",
            )
            .into(),
        (Access::PasskeyUnverified { why }, Lang::En) => {
            format!("The passkey could not be verified ({why}); nothing was registered.")
        }
        (Access::PasskeyUnverified { why }, Lang::De) => format!(
            "Der Passkey konnte nicht geprüft werden ({why}); es wurde nichts registriert."
        ),
        (Access::PasskeyKnown, _) => r
            .pick(
                "This passkey is registered already; nothing was registered.",
                "Dieser Passkey ist schon registriert; es wurde nichts registriert.",
            )
            .into(),
        (Access::NoPasskey, _) => r
            .pick(
                "No passkey is registered for this person.",
                "Für diese Person ist kein Passkey registriert.",
            )
            .into(),
        (Access::PasswordShort { min }, Lang::En) => {
            format!("is shorter than {min} characters")
        }
        (Access::PasswordShort { min }, Lang::De) => format!("ist kürzer als {min} Zeichen"),
        (Access::PasswordLong { max }, Lang::En) => format!("is longer than {max} bytes"),
        (Access::PasswordLong { max }, Lang::De) => format!("ist länger als {max} Bytes"),
        (Access::PasswordNotTaken, _) => r
            .pick(
                "is not taken for a person who has one already; add them without it, or change it with `user password`",
                "wird für eine Person, die schon eines hat, nicht genommen; fügen Sie sie ohne hinzu, oder ändern Sie es mit `user password`",
            )
            .into(),
        (Access::PasswordNeeded, _) => r
            .pick(
                "is missing: a person new to kontor needs one",
                "fehlt: Eine Person, die neu in kontor ist, braucht eines",
            )
            .into(),
        (Access::BelongsAlready { email, company }, Lang::En) => {
            format!("{email} belongs to company {company} already.")
        }
        (Access::BelongsAlready { email, company }, Lang::De) => {
            format!("{email} gehört schon zur Firma {company}.")
        }
        (Access::OnlyOwnerRole { email }, Lang::En) => format!(
            "{email} is the company's only owner and cannot be given another role; make another person owner first."
        ),
        (Access::OnlyOwnerRole { email }, Lang::De) => format!(
            "{email} ist der einzige Inhaber der Firma und kann keine andere Rolle bekommen; machen Sie zuerst eine andere Person zum Inhaber."
        ),
        (Access::OnlyOwnerDisabled { email }, Lang::En) => format!(
            "{email} is the company's only owner and cannot be disabled; make another person owner first."
        ),
        (Access::OnlyOwnerDisabled { email }, Lang::De) => format!(
            "{email} ist der einzige Inhaber der Firma und kann nicht gesperrt werden; machen Sie zuerst eine andere Person zum Inhaber."
        ),
        (Access::NotAPerson { email, company }, Lang::En) => {
            format!("names {email}, who is not an enabled person of company {company}")
        }
        (Access::NotAPerson { email, company }, Lang::De) => {
            format!("nennt {email}, keine aktive Person der Firma {company}")
        }
        (
            Access::RoleDoesNotAllow {
                email,
                company,
                role,
            },
            Lang::En,
        ) => format!(
            "names {email}, whose role in company {company} ({role}) does not allow this"
        ),
        (
            Access::RoleDoesNotAllow {
                email,
                company,
                role,
            },
            Lang::De,
        ) => format!(
            "nennt {email}, dessen Rolle in der Firma {company} ({role}) das nicht erlaubt"
        ),
        (Access::NotScope { got, known }, Lang::En) => format!(
            "names {}, which is not a scope; the scopes are {}",
            r.quoted(got),
            known.join(", ")
        ),
        (Access::NotScope { got, known }, Lang::De) => format!(
            "nennt {}, keine Berechtigung; die Berechtigungen sind {}",
            r.quoted(got),
            known.join(", ")
        ),
        (Access::NoScope, _) => r
            .pick("needs at least one scope", "braucht mindestens eine Berechtigung")
            .into(),
        (Access::AppOnAlready, _) => r
            .pick(
                "An authenticator app is on already; remove it first to set up another.",
                "Eine Authenticator-App ist schon eingerichtet; entfernen Sie sie zuerst, um eine andere einzurichten.",
            )
            .into(),
        (Access::NoAppSetUp, _) => r
            .pick(
                "No authenticator app is being set up; begin again.",
                "Es wird keine Authenticator-App eingerichtet; beginnen Sie neu.",
            )
            .into(),
        (Access::WrongCode, _) => r
            .pick(
                "is not the code the app shows now (6 digits)",
                "ist nicht der Code, den die App jetzt zeigt (6 Ziffern)",
            )
            .into(),
        (Access::RecoveryNeedsFactor, _) => r
            .pick(
                "Recovery codes stand in for a second factor; set one up first.",
                "Wiederherstellungscodes vertreten einen zweiten Faktor; richten Sie zuerst einen ein.",
            )
            .into(),
        (Access::FactorsResetOnConsole { email }, Lang::En) if r.on_screens() => format!(
            "{email} belongs to other companies too, whose books a reset would open; only whoever runs kontor resets their factors, on its console."
        ),
        (Access::FactorsResetOnConsole { email }, Lang::En) => format!(
            "{email} belongs to other companies too, whose books a reset would open; only the console resets their factors (`kontor user two-factor reset` without --as)."
        ),
        (Access::FactorsResetOnConsole { email }, Lang::De) if r.on_screens() => format!(
            "{email} gehört auch zu anderen Firmen, deren Bücher ein Zurücksetzen öffnen würde; nur wer kontor betreibt, setzt die Faktoren zurück, auf dessen Konsole."
        ),
        (Access::FactorsResetOnConsole { email }, Lang::De) => format!(
            "{email} gehört auch zu anderen Firmen, deren Bücher ein Zurücksetzen öffnen würde; nur die Konsole setzt die Faktoren zurück (`kontor user two-factor reset` ohne --as)."
        ),
    }
}
