//! Books → Fixed assets: the register of a fiscal year (*Anlagenspiegel*)
//! per class and per asset, the year's choices of the low-value rule and
//! the pool, the year's depreciation posted by a button (also offered at
//! closing), the form that records an asset (from a bill's line, which the
//! bill's page links to, or on its own), and an asset's page with its plan
//! year by year, its history and the form of its disposal. The same
//! `books::assets` functions serve `asset add | list | dispose` and `books
//! depreciate | assets | depreciation-rule`. Fields carry the console
//! flags' names in camelCase (`name`, `class`, `acquired`, `cost`,
//! `lifeMonths`, `oneYear`, `fromBill`, `line`; `on`, `invoice`,
//! `proceeds`; `year`, `pool`, `lowValue`).

use hyper::StatusCode;
use maud::{html, Markup};

use super::context::Ctx;
use super::form::{
    choice, post, queried, required_note, Acted, Form, FormField, Problems, Reading,
};
use super::frame::{may_act, money, screen_with, see_other, th, th_amount, Screen, Table};
use super::history;
use super::statements::{account_link, depreciation_form, flag, links, YEAR};
use crate::access::people::Capability;
use crate::books::assets::{
    self, AssetInput, Disposal, DisposalInput, Figures, NewAsset, RuleInput, MAX_NAME,
};
use crate::books::audit;
use crate::books::company;
use crate::error::said::Input;
use crate::error::{Error, Result};
use crate::http::app::Answer;
use crate::rules::afa;
use crate::rules::locale::{self, Lang};
use crate::rules::money::Money;

/// An asset as `asset add` records it.
const ASSET: Form = Form::new(&[
    FormField::text("name", "Name", "Bezeichnung", MAX_NAME).required(),
    FormField::text("fromBill", "Bought with the bill", "Gekauft mit der Rechnung", 40).hint(
        "The bill's id (pur_…); empty for an asset recorded on its own",
        "Die Kennung der Rechnung (pur_…); leer für ein Anlagegut ohne Rechnung",
    ),
    FormField::text("line", "Line of the bill", "Position der Rechnung", 4).hint(
        "From 1, as the bill's page counts them",
        "Ab 1, wie die Seite der Rechnung sie zählt",
    ),
    FormField::date("acquired", "Acquired on", "Angeschafft am").hint(
        "Empty with a bill: its date",
        "Leer bei einer Rechnung: ihr Datum",
    ),
    FormField::amount("cost", "Cost, net", "Anschaffungskosten, netto").hint(
        "Net where the input VAT is deductible; empty with a bill: what its line has left",
        "Netto, soweit die Vorsteuer abziehbar ist; leer bei einer Rechnung: was ihre Position übrig hat",
    ),
    FormField::text("lifeMonths", "Useful life in months", "Nutzungsdauer in Monaten", 4)
        .hint("Empty: the class's", "Leer: die der Klasse"),
])
.naming(&[
    ("class", "Class", "Anlagenklasse"),
    ("oneYear", "Computer hardware and software", "Computerhardware und Software"),
]);

/// An asset's disposal as `asset dispose` records it.
const DISPOSE: Form = Form::new(&[
    FormField::date("on", "Leaves the books on", "Abgang am").required(),
    FormField::text(
        "invoice",
        "Invoice of the sale",
        "Rechnung über den Verkauf",
        40,
    )
    .hint(
        "Its number; empty when it was scrapped",
        "Ihre Nummer; leer, wenn es verschrottet wurde",
    ),
    FormField::amount("proceeds", "Proceeds, net", "Erlös, netto").hint(
        "Empty: the invoice's revenue",
        "Leer: der Erlös der Rechnung",
    ),
]);

/// The register's query, the year's depreciation and the year's choices.
const REGISTER: Form = Form::new(&[YEAR])
    .naming(&[
        ("pool", "Pool", "Sammelposten"),
        (
            "lowValue",
            "Low-value assets",
            "Geringwertige Wirtschaftsgüter",
        ),
    ])
    .whole_at("year");

fn title(lang: Lang) -> &'static str {
    lang.pick("Fixed assets", "Anlagevermögen")
}

/// A whole number typed into `field`, when one was typed.
fn whole(read: &mut Reading, ctx: &Ctx, field: &str) -> Option<i64> {
    let text = ctx
        .form
        .sent(field)
        .map(str::trim)
        .filter(|t| !t.is_empty())?;
    read.take(text.parse::<i64>().map_err(|_| {
        Error::invalid(
            field,
            Input::NotWholeNumber {
                got: text.to_string(),
            },
        )
    }))
}

