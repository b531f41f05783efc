//! A sign-in's second step at `/login/second-factor`, after a right
//! password of a person with a second factor: the code of their
//! authenticator app, a passkey (through the one script of the screens), or
//! a recovery code. The step is no session: its cookie (`kontor_step`, sent
//! only to `/login…`) opens these forms and nothing else, each form carries
//! the step's own token and is checked for its origin, and wrong codes count
//! toward the waits of `access::lockout` as wrong passwords do. A factor
//! taken starts the session (`login::start_session`).

use std::sync::Arc;
use std::time::Instant;

use hyper::StatusCode;
use maud::html;

use super::form::{sentence, FormField, Problems, APP_CODE as CODE};
use super::frame::{bare, failure, json_answer, running_own_script, see_other};
use super::login::{start_session, too_many_failures};
use super::visit::{cookie, same_origin, Visit, STEP_COOKIE};
use crate::access::passkeys::{self, RelyingParty};
use crate::access::sessions;
use crate::access::steps::{self, Step};
use crate::access::totp;
use crate::access::two_factor::{self, Factors};
use crate::error::{Error, Result};
use crate::http::app::{in_store, Answer, App};
use crate::rules::locale::Lang;

/// A recovery code.
const RECOVERY_CODE: FormField = FormField::text(
    "recoveryCode",
    "Recovery code",
    "Wiederherstellungscode",
    40,
)
.required()
.autocomplete("off");

/// The step the browser's cookie names, if it is still live.
async fn step_of(app: &Arc<App>, visit: &Visit) -> Result<Option<Step>> {
    let Some(token) = cookie(visit.cookie.as_deref(), STEP_COOKIE).map(str::to_string) else {
        return Ok(None);
    };
    in_store(app, true, None, move |conn| {
        steps::find(conn, &token, jiff::Timestamp::now())
    })
    .await?
}

/// The factors of the step's person.
async fn factors_of(app: &Arc<App>, step: &Step) -> Result<Factors> {
    let user_id = step.user_id.clone();
    in_store(app, true, None, move |conn| {
        two_factor::factors(conn, &user_id)
    })
    .await?
}

/// The page of the second step, with what went wrong.
fn page(
    lang: Lang,
    status: StatusCode,
    step: &Step,
    factors: &Factors,
    problem: Option<&str>,
) -> Answer {
    let none = Problems::default();
    let token = &step.csrf;
    let content = html! {
        @if let Some(problem) = problem {
            p.problem role="alert" { (problem) }
        }
        p { (match lang {
            Lang::En => format!("The password of {} was right. Confirm that it is you with a second factor.", step.email),
            Lang::De => format!("Das Passwort von {} war richtig. Bestätigen Sie mit einem zweiten Faktor, dass Sie es sind.", step.email),
        }) }
        @if factors.app {
            section aria-labelledby="app-heading" {
                h2 #app-heading { (lang.pick("Authenticator app", "Authenticator-App")) }
                form.stack method="post" action="/login/code" novalidate {
                    input type="hidden" name="csrf" value=(token);
                    (CODE.render(lang, "", &none))
                    button type="submit" { (lang.pick("Confirm", "Bestätigen")) }
                }
            }
        }
        @if !factors.passkeys.is_empty() {
            section aria-labelledby="passkey-heading" {
                h2 #passkey-heading { (lang.pick("Passkey", "Passkey")) }
                form.stack method="post" action="/login/passkey" data-passkey="sign-in"
                    data-begin="/login/passkey/begin"
                    data-failed=(lang.pick("The passkey was not used.", "Der Passkey wurde nicht verwendet."))
                    data-unsupported=(lang.pick("This browser cannot use passkeys.", "Dieser Browser kann keine Passkeys verwenden.")) {
                    input type="hidden" name="csrf" value=(token);
                    input type="hidden" name="credential" value="";
                    p.passkey-problem data-passkey-problem role="alert" {}
                    button type="submit" { (lang.pick("Use a passkey", "Passkey verwenden")) }
                }
            }
        }
        section aria-labelledby="recovery-heading" {
            h2 #recovery-heading { (lang.pick("Recovery code", "Wiederherstellungscode")) }
            p { (lang.pick(
                "Without the app or the passkey at hand, one of your recovery codes signs you in once.",
                "Ohne App oder Passkey meldet Sie einer Ihrer Wiederherstellungscodes einmal an.",
            )) }
            form.stack method="post" action="/login/recovery" novalidate {
                input type="hidden" name="csrf" value=(token);
                (RECOVERY_CODE.render(lang, "", &none))
                button type="submit" { (lang.pick("Sign in with the recovery code", "Mit dem Wiederherstellungscode anmelden")) }
            }
        }
        p { a href="/login" { (lang.pick("Start the sign-in again", "Anmeldung neu beginnen")) } }
        script src="/static/passkeys.js" {}
    };
    running_own_script(bare(
        lang,
        status,
        lang.pick("Second factor", "Zweiter Faktor"),
        content,
    ))
}

