//! The people of the company, the owner's alone: the list with each
//! person's role and state (paged) and the invitations still open; inviting
//! a person (e-mail address, name, role), which makes a one-time link valid
//! for 24 hours, shown here once (kontor sends no e-mail); and a person's
//! page, where the owner gives them another role, disables them in this
//! company (or enables them again), makes a password reset link or resets
//! their two-factor sign-in; and whether the company requires two factors
//! of everyone. The
//! rules live in `access::people` and `access::links` (the company keeps an
//! enabled owner; a reset reaches only a person of this company alone), the
//! same the console's `user role`, `user disable --company` and `user
//! reset` follow. Only the company's own people are found here. Every act
//! records the person in the audit, in the books being viewed.

use hyper::StatusCode;
use maud::{html, Markup};

use super::context::Ctx;
use super::form::{message, post, Acted, Form, FormField, Problems};
use super::frame::{
    act_button, csrf, pager, role_label, screen, screen_with, see_other, shown_once, th, Noun,
    Screen, Table,
};
use super::history;
use super::links::link_path;
use super::login::EMAIL;
use crate::access::links::{self, InvitationInput, LinkKind, Made, NewInvitation};
use crate::access::people::{self, Capability, Member, Role};
use crate::access::two_factor::{self, Factors};
use crate::books::audit;
use crate::error::Result;
use crate::http::app::Answer;
use crate::rules::locale::Lang;

/// The invitation: the person's e-mail address, name and role.
const INVITATION: Form = Form::new(&[
    EMAIL.autocomplete("off"),
    FormField::text("name", "Name", "Name", links::MAX_NAME)
        .required()
        .autocomplete("off"),
])
.naming(&[("role", "Role", "Rolle")]);

/// An act on a person (a role, disabling, a reset link): a refusal, also
/// of the person's state, is said in a sentence on their page.
const PERSON: Form = Form::new(&[]).wrong_state_above();

/// The company's requirement of two factors.
const TWO_FACTORS: Form = Form::new(&[]).naming(&[(
    "required",
    "Two factors for everyone",
    "Zwei Faktoren für alle",
)]);

fn title(lang: Lang) -> &'static str {
    lang.pick("People", "Personen")
}

fn state_label(lang: Lang, m: &Member) -> &'static str {
    if m.disabled {
        lang.pick("disabled", "gesperrt")
    } else {
        lang.pick("active", "aktiv")
    }
}

/// The choice of a role, `chosen` selected.
fn role_select(lang: Lang, id: &str, chosen: &str, problems: &Problems) -> Markup {
    let wrong = problems.at("role");
    let error_id = format!("{id}-error");
    html! {
        div.field.wrong[wrong] {
            label for=(id) { (INVITATION.label(lang, "role")) }
            select id=(id) name="role" aria-invalid=[wrong.then_some("true")]
                aria-describedby=[wrong.then_some(error_id.as_str())] {
                @for role in Role::ALL.iter().copied() {
                    option value=(role.as_str().to_lowercase())
                        selected[chosen.eq_ignore_ascii_case(role.as_str())] {
                        (role_label(lang, role))
                    }
                }
            }
            @if wrong {
                p.error id=(error_id) {
                    @for v in problems.list.iter().filter(|v| v.field.as_deref() == Some("role")) {
                        (message(lang, v)) " "
                    }
                }
            }
        }
    }
}

/// A person's second factors in words.
fn factors_label(lang: Lang, factors: &Factors) -> String {
    if !factors.on() {
        return lang.pick("off", "aus").to_string();
    }
    let mut parts = Vec::new();
    if factors.app {
        parts.push(
            lang.pick("authenticator app", "Authenticator-App")
                .to_string(),
        );
    }
    match (factors.passkeys.len(), lang) {
        (0, _) => {}
        (1, Lang::En) => parts.push("1 passkey".into()),
        (1, Lang::De) => parts.push("1 Passkey".into()),
        (n, Lang::En) => parts.push(format!("{n} passkeys")),
        (n, Lang::De) => parts.push(format!("{n} Passkeys")),
    }
    format!("{} ({})", lang.pick("on", "ein"), parts.join(", "))
}

