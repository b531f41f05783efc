//! The person's own page at `/account` ("My account", linked from the
//! header): their two-factor sign-in. An authenticator app is set up here
//! (its secret shown once, as a QR code, as text and as its `otpauth://`
//! address, then confirmed by a first code) or removed; passkeys are
//! registered (through the one script of the screens) and removed; the
//! recovery codes, shown once when the first factor is set up, are made
//! anew. A session whose company requires two factors of a person without
//! one is led here and may do nothing else until one is set up. The rules
//! are `access::totp`, `access::passkeys` and `access::two_factor`'s.

use base64::Engine;
use hyper::StatusCode;
use maud::{html, Markup};

use super::context::Ctx;
use super::form::{sentence, FormField, Problems, APP_CODE as CODE};
use super::frame::{
    act_button, csrf, json_answer, running_own_script, screen_with, see_other, shown_once, th,
    Screen, Table,
};
use crate::access::passkeys::{self, RelyingParty};
use crate::access::sessions::Session;
use crate::access::totp;
use crate::access::two_factor;
use crate::error::said::Input;
use crate::error::{Error, Result};
use crate::http::app::Answer;
use crate::rules::locale::{self, Lang};
use crate::store::sealed::Secret;

/// A new passkey's name.
const PASSKEY_NAME: FormField = FormField::text(
    "name",
    "Name of the passkey",
    "Name des Passkeys",
    passkeys::MAX_NAME,
)
.required()
.autocomplete("off")
.hint(
    "Where it lives, e.g. “Laptop” or “Phone”",
    "Wo er liegt, z. B. „Laptop“ oder „Telefon“",
);

fn title(lang: Lang) -> &'static str {
    lang.pick("My account", "Mein Konto")
}

/// The addresses a session that must set up a second factor may still reach.
pub fn open_while_setting_up(parts: &[&str]) -> bool {
    matches!(
        parts,
        ["account", ..] | ["logout"] | ["session", "language"] | ["session", "company"]
    )
}

/// What the overview says after an act.
fn notice(lang: Lang, done: Option<&str>) -> Option<&'static str> {
    Some(match done? {
        "app-removed" => lang.pick(
            "The authenticator app is removed.",
            "Die Authenticator-App ist entfernt.",
        ),
        "passkey-added" => lang.pick("The passkey is registered.", "Der Passkey ist registriert."),
        "passkey-removed" => lang.pick("The passkey is removed.", "Der Passkey ist entfernt."),
        _ => return None,
    })
}