/// The fiscal year the query names, else today's.
fn year_asked(ctx: &Ctx) -> Result<std::result::Result<i32, Error>> {
    Ok(
        match ctx
            .query
            .get("year")
            .map(str::trim)
            .filter(|t| !t.is_empty())
        {
            Some(t) => t
                .parse::<i32>()
                .map_err(|_| Error::invalid("year", Input::NotYear { got: t.to_string() })),
            None => Ok(assets::this_year(ctx.conn, &ctx.session.tenant)?),
        },
    )
}

/// The columns of the register, as a person reads them.
fn figure_cells(lang: Lang, f: &Figures, currency: &crate::rules::iso::Currency) -> Markup {
    let a = |v: i64| locale::amount(lang, v, currency);
    html! {
        td.amount { (a(f.cost_start)) }
        td.amount { (a(f.additions)) }
        td.amount { (a(f.disposals)) }
        td.amount { (a(f.depreciation)) }
        td.amount { (a(f.book_value_start)) }
        td.amount { (a(f.book_value_end)) }
    }
}

/// A refused or filled-in asset form: the value of each field, the problems.
type Filled<'v> = (&'v dyn Fn(&str) -> String, &'v Problems);

/// The register's page of the year asked, with its forms.
fn page(
    ctx: &Ctx,
    status: StatusCode,
    year_typed: &str,
    problems: &Problems,
    asset_form: Option<Filled>,
) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let asked = year_asked(ctx)?;
    let year_text = match &asked {
        Ok(y) if year_typed.is_empty() => y.to_string(),
        _ => year_typed.to_string(),
    };
    let (register, query_problems) =
        queried(asked.and_then(|y| assets::register(ctx.conn, tenant, y)))?;
    let shown = if problems.list.is_empty() {
        &query_problems
    } else {
        problems
    };
    let choice_of = match &register {
        Some(r) => Some(assets::rule_of(ctx.conn, tenant, r.year)?),
        None => None,
    };
    let notice = ctx.notice(
        "done",
        &[
            (
                "depreciated",
                "The year's depreciation is posted.",
                "Die Abschreibungen des Jahres sind gebucht.",
            ),
            (
                "chosen",
                "The year's choices are saved.",
                "Die Wahl für das Jahr ist gespeichert.",
            ),
        ],
    );
    // The register's columns: an asset's or a class's, then its figures.
    let columns = |first: &'static str| {
        [
            th(first),
            th_amount(lang.pick("Cost at the start", "AK zu Beginn")),
            th_amount(lang.pick("Additions", "Zugänge")),
            th_amount(lang.pick("Disposals", "Abgänge")),
            th_amount(lang.pick("Depreciation", "Abschreibungen")),
            th_amount(lang.pick("Book value at the start", "Buchwert zu Beginn")),
            th_amount(lang.pick("Book value at the end", "Buchwert am Ende")),
        ]
    };
    let headings = columns(lang.pick("Asset", "Anlagegut"));
    let class_headings = columns(lang.pick("Class", "Anlagenklasse"));
    let content = html! {
        (links(lang))
        @if let Some(notice) = notice.filter(|_| problems.list.is_empty()) {
            p.notice role="status" { (notice) }
        }
        (REGISTER.summary(lang, shown))
        form.search method="get" action="/books/assets" {
            (YEAR.render(lang, &year_text, &query_problems))
            button type="submit" { (lang.pick("Show", "Anzeigen")) }
        }
        @if let Some(r) = &register {
            p {
                (locale::date(lang, r.from)) " – " (locale::date(lang, r.to))
                " · " (lang.pick("the register of fixed assets (§ 284 (3) HGB; the Anlage AVEÜR's figures)", "Anlagenspiegel (§ 284 Abs. 3 HGB; die Zahlen der Anlage AVEÜR)"))
            }
            (flag(lang, r.is_final))
            @if r.assets.is_empty() {
                p { (lang.pick("No asset stood in the books in this year.", "In diesem Jahr stand kein Anlagegut in den Büchern.")) }
            } @else {
                h2 { (lang.pick("By class", "Nach Anlagenklasse")) }
                (Table::new(&class_headings)
                    .read_caption(lang.pick("The register by class of the depreciation table", "Der Anlagenspiegel nach Klassen der AfA-Tabelle"))
                    .id("register-classes")
                    .with_foot(&r.classes, |c| html! {
                        th scope="row" {
                            @if !c.reference.is_empty() { span.num { (c.reference) } " " }
                            (if lang == Lang::En { c.name_en } else { c.name })
                        }
                        (figure_cells(lang, &c.figures, &r.currency))
                    }, html! {
                        tfoot { tr { th scope="row" { (lang.pick("Total", "Summe")) } (figure_cells(lang, &r.total, &r.currency)) } }
                    }))
                h2 { (lang.pick("By asset", "Nach Anlagegut")) }
                (Table::new(&headings)
                    .read_caption(lang.pick("The register by asset", "Der Anlagenspiegel nach Anlagegütern"))
                    .id("register-assets")
                    .rows(&r.assets, |a| html! {
                        th scope="row" {
                            a href=(format!("/books/assets/{}", a.asset)) { (a.name) }
                            " · " (locale::date(lang, a.acquired_on))
                            @if !a.posted { " · " em { (lang.pick("not yet posted", "noch nicht gebucht")) } }
                        }
                        (figure_cells(lang, &a.figures, &r.currency))
                    }))
            }
            @if let Some(c) = &choice_of {
                section aria-labelledby="choices-heading" {
                    h2 #choices-heading { (lang.pick("The year's choices", "Wahlrechte des Jahres")) }
                    p { (lang.pick(
                        "Low-value assets (at most € 800 net) are written off at once (§ 6 (2) EStG); the pool takes every asset of € 250.01 to € 1,000 of the year and writes it off by a fifth a year (§ 6 (2a) EStG), in place of the € 800 rule above € 250.",
                        "Geringwertige Wirtschaftsgüter (höchstens 800 € netto) werden sofort abgeschrieben (§ 6 Abs. 2 EStG); der Sammelposten nimmt jedes Anlagegut des Jahres von 250,01 € bis 1.000 € auf und wird mit einem Fünftel je Jahr aufgelöst (§ 6 Abs. 2a EStG), statt der 800-€-Regel über 250 €.",
                    )) }
                    @if may_act(ctx) {
                        (post(ctx, "/books/assets/choices", html! {
                            input type="hidden" name="year" value=(c.year);
                            (REGISTER.yes_no(lang, "lowValue", lang.pick("Write off low-value assets at once", "Geringwertige Wirtschaftsgüter sofort abschreiben"), c.low_value))
                            (REGISTER.yes_no(lang, "pool", lang.pick("Keep the pool this year", "In diesem Jahr einen Sammelposten bilden"), c.pool))
                        }, lang.pick("Save the choices", "Wahl speichern")))
                    } @else {
                        p {
                            (if c.low_value { lang.pick("Low-value assets written off at once.", "GWG werden sofort abgeschrieben.") } else { lang.pick("No immediate write-off.", "Keine Sofortabschreibung.") })
                            " "
                            (if c.pool { lang.pick("A pool is kept.", "Ein Sammelposten wird gebildet.") } else { lang.pick("No pool.", "Kein Sammelposten.") })
                        }
                    }
                }
            }
        }
        @if may_act(ctx) {
            @if let Some(r) = &register {
                (depreciation_form(ctx, &r.year.to_string(), true, problems))
            }
            section aria-labelledby="record-heading" {
                h2 #record-heading { (lang.pick("Record an asset", "Anlagegut erfassen")) }
                @match asset_form {
                    Some((value, problems)) => (asset_fields(ctx, value, problems)),
                    None => (asset_fields(ctx, &|_| String::new(), &Problems::default())),
                }
            }
        }
    };
    Ok(screen_with(
        ctx,
        status,
        Screen::Books,
        title(lang),
        content,
    ))
}