/// What the invitation form had typed.
struct Typed<'a> {
    email: &'a str,
    name: &'a str,
    role: &'a str,
}

const EMPTY: Typed<'static> = Typed {
    email: "",
    name: "",
    role: "accountant",
};

/// The list of people and open invitations, with the invitation form.
fn overview(ctx: &Ctx, status: StatusCode, typed: &Typed, problems: &Problems) -> Result<Answer> {
    let lang = ctx.lang;
    let company_id = &ctx.session.tenant.company_id;
    let people = people::page(ctx.conn, company_id, ctx.paging())?;
    let pending = links::pending(ctx.conn, company_id, jiff::Timestamp::now())?;
    let notice = ctx.notice(
        "done",
        &[
            (
                "disabled",
                "The person is disabled in this company.",
                "Die Person ist in dieser Firma gesperrt.",
            ),
            (
                "two-factor",
                "The requirement of two-factor sign-in is saved.",
                "Die Vorgabe zur Zwei-Faktor-Anmeldung ist gespeichert.",
            ),
        ],
    );
    let required = two_factor::required(ctx.conn, company_id)?;
    let content = html! {
        @if let Some(notice) = notice {
            p.notice role="status" { (notice) }
        }
        p { a href="/settings" { (lang.pick("Back to the settings", "Zurück zu den Einstellungen")) } }
        section aria-labelledby="people-heading" {
            h2 #people-heading { (lang.pick("People of this company", "Personen dieser Firma")) }
            (Table::new(&[
                th("Name"), th(&INVITATION.label(lang, "email")), th(&INVITATION.label(lang, "role")),
                th(lang.pick("State", "Stand")),
            ])
            .read_caption(lang.pick("People of the company, in the order they joined", "Personen der Firma, in der Reihenfolge ihres Eintritts"))
            .rows(&people.data, |m| html! {
                td { a href=(format!("/settings/users/{}", m.id)) { (m.name) } }
                td { (m.email) }
                td { (role_label(lang, m.role)) }
                td { (state_label(lang, m)) }
            }))
            (pager(lang, &people, &|n| format!("/settings/users?page={n}"), Noun { en: ("person", "people"), de: ("Person", "Personen") }))
        }
        section aria-labelledby="pending-heading" {
            h2 #pending-heading { (lang.pick("Open invitations", "Offene Einladungen")) }
            @if pending.is_empty() {
                p { (lang.pick("No invitation is open.", "Keine Einladung ist offen.")) }
            } @else {
                (Table::new(&[
                    th("Name"), th(&INVITATION.label(lang, "email")), th(&INVITATION.label(lang, "role")),
                    th(lang.pick("Valid until", "Gültig bis")),
                ])
                .read_caption(lang.pick("Invitations not yet used, newest first", "Noch nicht genutzte Einladungen, die neuesten zuerst"))
                .rows(&pending, |p| html! {
                    td { (p.name) }
                    td { (p.email) }
                    td { (role_label(lang, p.role)) }
                    td { (until(lang, &p.expires_at)) }
                }))
            }
        }
        section aria-labelledby="two-factor-heading" {
            h2 #two-factor-heading { (lang.pick("Two-factor sign-in", "Zwei-Faktor-Anmeldung")) }
            p { (lang.pick(
                "When two factors are required, everyone of this company signs in with the password and an authenticator app's code or a passkey; whoever has neither is led to set one up at their next request and can do nothing else until then.",
                "Wenn zwei Faktoren verlangt sind, meldet sich jede Person dieser Firma mit dem Passwort und dem Code einer Authenticator-App oder einem Passkey an; wer keins von beiden hat, wird bei der nächsten Anfrage zur Einrichtung geführt und kann bis dahin nichts anderes tun.",
            )) }
            form.stack method="post" action="/settings/users/two-factor" {
                (csrf(ctx))
                (TWO_FACTORS.yes_no(lang, "required", lang.pick("Require two factors of everyone", "Zwei Faktoren von allen verlangen"), required))
                button type="submit" { (lang.pick("Save", "Speichern")) }
            }
        }
        section aria-labelledby="invite-heading" {
            h2 #invite-heading { (lang.pick("Invite a person", "Person einladen")) }
            p { (lang.pick(
                "kontor makes a link valid for 24 hours and shows it to you once; give it to the person. It works once.",
                "kontor erstellt einen 24 Stunden gültigen Link und zeigt ihn Ihnen einmal; geben Sie ihn der Person. Er funktioniert einmal.",
            )) }
            (INVITATION.summary(lang, problems))
            (post(ctx, "/settings/users/invite", html! {
                (INVITATION.fields(lang, &|f| match f {
                    "email" => typed.email.to_string(),
                    _ => typed.name.to_string(),
                }, problems))
                (role_select(lang, "field-role", typed.role, problems))
            }, lang.pick("Invite", "Einladen")))
        }
    };
    Ok(screen_with(
        ctx,
        status,
        Screen::Settings,
        title(lang),
        content,
    ))
}

