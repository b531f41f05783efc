//! Signing in at `/login`: the form (with a token of its own in a cookie,
//! so no other site can sign a browser in), the waits failed attempts earn,
//! the password check (the same work and the same answer for an unknown
//! account, capped in how many run at once), and a new session with a new
//! id, or, for a person with a second factor, a step that awaits it
//! (`second_factor`) and no session. The invitation and reset pages (`links`) check a password the same
//! way, with the same turn and waits. Signing out is in `session`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use hyper::StatusCode;
use maud::html;

use super::form::{FormField, Problems};
use super::frame::{bare, failure, see_other, Noun};
use super::visit::{
    cookie, same_origin, set_cookie, Visit, LOGIN_COOKIE, SESSION_COOKIE, STEP_COOKIE,
};
use crate::access::sessions::{self, random_token};
use crate::access::{passwords, people, steps, two_factor};
use crate::error::{Error, Result};
use crate::http::app::{in_store, Answer, App, ScreenConfig};
use crate::rules::locale::Lang;

/// The page of a sign-in's second factor.
pub const SECOND_FACTOR: &str = "/login/second-factor";

/// How long a sign-in waits for its turn at the password check before it
/// is told kontor is busy.
pub const HASHING_WAIT: Duration = Duration::from_secs(10);

/// The e-mail address a person signs in with (also an invitation's), and
/// their password.
pub const EMAIL: FormField = FormField::text(
    "email",
    "E-mail address",
    "E-Mail-Adresse",
    people::MAX_EMAIL,
)
.required()
.kind("email")
.autocomplete("username");
pub const PASSWORD: FormField =
    FormField::text("password", "Password", "Passwort", passwords::MAX_LENGTH)
        .required()
        .kind("password")
        .autocomplete("current-password");

/// Minutes, counted.
const MINUTES: Noun = Noun {
    en: ("minute", "minutes"),
    de: ("Minute", "Minuten"),
};

/// The sentence of a sign-in refused for the failures before it: try again
/// after `wait`, said in whole minutes, rounded up.
pub fn too_many_failures(lang: Lang, wait: Duration) -> String {
    let minutes = wait.as_secs().div_ceil(60).max(1);
    let minutes = MINUTES.count(lang, i64::try_from(minutes).unwrap_or(i64::MAX));
    match lang {
        Lang::En => format!("Too many failed sign-ins. Please wait {minutes} and try again."),
        Lang::De => format!("Zu viele fehlgeschlagene Anmeldungen. Bitte {minutes} warten und es dann erneut versuchen."),
    }
}

/// The sign-in form's token: the browser's, when it has a well-formed one.
fn form_token(visit: &Visit) -> String {
    cookie(visit.cookie.as_deref(), LOGIN_COOKIE)
        .filter(|t| t.len() == 43)
        .map(str::to_string)
        .unwrap_or_else(random_token)
}

/// The sign-in page, with `email` as typed and what went wrong.
fn page(
    settings: &ScreenConfig,
    lang: Lang,
    status: StatusCode,
    token: &str,
    email: &str,
    problem: Option<String>,
) -> Answer {
    let problems = Problems::default();
    let content = html! {
        @if let Some(problem) = &problem {
            p.problem role="alert" { (problem) }
        }
        form.stack method="post" action="/login" {
            input type="hidden" name="csrf" value=(token);
            (EMAIL.render(lang, email, &problems))
            (PASSWORD.render(lang, "", &problems))
            button type="submit" { (lang.pick("Sign in", "Anmelden")) }
        }
    };
    let mut answer = bare(lang, status, lang.pick("Sign in", "Anmelden"), content);
    answer.headers.push((
        "Set-Cookie",
        set_cookie(settings, LOGIN_COOKIE, token, "/login"),
    ));
    answer
}

/// GET /login
pub fn form(settings: &ScreenConfig, visit: &Visit, lang: Lang) -> Answer {
    page(settings, lang, StatusCode::OK, &form_token(visit), "", None)
}