/// The form of an asset, its values `value`.
fn asset_fields(ctx: &Ctx, value: &dyn Fn(&str) -> String, problems: &Problems) -> Markup {
    let lang = ctx.lang;
    let years = |months: Option<u32>| match months {
        Some(m) if m % 12 == 0 => format!("{} {}", m / 12, lang.pick("years", "Jahre")),
        Some(m) => format!("{m} {}", lang.pick("months", "Monate")),
        None => lang
            .pick("life estimated", "Nutzungsdauer geschätzt")
            .to_string(),
    };
    let classes: Vec<(String, String)> = afa::CLASSES
        .iter()
        .map(|c| {
            let name = if lang == Lang::En {
                c.name_en
            } else {
                c.name_de
            };
            let reference = if c.reference.is_empty() {
                String::new()
            } else {
                format!("{} ", c.reference)
            };
            (
                c.key.to_string(),
                format!("{reference}{name} ({})", years(c.life_months)),
            )
        })
        .collect();
    let chosen = value("class");
    html! {
        (ASSET.summary(lang, problems))
        (post(ctx, "/books/assets", html! {
            (required_note(lang))
            (ASSET.fields(lang, value, problems))
            (choice(lang, "class", &ASSET.label(lang, "class"), &classes, if chosen.is_empty() { "office_furniture" } else { &chosen },
                Some(lang.pick("From the official depreciation table for generally usable assets (AfA-Tabelle AV, BMF, 15 December 2000)", "Aus der AfA-Tabelle für die allgemein verwendbaren Anlagegüter (BMF, 15. Dezember 2000)").to_string()), problems))
            (ASSET.yes_no(lang, "oneYear", lang.pick("Written off in full in the year bought (one-year life, BMF 22 February 2022)", "Im Jahr der Anschaffung voll abgeschrieben (Nutzungsdauer ein Jahr, BMF 22. Februar 2022)"), value("oneYear") == "yes"))
        }, lang.pick("Record asset", "Anlagegut erfassen")))
    }
}