/// An instant as a person reads it: the date in the page's language and the time in UTC.
fn until(lang: Lang, instant: &str) -> String {
    match instant.parse::<jiff::Timestamp>() {
        Ok(ts) => {
            let dt = jiff::tz::Offset::UTC.to_datetime(ts);
            format!(
                "{} {:02}:{:02} UTC",
                crate::rules::locale::date(lang, dt.date()),
                dt.hour(),
                dt.minute()
            )
        }
        Err(_) => instant.to_string(),
    }
}

/// GET /settings/users
pub fn list(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::ManageUsers)?;
    overview(ctx, StatusCode::OK, &EMPTY, &Problems::default())
}

/// The whole address of a link: the public URL's origin, else the host the
/// owner reached kontor at.
fn link_address(ctx: &Ctx, made: &Made) -> String {
    let path = link_path(made.kind, &made.token);
    match (
        ctx.app.screens.public_origins.first(),
        ctx.visit.host.as_deref(),
    ) {
        (Some(origin), _) => format!("{origin}{path}"),
        (None, Some(host)) => format!("http://{host}{path}"),
        (None, None) => path,
    }
}

/// The page that shows a link just made, once.
fn shown_link(ctx: &Ctx, made: &Made, sentence: String, back: &str) -> Answer {
    let lang = ctx.lang;
    let content = html! {
        p.notice role="status" { (sentence) }
        (shown_once(lang.pick(
            "Copy the link now and give it to the person: it is shown only this once, works once and for 24 hours.",
            "Kopieren Sie den Link jetzt und geben Sie ihn der Person: Er wird nur dieses eine Mal gezeigt und funktioniert einmal und 24 Stunden lang.",
        ), "link", lang.pick("The link", "Der Link"), &link_address(ctx, made), 80))
        p { (lang.pick("Valid until ", "Gültig bis ")) (until(lang, &made.expires_at)) "." }
        p { a href=(back) { (lang.pick("Back to the people", "Zurück zu den Personen")) } }
    };
    let heading = match made.kind {
        LinkKind::Invitation => lang.pick("Invitation made", "Einladung erstellt"),
        LinkKind::Reset => lang.pick("Reset link made", "Link zum Zurücksetzen erstellt"),
    };
    screen(ctx, Screen::Settings, heading, content)
}

/// POST /settings/users/invite `{email, name, role}`
pub fn invite(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::ManageUsers)?;
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let checked = NewInvitation::check(InvitationInput {
        email: ctx.form.get("email").map(str::to_string),
        name: ctx.form.get("name").map(str::to_string),
        role: ctx.form.get("role").map(str::to_string),
    });
    let made = INVITATION.act(ctx, checked, |tx, new| {
        links::invite(tx, tenant, &ctx.actor(), &new, jiff::Timestamp::now())
    })?;
    match made {
        Acted::Done(made) => {
            let sentence = match lang {
                Lang::En => format!("{} is invited.", made.email),
                Lang::De => format!("{} ist eingeladen.", made.email),
            };
            Ok(shown_link(ctx, &made, sentence, "/settings/users"))
        }
        Acted::Refused(r) => {
            let typed = Typed {
                email: ctx.form.sent("email").unwrap_or(""),
                name: ctx.form.sent("name").unwrap_or(""),
                role: ctx.form.get("role").unwrap_or(""),
            };
            overview(ctx, r.status, &typed, &r.problems)
        }
    }
}