/// GET /login/second-factor
pub async fn show(app: Arc<App>, visit: Visit, browser: Lang) -> Answer {
    let step = match step_of(&app, &visit).await {
        Ok(Some(step)) => step,
        Ok(None) => return see_other("/login"),
        Err(e) => return failure(&e, browser, None),
    };
    let lang = step.locale.unwrap_or(browser);
    match factors_of(&app, &step).await {
        Ok(factors) => page(lang, StatusCode::OK, &step, &factors, None),
        Err(e) => failure(&e, lang, None),
    }
}

/// Which second factor a post offers.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Offered {
    /// `POST /login/code {code}`
    Code,
    /// `POST /login/recovery {recoveryCode}`
    Recovery,
    /// `POST /login/passkey {credential}`
    Passkey,
}

/// POST /login/code, /login/recovery, /login/passkey: the step's token and
/// origin checked, the waits of failed attempts, the factor taken once; a
/// session, or the page again with the refusal.
pub async fn submit(app: Arc<App>, visit: Visit, browser: Lang, offered: Offered) -> Answer {
    let step = match step_of(&app, &visit).await {
        Ok(Some(step)) => step,
        Ok(None) => return see_other("/login"),
        Err(e) => return failure(&e, browser, None),
    };
    let lang = step.locale.unwrap_or(browser);
    let factors = match factors_of(&app, &step).await {
        Ok(factors) => factors,
        Err(e) => return failure(&e, lang, None),
    };
    let refuse = |status, problem: &str| page(lang, status, &step, &factors, Some(problem));
    let form = visit.form();
    let from_here = form
        .get("csrf")
        .is_some_and(|sent| sessions::same_token(sent, &step.csrf));
    if !from_here || !same_origin(&app.screens, &visit) {
        return refuse(
            StatusCode::FORBIDDEN,
            lang.pick(
                "This form is out of date or came from another site; nothing was done. Please try again.",
                "Dieses Formular ist veraltet oder kam von einer anderen Seite; es wurde nichts getan. Bitte erneut versuchen.",
            ),
        );
    }
    let lockout = &app.screens.lockout;
    if let Some(wait) = lockout.wait(&step.email, visit.client, Instant::now()) {
        return refuse(
            StatusCode::TOO_MANY_REQUESTS,
            &too_many_failures(lang, wait),
        );
    }
    let typed = match offered {
        Offered::Code => form.get("code"),
        Offered::Recovery => form.get("recoveryCode"),
        Offered::Passkey => form.get("credential"),
    }
    .unwrap_or("")
    .to_string();
    let writer = app.clone();
    let checked = step.clone();
    let taken = in_store(&app, false, None, move |_| -> Result<bool> {
        let now = jiff::Timestamp::now();
        let app = &*writer;
        app.db.write(|tx| match offered {
            Offered::Code => totp::accept(tx, &app.sealing, &checked.user_id, &typed, now),
            Offered::Recovery => {
                two_factor::take_recovery_code(tx, &checked.user_id, &checked.email, &typed)
            }
            Offered::Passkey => {
                let party = RelyingParty::for_origins(&app.screens.public_origins);
                passkeys::finish_sign_in(tx, &party, &checked, &typed, now)
            }
        })
    })
    .await;
    match taken {
        Ok(Ok(true)) => {
            lockout.succeed(&step.email, visit.client);
            match start_session(app.clone(), &visit, step.user_id.clone()).await {
                Ok(answer) => answer,
                Err(e) => failure(&e, lang, None),
            }
        }
        Ok(Ok(false)) => {
            lockout.fail(&step.email, visit.client, Instant::now());
            let sentence = match offered {
                Offered::Code => lang.pick(
                    "The code is wrong or was used already. Enter the code the app shows now.",
                    "Der Code ist falsch oder wurde schon verwendet. Geben Sie den Code ein, den die App jetzt zeigt.",
                ),
                Offered::Recovery => lang.pick(
                    "This recovery code is wrong or was used already.",
                    "Dieser Wiederherstellungscode ist falsch oder wurde schon verwendet.",
                ),
                Offered::Passkey => lang.pick(
                    "The passkey could not be verified.",
                    "Der Passkey konnte nicht bestätigt werden.",
                ),
            };
            refuse(StatusCode::UNAUTHORIZED, sentence)
        }
        Ok(Err(e)) | Err(e) => failure(&e, lang, None),
    }
}