/// GET /books/assets?year=…
pub fn show(ctx: &Ctx) -> Result<Answer> {
    page(ctx, StatusCode::OK, "", &Problems::default(), None)
}

/// GET /books/assets/new?fromBill=…&line=…: the register's page with the
/// form filled in from a bill's line.
pub fn new_form(ctx: &Ctx) -> Result<Answer> {
    let value = |f: &str| ctx.query.get(f).unwrap_or("").to_string();
    page(
        ctx,
        StatusCode::OK,
        "",
        &Problems::default(),
        Some((&value, &Problems::default())),
    )
}

/// POST /books/assets `{name, class, fromBill, line, acquired, cost,
/// lifeMonths, oneYear}`: an asset, as `asset add` records it.
pub fn add(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let currency = company::get(ctx.conn, &tenant.company_id)?.currency;
    let get = |name: &str| {
        ctx.form
            .get(name)
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_string)
    };
    let mut read = Reading::of(ctx);
    let cost = match get("cost") {
        Some(_) => read.amount("cost", &currency),
        None => None,
    };
    let life_months = whole(&mut read, ctx, "lifeMonths");
    let line = whole(&mut read, ctx, "line");
    let checked = read.check(NewAsset::check(AssetInput {
        name: ctx.form.get("name").map(str::to_string),
        class: get("class"),
        acquired: get("acquired"),
        cost,
        life_months,
        one_year: ctx.yes_no("oneYear") == Some(true),
        from_bill: get("fromBill"),
        line,
    }));
    let added = ASSET.act(ctx, checked, |tx, new| {
        assets::record(tx, tenant, &ctx.actor(), &new)
    })?;
    match added {
        Acted::Done(a) => Ok(see_other(&format!("/books/assets/{}?done=recorded", a.id))),
        Acted::Refused(r) => page(
            ctx,
            r.status,
            "",
            &Problems::default(),
            Some((&|f| ctx.typed(f), &r.problems)),
        ),
    }
}

/// The year typed into the form's `year`.
fn year_typed(read: &mut Reading, ctx: &Ctx) -> Option<i32> {
    let text = ctx.form.sent("year").unwrap_or("").trim().to_string();
    read.take(text.parse::<i32>().map_err(|_| {
        Error::invalid(
            "year",
            Input::NotYear {
                got: text.to_string(),
            },
        )
    }))
}

/// POST /books/assets/depreciate `{year}`: the year's depreciation, as
/// `books depreciate` posts it.
pub fn depreciate(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let mut read = Reading::of(ctx);
    let year = year_typed(&mut read, ctx);
    let run = REGISTER.act(
        ctx,
        read.check(year.ok_or_else(|| Error::invalid("year", Input::Missing))),
        |tx, year| assets::depreciate(tx, tenant, &ctx.actor(), year).map(|d| d.year),
    )?;
    match run {
        Acted::Done(y) => Ok(see_other(&format!(
            "/books/assets?year={y}&done=depreciated"
        ))),
        Acted::Refused(r) => page(ctx, r.status, &ctx.typed("year"), &r.problems, None),
    }
}