/// The overview: the person, their factors, and the forms that change them.
fn overview(ctx: &Ctx, status: StatusCode, problem: Option<String>) -> Result<Answer> {
    let lang = ctx.lang;
    let person = &ctx.session.person;
    let factors = two_factor::factors(ctx.conn, &person.id)?;
    let required = two_factor::required(ctx.conn, &ctx.session.tenant.company_id)?;
    let none = Problems::default();
    let content = html! {
        @if let Some(problem) = &problem {
            p.problem role="alert" { (problem) }
        } @else if let Some(notice) = notice(lang, ctx.query.get("done")) {
            p.notice role="status" { (notice) }
        }
        @if ctx.session.must_set_up {
            p.problem role="alert" { (lang.pick(
                "This company requires two-factor sign-in. Set up an authenticator app or a passkey to go on; until then nothing else opens.",
                "Diese Firma verlangt die Zwei-Faktor-Anmeldung. Richten Sie eine Authenticator-App oder einen Passkey ein, um weiterzumachen; bis dahin öffnet sich nichts anderes.",
            )) }
        }
        dl.particulars {
            div { dt { "Name" } dd { (person.name) } }
            div { dt { (lang.pick("E-mail address", "E-Mail-Adresse")) } dd { (person.email) } }
            div {
                dt { (lang.pick("Two-factor sign-in", "Zwei-Faktor-Anmeldung")) }
                dd { (if factors.on() { lang.pick("on", "ein") } else { lang.pick("off", "aus") })
                    @if required { " " (lang.pick("(required by this company)", "(von dieser Firma verlangt)")) } }
            }
        }
        section aria-labelledby="app-heading" {
            h2 #app-heading { (lang.pick("Authenticator app", "Authenticator-App")) }
            @if factors.app {
                p { (lang.pick(
                    "An authenticator app is on: after the password, the sign-in asks for its code.",
                    "Eine Authenticator-App ist eingeschaltet: Nach dem Passwort fragt die Anmeldung nach ihrem Code.",
                )) }
                (act_button(ctx, "/account/totp/remove", lang.pick("Remove the app", "App entfernen")))
            } @else {
                p { (lang.pick(
                    "An app such as FreeOTP, Aegis or Google Authenticator shows a new 6-digit code every 30 seconds; after the password, the sign-in asks for it.",
                    "Eine App wie FreeOTP, Aegis oder Google Authenticator zeigt alle 30 Sekunden einen neuen 6-stelligen Code; nach dem Passwort fragt die Anmeldung danach.",
                )) }
                @if factors.app_pending {
                    p { (lang.pick(
                        "An app was being set up but not confirmed; its secret is not shown again. Begin again for a new one.",
                        "Eine App wurde eingerichtet, aber nicht bestätigt; ihr Geheimnis wird nicht noch einmal gezeigt. Beginnen Sie neu für ein neues.",
                    )) }
                }
                (act_button(ctx, "/account/totp", lang.pick("Set up an authenticator app", "Authenticator-App einrichten")))
            }
        }
        section aria-labelledby="passkeys-heading" {
            h2 #passkeys-heading { (lang.pick("Passkeys", "Passkeys")) }
            p { (lang.pick(
                "A passkey (a security key, or the screen lock of this device) can stand in for the app's code after the password.",
                "Ein Passkey (ein Sicherheitsschlüssel oder die Bildschirmsperre dieses Geräts) kann nach dem Passwort den Code der App ersetzen.",
            )) }
            @if !factors.passkeys.is_empty() {
                (Table::new(&[th("Name"), th(lang.pick("Registered", "Registriert")), th(lang.pick("Last used", "Zuletzt verwendet")), th(lang.pick("Act", "Aktion"))])
                    .read_caption(lang.pick("Your passkeys", "Ihre Passkeys"))
                    .id("passkeys")
                    .rows(&factors.passkeys, |p| html! {
                        td { (p.name) }
                        td { (day(lang, &p.created_at)) }
                        td { (p.last_used_at.as_deref().map(|at| day(lang, at)).unwrap_or_else(|| lang.pick("never", "nie").to_string())) }
                        td { (act_button(ctx, &format!("/account/passkeys/{}/remove", p.id), &format!("{} {}", lang.pick("Remove", "Entfernen"), p.name))) }
                    }))
            }
            form.stack method="post" action="/account/passkeys" novalidate data-passkey="register"
                data-begin="/account/passkeys/begin"
                data-failed=(lang.pick("No passkey was registered.", "Es wurde kein Passkey registriert."))
                data-unsupported=(lang.pick("This browser cannot register passkeys.", "Dieser Browser kann keine Passkeys registrieren.")) {
                (csrf(ctx))
                input type="hidden" name="credential" value="";
                (PASSKEY_NAME.render(lang, "", &none))
                p.passkey-problem data-passkey-problem role="alert" {}
                button type="submit" { (lang.pick("Register a passkey", "Passkey registrieren")) }
            }
        }
        @if factors.on() {
            section aria-labelledby="recovery-heading" {
                h2 #recovery-heading { (lang.pick("Recovery codes", "Wiederherstellungscodes")) }
                p #recovery-left { (match lang {
                    Lang::En => format!("{} of your recovery codes are unused. Each signs you in once when neither the app nor a passkey is at hand.", factors.recovery_left),
                    Lang::De => format!("{} Ihrer Wiederherstellungscodes sind unbenutzt. Jeder meldet Sie einmal an, wenn weder App noch Passkey zur Hand sind.", factors.recovery_left),
                }) }
                (act_button(ctx, "/account/recovery-codes", lang.pick("Make new recovery codes", "Neue Wiederherstellungscodes erstellen")))
            }
        }
        script src="/static/passkeys.js" {}
    };
    Ok(running_own_script(screen_with(
        ctx,
        status,
        Screen::None,
        title(lang),
        content,
    )))
}

