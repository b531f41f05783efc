//! The pages of one-time links, opened without a session: an invitation
//! (`/invite?token=…`) and a password reset (`/reset?token=…`). The token
//! travels in the query, which the request log never writes. Like the
//! sign-in, each form carries a token of its own from a `kontor_link`
//! cookie and passes the `Origin` check, so no other site can post it; the
//! pages carry the same security headers as every page. A link that is
//! unknown, used or older than 24 hours gets a page saying so.
//!
//! A person new to kontor chooses a name and a password (twice, the same
//! rules as the console's); a person kontor knows by the invited address
//! gives their own password, checked as a sign-in checks it (same work, same
//! cap, the same waits after failures), and keeps it. A reset sets a new
//! password, ends every session of the person and forgets the failed
//! sign-ins of their account. The acts are `access::links`' (`accept`,
//! `use_reset`), each recording its audit row naming the person.

use std::sync::Arc;
use std::time::Instant;

use hyper::StatusCode;
use maud::html;

use super::form::{Form, FormField, Problems};
use super::frame::{bare, failure, role_label};
use super::login::{too_many_failures, HASHING_WAIT, PASSWORD};
use super::visit::{cookie, same_origin, set_cookie, Visit};
use crate::access::links::{self, Joining, Link, LinkKind};
use crate::access::sessions::{self, random_token};
use crate::access::{passwords, people};
use crate::error::said::Record;
use crate::error::{Error, Result, Said, Violation, Violations};
use crate::http::app::{in_store, Answer, App};
use crate::http::query::Query;
use crate::rules::catalogue::Reader;
use crate::rules::locale::Lang;

/// The cookie that carries a link form's token.
const LINK_COOKIE: &str = "kontor_link";

/// The address at which the screens open a link.
pub fn link_path(kind: LinkKind, token: &str) -> String {
    match kind {
        LinkKind::Invitation => format!("/invite?token={token}"),
        LinkKind::Reset => format!("/reset?token={token}"),
    }
}

fn cookie_path(kind: LinkKind) -> &'static str {
    match kind {
        LinkKind::Invitation => "/invite",
        LinkKind::Reset => "/reset",
    }
}

/// The form's token: the browser's, when it has a well-formed one.
fn form_token(visit: &Visit) -> String {
    cookie(visit.cookie.as_deref(), LINK_COOKIE)
        .filter(|t| t.len() == 43)
        .map(str::to_string)
        .unwrap_or_else(random_token)
}

/// The name of a person new to kontor.
const NAME: FormField = FormField::text("name", "Your name", "Ihr Name", links::MAX_NAME)
    .required()
    .autocomplete("name");
/// A new password, and the same again.
const NEW_PASSWORD: FormField = PASSWORD.autocomplete("new-password");
const PASSWORD_REPEAT: FormField = FormField::text(
    "passwordRepeat",
    "The password again",
    "Das Passwort noch einmal",
    passwords::MAX_LENGTH,
)
.required()
.kind("password")
.autocomplete("new-password");

/// The form of an open link.
const LINK_FORM: Form = Form::new(&[NAME, PASSWORD, PASSWORD_REPEAT]);

/// The page of an open link: its form, with what was typed (never a
/// password) and the problems of a refusal.
/// An open link as its page carries it: the link, its token, and the
/// form's own token.
struct Opened<'a> {
    link: &'a Link,
    token: &'a str,
    form_token: &'a str,
}

