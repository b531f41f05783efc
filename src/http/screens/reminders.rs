//! Reminders (Mahnwesen): the dunning run of a day, every overdue invoice
//! due for its next level with the amounts the reminder would state, each
//! ticked; a person unticks what should not go and sends (the books'
//! `dunning::send`, as `kontor dunning send --except …`). Beside it the
//! company's ladder and its base-rate table, to which the owner adds a row
//! (`kontor dunning base-rate`).

use hyper::StatusCode;
use maud::html;

use super::context::Ctx;
use super::form::{post, Acted, Form, FormField, Problems};
use super::frame::{
    csrf, invoice_href, may_act, money, screen_with, see_other, th, th_amount, Screen, Table,
};
use crate::access::people::Capability;
use crate::books::company;
use crate::books::dunning::levels::{self, BaseRateInput};
use crate::books::dunning::{run, send};
use crate::error::Result;
use crate::http::app::Answer;
use crate::rules::catalogue::Reader;
use crate::rules::locale::{self, Lang};
use crate::store::clock;

/// The day of the run.
const DAY: Form =
    Form::new(&[FormField::date("on", "Run on", "Lauf am").hint("Empty: today", "Leer: heute")]);

/// A row of the base-rate table.
const BASE_RATE: Form = Form::new(&[
    FormField::date("from", "Applies from", "Gilt ab").required(),
    FormField::text(
        "percent",
        "Base rate in percent",
        "Basiszinssatz in Prozent",
        8,
    )
    .required()
    .hint("Such as 1.27 or -0.88", "Etwa 1.27 oder -0,88"),
]);

fn title(lang: Lang) -> &'static str {
    lang.pick("Reminders", "Mahnungen")
}