/// POST /login/passkey/begin `{csrf}`: the options of a passkey check for
/// the page's script, as JSON; a refusal as `{"problem": sentence}`.
pub async fn begin_passkey(app: Arc<App>, visit: Visit, browser: Lang) -> Answer {
    let problem = |status: StatusCode, sentence: String| {
        json_answer(status, &serde_json::json!({ "problem": sentence }))
    };
    let step = match step_of(&app, &visit).await {
        Ok(Some(step)) => step,
        Ok(None) => {
            return problem(
                StatusCode::UNAUTHORIZED,
                browser
                    .pick(
                        "The sign-in has expired; please sign in again.",
                        "Die Anmeldung ist abgelaufen; bitte erneut anmelden.",
                    )
                    .to_string(),
            )
        }
        Err(e) => return problem(e.status(), sentence(browser, &e)),
    };
    let lang = step.locale.unwrap_or(browser);
    let form = visit.form();
    let from_here = form
        .get("csrf")
        .is_some_and(|sent| sessions::same_token(sent, &step.csrf));
    if !from_here || !same_origin(&app.screens, &visit) {
        return problem(
            StatusCode::FORBIDDEN,
            lang.pick(
                "This form is out of date or came from another site.",
                "Dieses Formular ist veraltet oder kam von einer anderen Seite.",
            )
            .to_string(),
        );
    }
    if let Some(wait) = app
        .screens
        .lockout
        .wait(&step.email, visit.client, Instant::now())
    {
        return problem(StatusCode::TOO_MANY_REQUESTS, too_many_failures(lang, wait));
    }
    let writer = app.clone();
    let begun = in_store(&app, false, None, move |_| -> Result<String> {
        let party = RelyingParty::for_origins(&writer.screens.public_origins);
        writer
            .db
            .write(|tx| passkeys::begin_sign_in(tx, &party, &step))
    })
    .await;
    match begun {
        Ok(Ok(options)) => match serde_json::from_str::<serde_json::Value>(&options) {
            Ok(options) => json_answer(StatusCode::OK, &options),
            Err(e) => problem(
                StatusCode::INTERNAL_SERVER_ERROR,
                sentence(lang, &Error::internal(e)),
            ),
        },
        Ok(Err(e)) | Err(e) => {
            if let Error::Internal(detail) = &e {
                tracing::error!("{detail}");
            }
            problem(e.status(), sentence(lang, &e))
        }
    }
}