fn form_page(
    app: &App,
    lang: Lang,
    status: StatusCode,
    opened: &Opened,
    name: &str,
    problems: &Problems,
) -> Answer {
    let Opened {
        link,
        token,
        form_token,
    } = *opened;
    let known = link.kind == LinkKind::Invitation && link.user_id.is_some();
    let role = link.role.map(|r| role_label(lang, r)).unwrap_or("");
    let new_hint = Some(match lang {
        Lang::En => format!("At least {} characters", passwords::MIN_LENGTH),
        Lang::De => format!("Mindestens {} Zeichen", passwords::MIN_LENGTH),
    });
    let (title, action, button) = match (link.kind, known) {
        (LinkKind::Invitation, _) => (
            lang.pick("Invitation", "Einladung"),
            "/invite",
            lang.pick("Join", "Beitreten"),
        ),
        (LinkKind::Reset, _) => (
            lang.pick("Set a new password", "Neues Passwort setzen"),
            "/reset",
            lang.pick("Set password", "Passwort setzen"),
        ),
    };
    let content = html! {
        @match link.kind {
            LinkKind::Invitation => p {
                (match lang {
                    Lang::En => format!("You are invited to {} as {role}, under the address {}.", link.company, link.email),
                    Lang::De => format!("Sie sind zu {} eingeladen, als {role}, unter der Adresse {}.", link.company, link.email),
                })
            },
            LinkKind::Reset => p {
                (match lang {
                    Lang::En => format!("A new password for {}. Setting it signs you out everywhere.", link.email),
                    Lang::De => format!("Ein neues Passwort für {}. Wenn Sie es setzen, werden Sie überall abgemeldet.", link.email),
                })
            },
        }
        @if known {
            p { (lang.pick(
                "kontor knows you by this address: give your password to join; it stays as it is.",
                "kontor kennt Sie unter dieser Adresse: Geben Sie Ihr Passwort ein, um beizutreten; es bleibt, wie es ist.",
            )) }
        }
        (LINK_FORM.summary(lang, problems))
        form.stack method="post" action=(action) novalidate {
            input type="hidden" name="csrf" value=(form_token);
            input type="hidden" name="token" value=(token);
            input type="hidden" name="email" value=(link.email) autocomplete="username";
            @if known {
                (PASSWORD.render(lang, "", problems))
            } @else {
                @if link.kind == LinkKind::Invitation {
                    (NAME.render(lang, name, problems))
                }
                (NEW_PASSWORD.render_hinted(lang, "", new_hint, problems))
                (PASSWORD_REPEAT.render(lang, "", problems))
            }
            button type="submit" { (button) }
        }
    };
    let mut answer = bare(lang, status, title, content);
    answer.headers.push((
        "Set-Cookie",
        set_cookie(
            &app.screens,
            LINK_COOKIE,
            form_token,
            cookie_path(link.kind),
        ),
    ));
    answer
}

/// The page of a link that does not work (unknown, used, expired), or of
/// another failure.
fn not_working(lang: Lang, e: &Error) -> Answer {
    let sentence = match e {
        Error::NotFound(_) => lang.pick(
            "This link is not known: it may be mistyped, or a newer link replaced it. Ask the company's owner for a new one.",
            "Dieser Link ist unbekannt: Vielleicht ist er falsch abgeschrieben, oder ein neuerer hat ihn ersetzt. Bitten Sie den Inhaber der Firma um einen neuen.",
        ).to_string(),
        Error::WrongState(said) => said.text(Reader::screens(lang)),
        other => return failure(other, lang, None),
    };
    let content = html! {
        p.problem role="alert" { (sentence) }
        p { a href="/login" { (lang.pick("To the sign-in", "Zur Anmeldung")) } }
    };
    bare(
        lang,
        e.status(),
        lang.pick("This link does not work", "Dieser Link funktioniert nicht"),
        content,
    )
}

/// Opens the link a token names, for a read.
async fn opened(app: &Arc<App>, kind: LinkKind, token: String) -> Result<Link> {
    let link = in_store(app, true, None, move |conn| {
        links::open(conn, &token, jiff::Timestamp::now())
    })
    .await??;
    if link.kind == kind {
        Ok(link)
    } else {
        Err(Error::not_found(Said::Record(Record::Link, String::new())))
    }
}

/// GET /invite, GET /reset `?token=…`
pub async fn show(app: Arc<App>, visit: Visit, lang: Lang, kind: LinkKind) -> Answer {
    let query = Query::parse(&visit.query).unwrap_or_default();
    let token = query.get("token").unwrap_or("").to_string();
    match opened(&app, kind, token.clone()).await {
        Ok(link) => {
            let name = link.name.clone().unwrap_or_default();
            let opened = Opened {
                link: &link,
                token: &token,
                form_token: &form_token(&visit),
            };
            form_page(
                &app,
                lang,
                StatusCode::OK,
                &opened,
                &name,
                &Problems::default(),
            )
        }
        Err(e) => not_working(lang, &e),
    }
}