/// POST /books/assets/choices `{year, pool, lowValue}`: the year's
/// choices, as `books depreciation-rule` sets them.
pub fn choose(ctx: &Ctx) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let mut read = Reading::of(ctx);
    let year = year_typed(&mut read, ctx);
    let yes_no = |f: &str| {
        ctx.yes_no(f)
            .map(|b| if b { "yes" } else { "no" }.to_string())
    };
    let input = RuleInput {
        pool: yes_no("pool"),
        low_value: yes_no("lowValue"),
    };
    let set = REGISTER.act(
        ctx,
        read.check(year.ok_or_else(|| Error::invalid("year", Input::Missing))),
        |tx, year| assets::set_rule(tx, tenant, &ctx.actor(), year, &input).map(|c| c.year),
    )?;
    match set {
        Acted::Done(y) => Ok(see_other(&format!("/books/assets?year={y}&done=chosen"))),
        Acted::Refused(r) => page(ctx, r.status, &ctx.typed("year"), &r.problems, None),
    }
}

/// An asset's page: what it is, its plan year by year, its history, and
/// for who may act the form of its disposal.
fn asset_page(
    ctx: &Ctx,
    id: &str,
    status: StatusCode,
    value: &dyn Fn(&str) -> String,
    problems: &Problems,
) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let a = assets::get(ctx.conn, tenant, id)?;
    let plan = assets::schedule(ctx.conn, tenant, id)?;
    let history = audit::history(ctx.conn, tenant, &a.id)?;
    let history_section = history::section(ctx, &history)?;
    let (chart, accounts) = crate::books::chart_accounts::list(ctx.conn, &tenant.company_id)?;
    let named = |key: &str| {
        accounts
            .iter()
            .find(|c| c.key == key)
            .map(|c| format!("{:04} {}", c.number, c.name(lang == Lang::En)))
            .unwrap_or_else(|| key.to_string())
    };
    let method = match a.method {
        "one_year" => lang.pick(
            "In full in the year bought (one-year life, BMF 22 February 2022)",
            "Voll im Jahr der Anschaffung (Nutzungsdauer ein Jahr, BMF 22. Februar 2022)",
        ),
        "low_value" => lang.pick(
            "Low-value asset, written off at once (§ 6 (2) EStG)",
            "Geringwertiges Wirtschaftsgut, sofort abgeschrieben (§ 6 Abs. 2 EStG)",
        ),
        "pool" => lang.pick(
            "In the year's pool, a fifth a year (§ 6 (2a) EStG)",
            "Im Sammelposten des Jahres, ein Fünftel je Jahr (§ 6 Abs. 2a EStG)",
        ),
        _ => lang.pick(
            "Straight-line, month by month (§ 7 (1) EStG)",
            "Linear, monatsgenau (§ 7 Abs. 1 EStG)",
        ),
    };
    let notice = ctx.notice(
        "done",
        &[
            (
                "recorded",
                "The asset is recorded.",
                "Das Anlagegut ist erfasst.",
            ),
            (
                "disposed",
                "The asset has left the books.",
                "Das Anlagegut ist abgegangen.",
            ),
        ],
    );
    let m = |minor: i64| money(lang, &Money::new(minor, &a.cost.currency));
    let content = html! {
        (links(lang))
        @if let Some(notice) = notice.filter(|_| problems.list.is_empty()) {
            p.notice role="status" { (notice) }
        }
        dl.particulars {
            div { dt { (lang.pick("Class", "Anlagenklasse")) } dd {
                @if !a.reference.is_empty() { (a.reference) " " }
                (if lang == Lang::En { a.class_name_en } else { a.class_name })
            } }
            div { dt { (lang.pick("Acquired on", "Angeschafft am")) } dd { (locale::date(lang, a.acquired_on)) } }
            div { dt { (lang.pick("Cost", "Anschaffungskosten")) } dd { (money(lang, &a.cost)) } }
            div { dt { (lang.pick("Written off", "Abschreibung")) } dd { (method) } }
            @if a.method == "straight_line" {
                div { dt { (lang.pick("Useful life", "Nutzungsdauer")) } dd { (a.life_months) " " (lang.pick("months", "Monate")) } }
            }
            div { dt { (lang.pick("Account", "Konto")) } dd { a href=(account_link(&a.account)) { (named(&a.account)) } " · " (chart.as_str().to_uppercase()) } }
            div { dt { (lang.pick("Depreciation account", "Abschreibungskonto")) } dd { a href=(account_link(&a.depreciation_account)) { (named(&a.depreciation_account)) } } }
            @if let Some(bill) = &a.purchase_id {
                div { dt { (lang.pick("Bought with", "Gekauft mit")) } dd {
                    a href=(format!("/bills/{bill}")) { (bill) }
                    @if let Some(n) = a.purchase_line { ", " (lang.pick("line", "Position")) " " (n) }
                } }
            }
            div { dt { (lang.pick("Depreciation posted", "Gebuchte Abschreibungen")) } dd { (money(lang, &a.depreciated)) } }
            div { dt { (lang.pick("Book value", "Buchwert")) } dd { (money(lang, &a.book_value)) } }
            @if let Some(day) = a.disposed_on {
                div { dt { (lang.pick("Left the books on", "Abgang am")) } dd { (locale::date(lang, day)) } }
            }
            @if let Some(p) = &a.proceeds {
                div { dt { (lang.pick("Proceeds, net", "Erlös, netto")) } dd { (money(lang, p)) } }
            }
        }
        section aria-labelledby="plan-heading" {
            h2 #plan-heading { (lang.pick("Depreciation year by year", "Abschreibung je Jahr")) }
            (Table::new(&[th(lang.pick("Fiscal year", "Wirtschaftsjahr")), th_amount(lang.pick("Depreciation", "Abschreibung")), th(lang.pick("Posted", "Gebucht"))])
                .read_caption(lang.pick("The asset's depreciation per fiscal year", "Die Abschreibung des Anlageguts je Wirtschaftsjahr"))
                .id("plan")
                .rows(&plan, |y| html! {
                    th scope="row" { a href=(format!("/books/assets?year={}", y.year)) { (y.year) } }
                    td.amount { (m(y.amount)) }
                    td { (if y.posted { lang.pick("posted", "gebucht") } else { lang.pick("to come", "noch offen") }) }
                }))
        }
        @if may_act(ctx) && a.disposed_on.is_none() {
            section aria-labelledby="dispose-heading" {
                h2 #dispose-heading { (lang.pick("The asset leaves the books", "Abgang des Anlageguts")) }
                p { (lang.pick(
                    "Sold or scrapped: its depreciation up to the month it leaves and its remaining value are booked out; a sale is invoiced like any other supply, and its revenue moves to the proceeds of asset sales.",
                    "Verkauft oder verschrottet: die Abschreibung bis zum Monat des Abgangs und der Restbuchwert werden ausgebucht; ein Verkauf wird wie jede Lieferung in Rechnung gestellt, sein Erlös geht auf die Erlöse aus Anlagenverkäufen.",
                )) }
                (DISPOSE.summary(lang, problems))
                (post(ctx, &format!("/books/assets/{}/dispose", a.id), DISPOSE.fields(lang, value, problems), lang.pick("Book the disposal", "Abgang buchen")))
            }
        }
        (history_section)
    };
    Ok(screen_with(ctx, status, Screen::Books, &a.name, content))
}

