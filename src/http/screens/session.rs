//! What a person does with their own session: sign out (the session ends
//! in the data file, not only in the browser), switch to another of their
//! companies or between live and test data, and choose the language.

use super::context::Ctx;
use super::frame::see_other;
use super::visit::{set_cookie, SESSION_COOKIE};
use crate::access::people;
use crate::access::sessions;
use crate::error::{Error, Result};
use crate::http::app::Answer;
use crate::rules::locale::Lang;
use crate::store::tenant::Environment;

/// POST /logout
pub fn logout(ctx: &Ctx) -> Result<Answer> {
    ctx.write(|tx| sessions::end(tx, &ctx.session.token_hash))?;
    let mut answer = see_other("/login");
    answer.headers.push((
        "Set-Cookie",
        set_cookie(&ctx.app.screens, SESSION_COOKIE, "", "/"),
    ));
    Ok(answer)
}

/// POST /session/company `{companyId}`: another company of the person, in live data.
pub fn switch_company(ctx: &Ctx) -> Result<Answer> {
    let company = ctx
        .form
        .get("companyId")
        .ok_or_else(|| Error::invalid("companyId", crate::error::said::Input::Missing))?;
    ctx.write(|tx| sessions::switch(tx, ctx.session, company, Environment::Production))?;
    Ok(see_other("/dashboard"))
}

/// POST /session/environment `{environment: live|test}`
pub fn switch_environment(ctx: &Ctx) -> Result<Answer> {
    let environment = Environment::read(ctx.form.get("environment").unwrap_or(""))?;
    let company = ctx.session.tenant.company_id.clone();
    ctx.write(|tx| sessions::switch(tx, ctx.session, &company, environment))?;
    Ok(see_other("/dashboard"))
}

/// POST /session/language `{language: de|en|browser}`
pub fn language(ctx: &Ctx) -> Result<Answer> {
    let locale = match ctx.form.get("language").unwrap_or("") {
        "browser" => None,
        other => Some(Lang::from_code(other).ok_or_else(|| {
            Error::invalid(
                "language",
                crate::error::not_one_of(&["de", "en", "browser"], other),
            )
        })?),
    };
    ctx.write(|tx| people::set_locale(tx, &ctx.session.person.id, locale))?;
    Ok(see_other("/dashboard"))
}