/// The day of an instant (`2026-11-29…`) in the page's notation.
fn day(lang: Lang, instant: &str) -> String {
    match instant
        .get(..10)
        .and_then(|d| d.parse::<jiff::civil::Date>().ok())
    {
        Some(d) => locale::date(lang, d),
        None => instant.to_string(),
    }
}

/// GET /account
pub fn show(ctx: &Ctx) -> Result<Answer> {
    overview(ctx, StatusCode::OK, None)
}

/// The overview again with a refusal that no field shows, or the error.
fn refused(ctx: &Ctx, e: Error) -> Result<Answer> {
    match e {
        Error::Invalid(_) | Error::Refused(_) | Error::WrongState(_) | Error::NotFound(_) => {
            let status = e.status();
            overview(ctx, status, Some(sentence(ctx.lang, &e)))
        }
        other => Err(other),
    }
}

/// The ten recovery codes, shown once.
fn codes_shown(lang: Lang, codes: &[Secret]) -> Markup {
    html! {
        p { strong { (lang.pick(
            "Write these recovery codes down or print them now, and keep them apart from your devices: they are shown only this once. Each signs you in once in place of the app or a passkey.",
            "Schreiben Sie diese Wiederherstellungscodes jetzt auf oder drucken Sie sie, und bewahren Sie sie getrennt von Ihren Geräten auf: Sie werden nur dieses eine Mal gezeigt. Jeder meldet Sie einmal anstelle der App oder eines Passkeys an.",
        )) } }
        ol #recovery-codes .recovery-codes {
            @for code in codes { li { code { (code.expose()) } } }
        }
    }
}

/// A page that shows new recovery codes once.
fn codes_page(ctx: &Ctx, sentence: &str, codes: &[Secret]) -> Answer {
    let lang = ctx.lang;
    let content = html! {
        p.notice role="status" { (sentence) }
        (codes_shown(lang, codes))
        p { a href="/account" { (lang.pick("Back to my account", "Zurück zu meinem Konto")) } }
    };
    screen_with(
        ctx,
        StatusCode::OK,
        Screen::None,
        lang.pick("Recovery codes", "Wiederherstellungscodes"),
        content,
    )
}

/// The QR code of an `otpauth://` address, as an SVG image in a data address.
fn qr_image(uri: &Secret) -> Result<String> {
    let code = qrcode::QrCode::new(uri.expose().as_bytes())
        .map_err(|e| Error::internal(format!("cannot make the QR code: {e}")))?;
    let svg = code
        .render::<qrcode::render::svg::Color>()
        .min_dimensions(240, 240)
        .quiet_zone(true)
        .build();
    Ok(format!(
        "data:image/svg+xml;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(svg)
    ))
}

/// The confirmation form of the app being set up.
fn confirm_form(ctx: &Ctx, problems: &Problems) -> Markup {
    let lang = ctx.lang;
    html! {
        form.stack method="post" action="/account/totp/confirm" novalidate {
            (csrf(ctx))
            (CODE.render(lang, "", problems))
            button type="submit" { (lang.pick("Confirm and turn on", "Bestätigen und einschalten")) }
        }
    }
}