/// POST /login
pub async fn submit(app: Arc<App>, visit: Visit, lang: Lang) -> Answer {
    let settings = &app.screens;
    let token = form_token(&visit);
    let form = visit.form();
    let email = form.get("email").unwrap_or("").trim().to_string();
    let password = form.get("password").unwrap_or("").to_string();
    let refuse = |status, problem: &str| {
        page(
            settings,
            lang,
            status,
            &token,
            &email,
            Some(problem.to_string()),
        )
    };
    let sent_token = form.get("csrf").unwrap_or("");
    let from_here = cookie(visit.cookie.as_deref(), LOGIN_COOKIE)
        .is_some_and(|kept| sessions::same_token(kept, sent_token));
    if !from_here || !same_origin(settings, &visit) {
        return refuse(
            StatusCode::FORBIDDEN,
            lang.pick(
                "This sign-in form is out of date or came from another site. Please sign in again.",
                "Dieses Anmeldeformular ist veraltet oder kam von einer anderen Seite. Bitte erneut anmelden.",
            ),
        );
    }
    if let Some(wait) = settings.lockout.wait(&email, visit.client, Instant::now()) {
        return refuse(
            StatusCode::TOO_MANY_REQUESTS,
            &too_many_failures(lang, wait),
        );
    }
    let wrong = lang.pick(
        "The e-mail address or the password is wrong.",
        "E-Mail-Adresse oder Passwort sind falsch.",
    );
    let lookup = email.clone();
    let credentials = match in_store(&app, true, None, move |conn| {
        people::credentials(conn, &lookup)
    })
    .await
    {
        Ok(Ok(found)) => found,
        Ok(Err(e)) | Err(e) => return failure(&e, lang, None),
    };
    let stored = credentials.as_ref().map(|(_, hash)| hash.clone());
    let waited = tokio::time::timeout(HASHING_WAIT, settings.hashing.acquire()).await;
    let Ok(Ok(turn)) = waited else {
        return failure(&Error::Busy, lang, None);
    };
    let verified =
        tokio::task::spawn_blocking(move || passwords::verify(&password, stored.as_deref()))
            .await
            .unwrap_or(false);
    drop(turn);
    let user_id = match credentials {
        Some((user_id, _)) if verified => user_id,
        _ => {
            settings.lockout.fail(&email, visit.client, Instant::now());
            return refuse(StatusCode::UNAUTHORIZED, wrong);
        }
    };
    settings.lockout.succeed(&email, visit.client);
    let person = user_id.clone();
    let two_factors =
        match in_store(&app, true, None, move |conn| two_factor::on(conn, &person)).await {
            Ok(Ok(on)) => on,
            Ok(Err(e)) | Err(e) => return failure(&e, lang, None),
        };
    if two_factors {
        return second_step(app.clone(), user_id, lang).await;
    }
    match start_session(app.clone(), &visit, user_id).await {
        Ok(answer) => answer,
        // A person who belongs to no company has nowhere to go.
        Err(Error::NotFound(_)) => refuse(StatusCode::UNAUTHORIZED, wrong),
        Err(e) => failure(&e, lang, None),
    }
}

/// A right password of a person with a second factor: no session yet, but a
/// step awaiting the second factor, on to its page.
async fn second_step(app: Arc<App>, user_id: String, lang: Lang) -> Answer {
    let writer = app.clone();
    let started = in_store(&app, false, None, move |_| {
        writer
            .db
            .write(|tx| steps::start(tx, &user_id, jiff::Timestamp::now()))
    })
    .await;
    match started {
        Ok(Ok(step)) => {
            let mut answer = see_other(SECOND_FACTOR);
            answer.headers.push((
                "Set-Cookie",
                set_cookie(&app.screens, STEP_COOKIE, &step, "/login"),
            ));
            answer.headers.push((
                "Set-Cookie",
                set_cookie(&app.screens, LOGIN_COOKIE, "", "/login"),
            ));
            answer
        }
        Ok(Err(e)) | Err(e) => failure(&e, lang, None),
    }
}

/// Starts a session for a person who signed in (with the second factor,
/// when they have one): the browser's earlier session ends, expired ones
/// go, and the sign-in's cookies are cleared; on to the dashboard (or the
/// set-up of a second factor, which the session leads to when its company
/// requires one).
///
/// Fails with `NotFound` when the person belongs to no company they are
/// enabled in, and on a storage error.
pub async fn start_session(app: Arc<App>, visit: &Visit, user_id: String) -> Result<Answer> {
    let old = cookie(visit.cookie.as_deref(), SESSION_COOKIE).map(str::to_string);
    let step = cookie(visit.cookie.as_deref(), STEP_COOKIE).map(str::to_string);
    let writer = app.clone();
    let session = in_store(&app, false, None, move |_| -> Result<String> {
        let now = jiff::Timestamp::now();
        let expiry = writer.screens.expiry;
        writer.db.write(|tx| {
            if let Some(old) = &old {
                // The browser's earlier session ends: a sign-in never continues one.
                if let Some(session) = sessions::find(tx, old, expiry, now)? {
                    sessions::end(tx, &session.token_hash)?;
                }
            }
            if let Some(step) = &step {
                steps::end(tx, &sessions::hash_of(step))?;
            }
            sessions::purge(tx, expiry, now)?;
            sessions::start(tx, &user_id, None, now)
        })
    })
    .await??;
    let settings = &app.screens;
    let mut answer = see_other("/dashboard");
    answer.headers.push((
        "Set-Cookie",
        set_cookie(settings, SESSION_COOKIE, &session, "/"),
    ));
    answer.headers.push((
        "Set-Cookie",
        set_cookie(settings, LOGIN_COOKIE, "", "/login"),
    ));
    answer.headers.push((
        "Set-Cookie",
        set_cookie(settings, STEP_COOKIE, "", "/login"),
    ));
    Ok(answer)
}