/// GET /books/assets/{id}
pub fn asset(ctx: &Ctx, id: &str) -> Result<Answer> {
    asset_page(
        ctx,
        id,
        StatusCode::OK,
        &|_| String::new(),
        &Problems::default(),
    )
}

/// POST /books/assets/{id}/dispose `{on, invoice, proceeds}`: as `asset
/// dispose` books it.
pub fn dispose(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let a = assets::get(ctx.conn, tenant, id)?;
    let mut read = Reading::of(ctx);
    let proceeds = match ctx
        .form
        .get("proceeds")
        .map(str::trim)
        .filter(|t| !t.is_empty())
    {
        Some(_) => read.amount("proceeds", &a.cost.currency),
        None => None,
    };
    let checked = read.check(Disposal::check(DisposalInput {
        on: ctx.form.get("on").map(str::to_string),
        proceeds,
        invoice: ctx.form.get("invoice").map(str::to_string),
    }));
    let done = DISPOSE.act(ctx, checked, |tx, d| {
        assets::dispose(tx, tenant, &ctx.actor(), id, &d)
    })?;
    match done {
        Acted::Done(_) => Ok(see_other(&format!("/books/assets/{id}?done=disposed"))),
        Acted::Refused(r) => asset_page(ctx, id, r.status, &|f| ctx.typed(f), &r.problems),
    }
}