/// POST /account/totp: a new secret, shown this once, and the form for its first code.
pub fn begin_app(ctx: &Ctx) -> Result<Answer> {
    let lang = ctx.lang;
    let person = &ctx.session.person;
    let began = ctx.write(|tx| totp::begin(tx, &ctx.app.sealing, &person.id, &person.email));
    let enrolment = match began {
        Ok(enrolment) => enrolment,
        Err(e) => return refused(ctx, e),
    };
    let qr = qr_image(&enrolment.uri)?;
    let content = html! {
        p { (lang.pick(
            "Scan the QR code with the authenticator app, or type the secret into it. Then enter the code the app shows to turn it on.",
            "Scannen Sie den QR-Code mit der Authenticator-App oder tippen Sie das Geheimnis ein. Geben Sie dann den Code ein, den die App zeigt, um sie einzuschalten.",
        )) }
        img.qr src=(qr) width="240" height="240"
            alt=(lang.pick("QR code of the authenticator app's address (the same secret as below)", "QR-Code der Adresse für die Authenticator-App (dasselbe Geheimnis wie unten)"));
        (shown_once(lang.pick(
            "The secret is shown only this once: kontor keeps it sealed and never shows it again.",
            "Das Geheimnis wird nur dieses eine Mal gezeigt: kontor verwahrt es versiegelt und zeigt es nie wieder.",
        ), "secret", lang.pick("Secret (base32)", "Geheimnis (Base32)"), enrolment.secret.expose(), 40))
        div.field {
            label for="otpauth" { (lang.pick("Address for the app", "Adresse für die App")) }
            input #otpauth type="text" readonly value=(enrolment.uri.expose()) size="80";
        }
        (confirm_form(ctx, &Problems::default()))
        p { a href="/account" { (lang.pick("Cancel", "Abbrechen")) } }
    };
    Ok(screen_with(
        ctx,
        StatusCode::OK,
        Screen::None,
        lang.pick(
            "Set up the authenticator app",
            "Authenticator-App einrichten",
        ),
        content,
    ))
}

/// POST /account/totp/confirm `{code}`: the app on and the recovery codes
/// shown once; a wrong code asks again (the secret is not shown again).
pub fn confirm_app(ctx: &Ctx) -> Result<Answer> {
    let lang = ctx.lang;
    let person = &ctx.session.person;
    let code = ctx.form.get("code").unwrap_or("");
    let confirmed = ctx.write(|tx| {
        totp::confirm(
            tx,
            &ctx.app.sealing,
            &ctx.actor(),
            &person.id,
            code,
            jiff::Timestamp::now(),
        )
    });
    match confirmed {
        Ok(codes) => Ok(codes_page(
            ctx,
            lang.pick(
                "The authenticator app is on: from now on, the sign-in asks for its code after the password.",
                "Die Authenticator-App ist eingeschaltet: Ab jetzt fragt die Anmeldung nach dem Passwort nach ihrem Code.",
            ),
            &codes,
        )),
        Err(e @ Error::Invalid(_)) => {
            let problems = Problems::of(&e);
            let content = html! {
                p { (lang.pick(
                    "Enter the code the app shows now. The secret is not shown again; to start over, go back to your account.",
                    "Geben Sie den Code ein, den die App jetzt zeigt. Das Geheimnis wird nicht noch einmal gezeigt; um neu zu beginnen, gehen Sie zurück zu Ihrem Konto.",
                )) }
                (confirm_form(ctx, &problems))
                p { a href="/account" { (lang.pick("Back to my account", "Zurück zu meinem Konto")) } }
            };
            Ok(screen_with(
                ctx,
                StatusCode::BAD_REQUEST,
                Screen::None,
                lang.pick("Set up the authenticator app", "Authenticator-App einrichten"),
                content,
            ))
        }
        Err(e) => refused(ctx, e),
    }
}

/// POST /account/totp/remove
pub fn remove_app(ctx: &Ctx) -> Result<Answer> {
    let person = &ctx.session.person;
    match ctx.write(|tx| totp::remove(tx, &ctx.actor(), &person.id)) {
        Ok(()) => Ok(see_other("/account?done=app-removed")),
        Err(e) => refused(ctx, e),
    }
}

/// POST /account/recovery-codes: ten new codes, shown once; the old ones void.
pub fn new_codes(ctx: &Ctx) -> Result<Answer> {
    let lang = ctx.lang;
    let person = &ctx.session.person;
    match ctx.write(|tx| two_factor::new_recovery_codes(tx, &ctx.actor(), &person.id)) {
        Ok(codes) => Ok(codes_page(
            ctx,
            lang.pick(
                "New recovery codes are made; the earlier ones no longer work.",
                "Neue Wiederherstellungscodes sind erstellt; die früheren gelten nicht mehr.",
            ),
            &codes,
        )),
        Err(e) => refused(ctx, e),
    }
}