/// A person's page, with the problems of a refused act.
fn person_page(
    ctx: &Ctx,
    member: &Member,
    status: StatusCode,
    problem: Option<String>,
) -> Result<Answer> {
    let lang = ctx.lang;
    let history = audit::history(ctx.conn, &ctx.session.tenant, &member.id)?;
    let history_section = history::section(ctx, &history)?;
    let notice = ctx.notice(
        "done",
        &[
        ("role", "The role is changed.", "Die Rolle ist geändert."),
        ("enabled", "The person is enabled again.", "Die Person ist wieder freigegeben."),
        ("two-factor-reset", "The person's two-factor sign-in is reset: they sign in with their password alone, and set up a second factor again where this company requires it.", "Die Zwei-Faktor-Anmeldung der Person ist zurückgesetzt: Sie meldet sich mit dem Passwort allein an und richtet einen zweiten Faktor neu ein, wo diese Firma ihn verlangt."),
        ],
    );
    let factors = two_factor::factors(ctx.conn, &member.id)?;
    let base = format!("/settings/users/{}", member.id);
    let content = html! {
        @if let Some(problem) = &problem {
            p.problem role="alert" { (problem) }
        } @else if let Some(notice) = notice {
            p.notice role="status" { (notice) }
        }
        dl.particulars {
            div { dt { (INVITATION.label(lang, "email")) } dd { (member.email) } }
            div { dt { (INVITATION.label(lang, "role")) } dd { (role_label(lang, member.role)) } }
            div { dt { (lang.pick("State", "Stand")) } dd { (state_label(lang, member)) } }
            div {
                dt { (lang.pick("Two-factor sign-in", "Zwei-Faktor-Anmeldung")) }
                dd #two-factor-state { (factors_label(lang, &factors)) }
            }
        }
        section aria-labelledby="role-heading" {
            h2 #role-heading { (lang.pick("Role", "Rolle")) }
            form.stack method="post" action=(format!("{base}/role")) {
                (csrf(ctx))
                (role_select(lang, "field-role", member.role.as_str(), &Problems::default()))
                button type="submit" { (lang.pick("Change role", "Rolle ändern")) }
            }
        }
        section aria-labelledby="access-heading" {
            h2 #access-heading { (lang.pick("Access", "Zugang")) }
            @if member.disabled {
                (act_button(ctx, &format!("{base}/enable"), lang.pick("Enable again", "Wieder freigeben")))
            } @else {
                p { (lang.pick(
                    "A disabled person no longer opens this company; their sessions here end at once. Their other companies keep them.",
                    "Eine gesperrte Person öffnet diese Firma nicht mehr; ihre Sitzungen hier enden sofort. Ihre anderen Firmen behalten sie.",
                )) }
                (act_button(ctx, &format!("{base}/disable"), lang.pick("Disable in this company", "In dieser Firma sperren")))
                p { (lang.pick(
                    "A reset link lets the person set a new password; using it ends their sessions and clears the waits failed sign-ins earned.",
                    "Mit einem Link zum Zurücksetzen setzt die Person ein neues Passwort; das beendet ihre Sitzungen und hebt Wartezeiten nach Fehlversuchen auf.",
                )) }
                (act_button(ctx, &format!("{base}/reset"), lang.pick("Make a reset link", "Link zum Zurücksetzen erstellen")))
            }
        }
        @if factors.on() {
            section aria-labelledby="factors-heading" {
                h2 #factors-heading { (lang.pick("Two-factor sign-in", "Zwei-Faktor-Anmeldung")) }
                p { (lang.pick(
                    "A person who lost their app, passkeys and recovery codes signs in again after a reset with the password alone; their sessions end now.",
                    "Wer App, Passkeys und Wiederherstellungscodes verloren hat, meldet sich nach dem Zurücksetzen mit dem Passwort allein an; die Sitzungen der Person enden sofort.",
                )) }
                (act_button(ctx, &format!("{base}/two-factor-reset"), lang.pick("Reset two-factor sign-in", "Zwei-Faktor-Anmeldung zurücksetzen")))
            }
        }
        (history_section)
        p { a href="/settings/users" { (lang.pick("Back to the people", "Zurück zu den Personen")) } }
    };
    Ok(screen_with(
        ctx,
        status,
        Screen::Settings,
        &member.name,
        content,
    ))
}