/// POST /invite, POST /reset `{csrf, token, name?, password, passwordRepeat?}`
pub async fn submit(app: Arc<App>, visit: Visit, lang: Lang, kind: LinkKind) -> Answer {
    let form = visit.form();
    let csrf = form_token(&visit);
    let from_here = cookie(visit.cookie.as_deref(), LINK_COOKIE)
        .is_some_and(|kept| sessions::same_token(kept, form.get("csrf").unwrap_or("")));
    if !from_here || !same_origin(&app.screens, &visit) {
        let content = html! {
            p.problem role="alert" { (lang.pick(
                "This form is out of date or was sent from another site; nothing was done. Open the link again.",
                "Dieses Formular ist veraltet oder kam von einer anderen Seite; es wurde nichts getan. Bitte den Link erneut öffnen.",
            )) }
        };
        return bare(
            lang,
            StatusCode::FORBIDDEN,
            lang.pick("Refused", "Abgelehnt"),
            content,
        );
    }
    let token = form.get("token").unwrap_or("").to_string();
    let link = match opened(&app, kind, token.clone()).await {
        Ok(link) => link,
        Err(e) => return not_working(lang, &e),
    };
    let name = form.get("name").unwrap_or("").to_string();
    let password = form.get("password").unwrap_or("").to_string();
    let refuse = |e: Error| match e {
        Error::Invalid(_) | Error::Refused(_) => {
            let problems = Problems::of(&e);
            let opened = Opened {
                link: &link,
                token: &token,
                form_token: &csrf,
            };
            form_page(&app, lang, e.status(), &opened, &name, &problems)
        }
        other => not_working(lang, &other),
    };
    let known = kind == LinkKind::Invitation && link.user_id.is_some();
    if !known {
        // A new password: its rules, and typed the same twice.
        let mut v = Violations::new();
        if kind == LinkKind::Invitation && name.trim().is_empty() {
            v.invalid("name", crate::error::said::Input::Missing);
        }
        if let Err(e) = v.take(passwords::check_new(&password)) {
            return refuse(e);
        }
        if form.get("passwordRepeat").unwrap_or("") != password {
            v.invalid("passwordRepeat", crate::error::said::Input::PasswordsDiffer);
        }
        if let Err(e) = v.finish() {
            return refuse(e);
        }
    }
    // The password's hashing or checking waits its turn, as a sign-in's does.
    let waited = tokio::time::timeout(HASHING_WAIT, app.screens.hashing.acquire()).await;
    let Ok(Ok(turn)) = waited else {
        return failure(&Error::Busy, lang, None);
    };
    let joining = if known {
        if let Some(wait) = app
            .screens
            .lockout
            .wait(&link.email, visit.client, Instant::now())
        {
            drop(turn);
            return refuse(Error::Refused(vec![Violation::at(
                "password",
                too_many_failures(lang, wait),
            )]));
        }
        let email = link.email.clone();
        let credentials = in_store(&app, true, None, move |conn| {
            people::credentials(conn, &email)
        })
        .await
        .and_then(|found| found);
        let credentials = match credentials {
            Ok(found) => found,
            Err(e) => return failure(&e, lang, None),
        };
        let stored = credentials.as_ref().map(|(_, hash)| hash.clone());
        let typed = password.clone();
        let verified =
            tokio::task::spawn_blocking(move || passwords::verify(&typed, stored.as_deref()))
                .await
                .unwrap_or(false);
        match credentials {
            Some((user_id, _)) if verified => {
                app.screens.lockout.succeed(&link.email, visit.client);
                Joining::Known { user_id }
            }
            _ => {
                drop(turn);
                app.screens
                    .lockout
                    .fail(&link.email, visit.client, Instant::now());
                return refuse(Error::Refused(vec![Violation::at(
                    "password",
                    lang.pick("is wrong", "ist falsch"),
                )]));
            }
        }
    } else {
        Joining::New {
            name: name.clone(),
            password: password.clone(),
        }
    };
    let writer = app.clone();
    let token_used = token.clone();
    let used = in_store(&app, false, None, move |_| {
        let token = token_used;
        let now = jiff::Timestamp::now();
        writer.db.write(|tx| match kind {
            LinkKind::Invitation => Ok(links::accept(tx, &token, joining, now)?.email),
            LinkKind::Reset => Ok(links::use_reset(tx, &token, &password, now)?.email),
        })
    })
    .await
    .and_then(|done| done);
    drop(turn);
    let email = match used {
        Ok(email) => email,
        Err(e) => return refuse(e),
    };
    if kind == LinkKind::Reset {
        app.screens.lockout.forget_account(&email);
    }
    let sentence = match (kind, lang) {
        (LinkKind::Invitation, Lang::En) => format!(
            "Welcome: you belong to {} as {} now. Sign in with {email}.",
            link.company,
            link.role.map(|r| role_label(lang, r)).unwrap_or("")
        ),
        (LinkKind::Invitation, Lang::De) => format!(
            "Willkommen: Sie gehören jetzt zu {}, als {}. Melden Sie sich mit {email} an.",
            link.company,
            link.role.map(|r| role_label(lang, r)).unwrap_or("")
        ),
        (LinkKind::Reset, Lang::En) => format!(
            "Your password is set and every session of yours has ended. Sign in with {email}."
        ),
        (LinkKind::Reset, Lang::De) => format!(
            "Ihr Passwort ist gesetzt, und alle Ihre Sitzungen sind beendet. Melden Sie sich mit {email} an."
        ),
    };
    let content = html! {
        p.notice role="status" { (sentence) }
        p { a href="/login" { (lang.pick("To the sign-in", "Zur Anmeldung")) } }
    };
    let title = match kind {
        LinkKind::Invitation => lang.pick("Invitation accepted", "Einladung angenommen"),
        LinkKind::Reset => lang.pick("Password set", "Passwort gesetzt"),
    };
    let mut answer = bare(lang, StatusCode::OK, title, content);
    answer.headers.push((
        "Set-Cookie",
        set_cookie(&app.screens, LINK_COOKIE, "", cookie_path(kind)),
    ));
    answer
}