fn party(ctx: &Ctx) -> RelyingParty {
    RelyingParty::for_origins(&ctx.app.screens.public_origins)
}

/// POST /account/passkeys/begin `{name}`: the options of a registration for
/// the page's script, as JSON; a refusal as `{"problem": sentence}`.
pub fn begin_passkey(ctx: &Ctx) -> Result<Answer> {
    let session: &Session = ctx.session;
    let person = &session.person;
    let name = ctx.form.get("name").unwrap_or("").trim();
    if name.is_empty() || name.chars().count() > passkeys::MAX_NAME {
        let e = Error::invalid("name", Input::Missing);
        let e = if name.is_empty() {
            e
        } else {
            Error::invalid(
                "name",
                Input::TooLong {
                    max: passkeys::MAX_NAME,
                },
            )
        };
        return Ok(json_answer(
            e.status(),
            &serde_json::json!({ "problem": sentence(ctx.lang, &e) }),
        ));
    }
    let party = party(ctx);
    let begun = ctx.write(|tx| {
        passkeys::begin_registration(
            tx,
            &party,
            &session.token_hash,
            &person.id,
            &person.email,
            &person.name,
            jiff::Timestamp::now(),
        )
    });
    match begun {
        Ok(options) => {
            let options: serde_json::Value =
                serde_json::from_str(&options).map_err(Error::internal)?;
            Ok(json_answer(StatusCode::OK, &options))
        }
        Err(e @ (Error::Refused(_) | Error::Invalid(_))) => Ok(json_answer(
            e.status(),
            &serde_json::json!({ "problem": sentence(ctx.lang, &e) }),
        )),
        Err(e) => Err(e),
    }
}

/// POST /account/passkeys `{name, credential}`: the browser's answer; the
/// passkey registered (with the recovery codes shown once when it is the
/// first factor), or the overview with the refusal.
pub fn add_passkey(ctx: &Ctx) -> Result<Answer> {
    let lang = ctx.lang;
    let person = &ctx.session.person;
    let credential = ctx.form.get("credential").unwrap_or("");
    if credential.is_empty() {
        return overview(
            ctx,
            StatusCode::BAD_REQUEST,
            Some(
                lang.pick(
                    "The browser sent no passkey: registering one needs JavaScript and a browser that supports passkeys.",
                    "Der Browser hat keinen Passkey gesendet: Das Registrieren braucht JavaScript und einen Browser, der Passkeys unterstützt.",
                )
                .to_string(),
            ),
        );
    }
    let party = party(ctx);
    let added = ctx.write(|tx| {
        passkeys::finish_registration(
            tx,
            &party,
            &ctx.session.token_hash,
            &ctx.actor(),
            &person.id,
            passkeys::Answer {
                name: ctx.form.get("name"),
                credential,
            },
            jiff::Timestamp::now(),
        )
    });
    match added {
        Ok(registered) => match registered.recovery_codes {
            Some(codes) => Ok(codes_page(
                ctx,
                &match lang {
                    Lang::En => format!(
                        "The passkey “{}” is registered: from now on, the sign-in asks for it after the password.",
                        registered.passkey.name
                    ),
                    Lang::De => format!(
                        "Der Passkey „{}“ ist registriert: Ab jetzt fragt die Anmeldung nach dem Passwort danach.",
                        registered.passkey.name
                    ),
                },
                &codes,
            )),
            None => Ok(see_other("/account?done=passkey-added")),
        },
        Err(e) => refused(ctx, e),
    }
}

/// POST /account/passkeys/{id}/remove
pub fn remove_passkey(ctx: &Ctx, id: &str) -> Result<Answer> {
    let person = &ctx.session.person;
    match ctx.write(|tx| passkeys::remove(tx, &ctx.actor(), &person.id, id)) {
        Ok(()) => Ok(see_other("/account?done=passkey-removed")),
        Err(e) => refused(ctx, e),
    }
}