/// The run's page on the day the query names (else today).
fn page(ctx: &Ctx, status: StatusCode, rate_problems: &Problems) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let company = company::get(ctx.conn, &tenant.company_id)?;
    let (day, day_problems) = match ctx.query.get("on").map(str::trim).filter(|d| !d.is_empty()) {
        Some(d) => match clock::parse_date("on", d) {
            Ok(day) => (day, Problems::default()),
            Err(e) => (company.today(), Problems::of(&e)),
        },
        None => (company.today(), Problems::default()),
    };
    let answer = run::run(ctx.conn, tenant, day)?;
    let ladder = levels::levels(ctx.conn, &tenant.company_id)?;
    let rates = levels::base_rate_rows(ctx.conn, &tenant.company_id)?;
    let notice = ctx.query.get("sent").map(|n| match (lang, n) {
        (Lang::En, "1") => "1 reminder is recorded and on its way by e-mail.".to_string(),
        (Lang::De, "1") => "1 Mahnung ist erfasst und per E-Mail unterwegs.".to_string(),
        (Lang::En, n) => format!("{n} reminders are recorded and on their way by e-mail."),
        (Lang::De, n) => format!("{n} Mahnungen sind erfasst und per E-Mail unterwegs."),
    });
    let content = html! {
        @if let Some(n) = &notice { p.notice role="status" { (n) } }
        @for w in &answer.warnings { p.problem role="alert" { (w.text(Reader::screens(lang))) } }
        form.search method="get" action="/reminders" {
            (DAY.fields(lang, &|_| day.to_string(), &day_problems))
            button type="submit" { (lang.pick("Show the run", "Lauf zeigen")) }
        }
        section aria-labelledby="run-heading" {
            h2 #run-heading { (lang.pick("Due for a reminder on ", "Zur Mahnung fällig am ")) (locale::date(lang, day)) }
            @if answer.proposals.is_empty() {
                p { (lang.pick("No invoice is due for a reminder.", "Keine Rechnung ist zur Mahnung fällig.")) }
            } @else {
                form method="post" action="/reminders/send" {
                    (csrf(ctx))
                    input type="hidden" name="on" value=(day.to_string());
                    (Table::new(&[
                        th(lang.pick("Send", "Senden")), th(lang.pick("Invoice", "Rechnung")),
                        th(lang.pick("Customer", "Kunde")), th(lang.pick("Level", "Stufe")),
                        th_amount(lang.pick("Days overdue", "Tage überfällig")), th_amount(lang.pick("Open", "Offen")),
                        th_amount(lang.pick("Fees", "Gebühren")), th_amount(lang.pick("Interest", "Zinsen")),
                        th_amount(lang.pick("Flat sum", "Pauschale")), th_amount(lang.pick("Total", "Gesamt")),
                    ])
                    .read_caption(lang.pick("Proposed reminders; untick what should not go", "Vorgeschlagene Mahnungen; abwählen, was nicht gehen soll"))
                    .id("proposals")
                    .rows(answer.proposals.iter().enumerate(), |(i, p)| html! {
                        td {
                            input id=(format!("send-{i}")) type="checkbox" name="send" value=(p.number) checked;
                            label.visually-hidden for=(format!("send-{i}")) { (lang.pick("Send the reminder of ", "Mahnung senden zu ")) (p.number) }
                        }
                        td { a href=(invoice_href(&p.number, "")) { (p.number) } }
                        td { (p.customer) @if p.consumer { " " small { (lang.pick("(consumer)", "(Verbraucher)")) } } }
                        td { (p.level) " · " (p.title) }
                        td.amount { (p.days_overdue) }
                        td.amount { (money(lang, &p.open)) }
                        td.amount { (money(lang, &p.fee)) }
                        td.amount {
                            (money(lang, &p.interest))
                            @if let (Some(from), Some(pct)) = (p.interest_from, &p.interest_percent) {
                                br; small { (lang.pick("from ", "ab ")) (locale::date(lang, from)) ", " (locale::decimal(lang, pct)) " %" }
                            }
                        }
                        td.amount { (money(lang, &p.flat_sum)) }
                        td.amount { strong { (money(lang, &p.total)) } }
                    }))
                    @if may_act(ctx) {
                        button type="submit" { (lang.pick("Send the ticked reminders", "Ausgewählte Mahnungen senden")) }
                    }
                }
            }
        }
        section aria-labelledby="ladder-heading" {
            h2 #ladder-heading { (lang.pick("Levels", "Mahnstufen")) }
            (Table::new(&[
                th(lang.pick("Level", "Stufe")), th_amount(lang.pick("Days", "Tage")),
                th_amount(lang.pick("Fee", "Gebühr")), th(lang.pick("Default interest", "Verzugszinsen")),
                th_amount(lang.pick("Days to pay", "Zahlungsfrist")),
            ])
            .read_caption(lang.pick("The company's levels", "Die Mahnstufen der Firma"))
            .rows(&ladder, |l| html! {
                td { (l.level) " · " (lang.pick(&l.title.0, &l.title.1)) }
                td.amount { (l.days) }
                td.amount { (locale::amount(lang, l.fee, &company.currency)) }
                td { (if l.interest { lang.pick("stated", "ausgewiesen") } else { lang.pick("no", "nein") }) }
                td.amount { (l.pay_days) }
            }))
        }
        section aria-labelledby="rates-heading" {
            h2 #rates-heading { (lang.pick("Base rate (§247 BGB)", "Basiszinssatz (§247 BGB)")) }
            (Table::new(&[
                th(lang.pick("From", "Ab")), th_amount(lang.pick("Percent", "Prozent")),
                th(lang.pick("Source", "Quelle")),
            ])
            .read_caption(lang.pick("The latest rows of the base-rate table", "Die jüngsten Zeilen der Basiszinstabelle"))
            .rows(rates.iter().take(6), |r| html! {
                td { (locale::date(lang, r.from)) }
                td.amount { (locale::decimal(lang, &r.percent)) }
                td { (if r.own { lang.pick("added by the owner", "vom Inhaber ergänzt") } else { lang.pick("shipped with kontor", "mit kontor geliefert") }) }
            }))
            @if ctx.may(Capability::ManageSettings) {
                (BASE_RATE.summary(lang, rate_problems))
                (post(ctx, "/reminders/base-rate", BASE_RATE.fields(lang, &|f| if rate_problems.list.is_empty() { String::new() } else { ctx.typed(f) }, rate_problems), lang.pick("Add the row", "Zeile ergänzen")))
            }
        }
    };
    Ok(screen_with(
        ctx,
        status,
        Screen::Reminders,
        title(lang),
        content,
    ))
}

/// GET /reminders?on=DATE
pub fn show(ctx: &Ctx) -> Result<Answer> {
    page(ctx, StatusCode::OK, &Problems::default())
}

/// POST /reminders/send `{on, send…}`: the run's reminders of the ticked
/// invoices recorded and mailed; the unticked stay out.
pub fn send(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let day = clock::parse_date("on", ctx.form.get("on").unwrap_or(""))?;
    let ticked = ctx.form.all("send");
    let except: Vec<String> = run::run(ctx.conn, tenant, day)?
        .proposals
        .into_iter()
        .map(|p| p.number)
        .filter(|n| !ticked.contains(&n.as_str()))
        .collect();
    let sent = ctx.write(|tx| send::send(tx, tenant, &ctx.actor(), day, &except))?;
    Ok(see_other(&format!(
        "/reminders?on={day}&sent={}",
        sent.len()
    )))
}

/// POST /reminders/base-rate `{from, percent}`: a row of the base-rate
/// table, as `dunning base-rate` adds it.
pub fn add_base_rate(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::ManageSettings)?;
    let tenant = &ctx.session.tenant;
    let input = BaseRateInput {
        from: ctx.form.get("from").map(str::to_string),
        percent: ctx.form.get("percent").map(|p| p.trim().replace(',', ".")),
    };
    let added = BASE_RATE.act(ctx, Ok(input), |tx, input| {
        levels::add_base_rate(tx, tenant, &ctx.actor(), &input).map(|_| ())
    })?;
    match added {
        Acted::Done(()) => Ok(see_other("/reminders")),
        Acted::Refused(r) => page(ctx, r.status, &r.problems),
    }
}