/// GET /settings/users/{id}
pub fn show(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::ManageUsers)?;
    let member = people::member(ctx.conn, &ctx.session.tenant.company_id, id)?;
    person_page(ctx, &member, StatusCode::OK, None)
}

/// Answers an act on a person: on to `done`, or their page again with
/// the refusal in a sentence.
fn answer<T>(
    ctx: &Ctx,
    id: &str,
    acted: Acted<T>,
    done: impl FnOnce(T) -> Answer,
) -> Result<Answer> {
    match acted {
        Acted::Done(made) => Ok(done(made)),
        Acted::Refused(r) => {
            let member = people::member(ctx.conn, &ctx.session.tenant.company_id, id)?;
            person_page(
                ctx,
                &member,
                r.status,
                Some(r.sentence(ctx.lang, &|f| INVITATION.label(ctx.lang, f))),
            )
        }
    }
}

/// POST /settings/users/{id}/role `{role}`
pub fn set_role(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::ManageUsers)?;
    let tenant = &ctx.session.tenant;
    let role = Role::read(ctx.form.get("role").unwrap_or(""));
    let changed = PERSON.act(ctx, role, |tx, role| {
        people::set_role(tx, tenant, &ctx.actor(), id, role).map(|_| ())
    })?;
    answer(ctx, id, changed, |()| {
        see_other(&format!("/settings/users/{id}?done=role"))
    })
}

/// POST /settings/users/{id}/disable
pub fn disable(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::ManageUsers)?;
    let tenant = &ctx.session.tenant;
    let disabled = PERSON.act(ctx, Ok(()), |tx, ()| {
        people::disable_in(tx, tenant, &ctx.actor(), id).map(|_| ())
    })?;
    answer(ctx, id, disabled, |()| {
        see_other("/settings/users?done=disabled")
    })
}

/// POST /settings/users/{id}/enable
pub fn enable(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::ManageUsers)?;
    let tenant = &ctx.session.tenant;
    ctx.write(|tx| people::enable_in(tx, tenant, &ctx.actor(), id))?;
    Ok(see_other(&format!("/settings/users/{id}?done=enabled")))
}

/// POST /settings/users/{id}/reset: a password reset link, shown once.
pub fn reset(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::ManageUsers)?;
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let made = PERSON.act(ctx, Ok(()), |tx, ()| {
        links::reset(tx, tenant, &ctx.actor(), id, jiff::Timestamp::now())
    })?;
    answer(ctx, id, made, |made| {
        let sentence = match lang {
            Lang::En => format!("A reset link for {} is made.", made.email),
            Lang::De => format!("Ein Link zum Zurücksetzen für {} ist erstellt.", made.email),
        };
        shown_link(ctx, &made, sentence, &format!("/settings/users/{id}"))
    })
}

/// POST /settings/users/two-factor `{required: yes|no}`: the company
/// requires two factors of everyone, or no longer.
pub fn require_two_factors(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::ManageUsers)?;
    let tenant = &ctx.session.tenant;
    let yes = ctx.yes_no("required").unwrap_or(false);
    ctx.write(|tx| two_factor::require(tx, tenant, &ctx.actor(), yes))?;
    Ok(see_other("/settings/users?done=two-factor"))
}

/// POST /settings/users/{id}/two-factor-reset: the person's second factors
/// reset (their sessions end).
pub fn reset_two_factor(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::ManageUsers)?;
    let tenant = &ctx.session.tenant;
    let reset = PERSON.act(ctx, Ok(()), |tx, ()| {
        two_factor::reset(tx, tenant, &ctx.actor(), id).map(|_| ())
    })?;
    answer(ctx, id, reset, |()| {
        see_other(&format!("/settings/users/{id}?done=two-factor-reset"))
    })
}
