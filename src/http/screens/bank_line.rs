//! A bank line's page: its fields and bank account, what it settled, its
//! suggestions (each with its reason in the page's language, what its
//! difference becomes, and whether it was paid in advance), the open
//! documents that could fit (searched by number, name or amount, best fit
//! first, ticked to fill the split: the server fills it, no script), the
//! split, booking without a document (the accounts proposed by the line's
//! direction), ignoring and undoing. The books' `bank::candidates`,
//! `bank::acts` and `bank::apply::accounts_for` decide; this file reads
//! and renders.

use hyper::StatusCode;
use maud::{html, Markup};

use super::bank::state_name;
use super::context::Ctx;
use super::form::{choice, post, Acted, Form, FormField, Problems, Reading};
use super::frame::{
    act_button, csrf, may_act, money, screen_with, see_other, th, th_amount, Screen, Table,
};
use crate::access::people::Capability;
use crate::books::bank::acts::{self, Difference};
use crate::books::bank::apply;
use crate::books::bank::balances;
use crate::books::bank::candidates::{self, AmountFit, Candidate, Search};
use crate::books::bank::lines::{self, LineView, SettlementView, State, SuggestionView};
use crate::error::said::{Bank, Input};
use crate::error::{Error, Result, Said};
use crate::http::app::Answer;
use crate::rules::catalogue::Reader;
use crate::rules::iso::Currency;
use crate::rules::locale::{self, Lang};

/// Most documents one split takes; what the line has left after it waits
/// for another.
const MAX_PARTS: usize = 10;

/// A split: typed, up to four documents by number, each with its amount;
/// picked, up to ten documents by id (`doc1` …), each with its amount.
const SPLIT: Form = Form::new(&[
    FormField::text("number1", "Document 1", "Beleg 1", 60),
    FormField::text("number2", "Document 2", "Beleg 2", 60),
    FormField::text("number3", "Document 3", "Beleg 3", 60),
    FormField::text("number4", "Document 4", "Beleg 4", 60),
    FormField::amount("amount1", "Amount 1", "Betrag 1"),
    FormField::amount("amount2", "Amount 2", "Betrag 2"),
    FormField::amount("amount3", "Amount 3", "Betrag 3"),
    FormField::amount("amount4", "Amount 4", "Betrag 4"),
    FormField::amount("amount5", "Amount 5", "Betrag 5"),
    FormField::amount("amount6", "Amount 6", "Betrag 6"),
    FormField::amount("amount7", "Amount 7", "Betrag 7"),
    FormField::amount("amount8", "Amount 8", "Betrag 8"),
    FormField::amount("amount9", "Amount 9", "Betrag 9"),
    FormField::amount("amount10", "Amount 10", "Betrag 10"),
])
.naming(&[
    ("to", "Documents", "Belege"),
    ("difference", "Difference", "Differenz"),
])
.renaming(&[
    ("to[0]", "amount1"),
    ("to[1]", "amount2"),
    ("to[2]", "amount3"),
    ("to[3]", "amount4"),
    ("to[4]", "amount5"),
    ("to[5]", "amount6"),
    ("to[6]", "amount7"),
    ("to[7]", "amount8"),
    ("to[8]", "amount9"),
    ("to[9]", "amount10"),
]);

/// The search of the open documents.
const FIND: FormField = FormField::text(
    "find",
    "Search number, name or amount",
    "Nummer, Name oder Betrag suchen",
    100,
);

/// Booking what a line has left to an account.
const BOOK: Form = Form::new(&[FormField::amount("amount", "Amount", "Betrag").hint(
    "Empty: all the line has left",
    "Leer: alles, was die Buchung noch offen hat",
)])
.naming(&[("account", "Account", "Konto")]);

/// Ignoring a line.
const IGNORE: Form =
    Form::new(&[FormField::text("reason", "Reason", "Grund", acts::MAX_REASON).required()]);

/// Confirming a suggestion.
const CONFIRM: Form = Form::new(&[]).naming(&[
    ("suggestion", "Suggestion", "Vorschlag"),
    ("difference", "Difference", "Differenz"),
]);

/// An account a line is booked to, by the books' name, as a person reads it.
fn account_label(lang: Lang, name: &str, money_in: bool) -> &'static str {
    match (name, money_in) {
        ("fees", true) => lang.pick("Bank fees refunded", "Erstattete Bankgebühren"),
        ("fees", false) => lang.pick("Bank fees", "Bankgebühren"),
        ("interest", true) => lang.pick("Interest received", "Zinserträge"),
        ("interest", false) => lang.pick("Interest paid", "Zinsaufwand"),
        ("tax", true) => lang.pick("Tax office (refund)", "Finanzamt (Erstattung)"),
        ("tax", false) => lang.pick("Tax office", "Finanzamt"),
        ("transfer", _) => lang.pick(
            "Transfer between own accounts",
            "Umbuchung zwischen eigenen Konten",
        ),
        ("credit", _) => lang.pick(
            "Keep as the customer's credit",
            "Als Guthaben des Kunden behalten",
        ),
        _ => lang.pick(
            "Other (for the tax adviser)",
            "Sonstiges (für die Steuerberatung)",
        ),
    }
}

/// What a line's settlement was, as a person reads it.
fn settled_what(lang: Lang, s: &SettlementView, money_in: bool) -> String {
    match (&s.number, s.account.as_deref()) {
        (Some(number), Some("customer_credits")) => format!(
            "{number}: {}",
            lang.pick(
                "applied from the customer's credit",
                "aus dem Guthaben des Kunden verrechnet"
            )
        ),
        (Some(number), Some("fees")) => {
            format!(
                "{number}: {}",
                lang.pick("difference to fees", "Differenz als Gebühr")
            )
        }
        (Some(number), Some(_)) => format!(
            "{number}: {}",
            lang.pick("difference as a discount", "Differenz als Skonto")
        ),
        (Some(number), None) => number.clone(),
        (None, Some("customer_credits")) => lang
            .pick(
                "Kept as the customer's credit",
                "Als Guthaben des Kunden behalten",
            )
            .to_string(),
        (None, Some(account)) => {
            let name = match account {
                "fees" => "fees",
                "interest_income" | "interest_expense" => "interest",
                "tax_office" => "tax",
                "transfer" => "transfer",
                _ => "other",
            };
            account_label(lang, name, money_in).to_string()
        }
        (None, None) => String::new(),
    }
}

/// A suggestion's reason in the page's language, from its code; the
/// books' sentence for a suggestion kept before codes were.
fn reason(lang: Lang, s: &SuggestionView, line: &LineView) -> String {
    Said::from(Bank::Reason {
        code: s.code.clone(),
        numbers: s.number.clone(),
        difference: locale::sum(s.difference.minor.abs(), &s.difference.currency),
        iban: line.counterparty.iban.clone().unwrap_or_default(),
        reference: line.creditor_reference.clone(),
        stored: s.reason.clone(),
    })
    .text(Reader::screens(lang))
}

/// What a suggestion's difference may become, with the one proposed.
fn difference_choices(
    lang: Lang,
    s: &SuggestionView,
    money_in: bool,
) -> (Vec<(String, String)>, &'static str) {
    let pair = |value: &str, en: &str, de: &str| (value.to_string(), lang.pick(en, de).to_string());
    if s.difference.minor > 0 {
        let choices = vec![
            pair(
                "open",
                "Leave the difference open (a partial payment)",
                "Differenz offen lassen (Teilzahlung)",
            ),
            pair(
                "fees",
                "Book the difference to fees",
                "Differenz als Gebühr buchen",
            ),
            pair(
                "discount",
                "Book the difference as a discount",
                "Differenz als Skonto buchen",
            ),
        ];
        let proposed = if s.code.as_deref() == Some("cashDiscount") {
            "discount"
        } else {
            "open"
        };
        (choices, proposed)
    } else if s.difference.minor < 0 && money_in {
        (
            vec![
                pair(
                    "open",
                    "Leave the rest on the line, to book",
                    "Rest auf der Buchung lassen, zum Verbuchen",
                ),
                pair(
                    "credit",
                    "Keep the rest as the customer's credit",
                    "Rest als Guthaben des Kunden behalten",
                ),
            ],
            "open",
        )
    } else {
        (Vec::new(), "open")
    }
}

/// The line's page: its fields, its suggestions with their reasons, the
/// open documents that could fit (`picked` ticked, filling the split), and
/// the acts open to it; `problems` of a refused act above them.
fn line_page(
    ctx: &Ctx,
    line: &LineView,
    status: StatusCode,
    form: &Form,
    problems: &Problems,
) -> Result<Answer> {
    let lang = ctx.lang;
    let tenant = &ctx.session.tenant;
    let money_in = line.amount.minor > 0;
    let open = matches!(line.state, State::Unmatched | State::Suggested);
    let undoable =
        line.state == State::Ignored || line.settlements.iter().any(|s| s.undone_at.is_none());
    let standing = balances::of_lines(ctx.conn, tenant, std::slice::from_ref(&line.id))?;
    let statement = standing.statements.first();
    let notice = ctx
        .notice(
            "done",
            &[
                (
                    "confirmed",
                    "The suggestion is settled.",
                    "Der Vorschlag ist ausgeglichen.",
                ),
                ("split", "The line is split.", "Die Buchung ist aufgeteilt."),
                ("booked", "The line is booked.", "Die Buchung ist verbucht."),
                (
                    "ignored",
                    "The line is ignored.",
                    "Die Buchung wird ignoriert.",
                ),
                (
                    "undone",
                    "Undone by counter-postings.",
                    "Durch Gegenbuchungen rückgängig gemacht.",
                ),
            ],
        )
        .filter(|_| problems.list.is_empty());
    let accounts: Vec<(String, String)> = apply::accounts_for(money_in)
        .iter()
        .map(|name| {
            (
                name.to_string(),
                account_label(lang, name, money_in).to_string(),
            )
        })
        .collect();
    let stored = lines::get(ctx.conn, tenant, &line.id)?;
    let find = ctx.query.get("find").unwrap_or("").trim().to_string();
    let search = Search {
        text: find.clone(),
        amount: locale::parse_amount(lang, "find", &find, &line.amount.currency).ok(),
    };
    let (picking, picked) = if open && may_act(ctx) {
        let picks: Vec<String> = ctx
            .query
            .all("pick")
            .into_iter()
            .chain(
                (1..=MAX_PARTS)
                    .filter_map(|k| ctx.form.sent(&format!("doc{k}")).filter(|d| !d.is_empty())),
            )
            .map(str::to_string)
            .collect();
        let picking = candidates::for_line(ctx.conn, tenant, &stored, &search)?;
        let picked = candidates::chosen(ctx.conn, tenant, &stored, &picks)?;
        let filled = candidates::fill(picking.left, &picked);
        (Some(picking), filled)
    } else {
        (None, Vec::new())
    };
    let content = html! {
        @if let Some(notice) = notice {
            p.notice role="status" { (notice) }
        }
        (form.summary(lang, problems))
        dl.particulars {
            div { dt { (lang.pick("State", "Stand")) } dd { (state_name(lang, line.state)) } }
            div { dt { (lang.pick("Amount", "Betrag")) } dd { (money(lang, &line.amount)) } }
            @if let Some(p) = &picking {
                @if p.left != line.amount.minor.abs() {
                    div { dt { (lang.pick("Left to settle", "Noch offen")) } dd { (locale::amount(lang, p.left, &line.amount.currency)) } }
                }
            }
            @if let Some(s) = statement {
                div { dt { (lang.pick("Bank account", "Bankkonto")) } dd { (s.account.name) " · " (s.account.shown()) } }
                div { dt { (lang.pick("Statement", "Kontoauszug")) } dd { (s.statement_id) } }
            }
            @if let Some((_, Some(balance))) = standing.lines.get(&line.id) {
                div { dt { (lang.pick("Balance after the line", "Saldo nach der Buchung")) } dd { (locale::amount(lang, *balance, &line.amount.currency)) } }
            }
            div { dt { (lang.pick("Booked", "Gebucht")) } dd { (line.booked_on.map(|d| locale::date(lang, d)).unwrap_or_default()) } }
            div { dt { (lang.pick("Value date", "Wertstellung")) } dd { (line.value_on.map(|d| locale::date(lang, d)).unwrap_or_default()) } }
            div { dt { (lang.pick("Counterparty", "Gegenseite")) } dd { (line.counterparty.name.clone().unwrap_or_default()) } }
            div { dt { "IBAN" } dd { (line.counterparty.iban.clone().unwrap_or_default()) } }
            div { dt { (lang.pick("Remittance", "Verwendungszweck")) } dd { (line.remittance) } }
            div { dt { (lang.pick("End-to-end id", "Ende-zu-Ende-Referenz")) } dd { (line.end_to_end_id.clone().unwrap_or_default()) } }
            @if let Some(reason) = &line.return_reason {
                div { dt { (lang.pick("Returned", "Zurückgegeben")) } dd { (reason) } }
            }
            @if let Some(reason) = &line.ignored_reason {
                div { dt { (lang.pick("Ignored because", "Ignoriert, weil")) } dd { (reason) } }
            }
            @for note in &line.notes {
                div { dt { (lang.pick("Read with a change", "Beim Einlesen geändert")) } dd { (note.text(Reader::screens(lang))) } }
            }
        }
        @if !line.settlements.is_empty() {
            section aria-labelledby="settled-heading" {
                h2 #settled-heading { (lang.pick("What the line settled", "Was die Buchung ausgeglichen hat")) }
                ul {
                    @for s in &line.settlements {
                        li {
                            (settled_what(lang, s, money_in)) ": " (money(lang, &s.amount))
                            " (" (locale::date(lang, s.on)) ")"
                            @if s.undone_at.is_some() { " (" (lang.pick("undone", "rückgängig gemacht")) ")" }
                        }
                    }
                }
            }
        }
        @if open && may_act(ctx) {
            @if !line.suggestions.is_empty() {
                (suggestions(ctx, line, money_in))
            }
            @if let Some(p) = &picking {
                (pick_list(ctx, line, p, &picked, &find))
            }
            (split_form(ctx, line, picking.as_ref().map_or(0, |p| p.left), &picked, problems))
            section aria-labelledby="book-heading" {
                h2 #book-heading { (lang.pick("Book without a document", "Ohne Beleg buchen")) }
                (post(ctx, &format!("/bank/lines/{}/book", line.id), html! {
                    (choice(lang, "account", lang.pick("Account", "Konto"), &accounts, ctx.form.sent("account").unwrap_or(apply::accounts_for(money_in)[0]), None, problems))
                    (BOOK.fields(lang, &|f| ctx.typed(f), problems))
                }, lang.pick("Book", "Buchen")))
            }
            section aria-labelledby="ignore-heading" {
                h2 #ignore-heading { (lang.pick("Ignore", "Ignorieren")) }
                (post(ctx, &format!("/bank/lines/{}/ignore", line.id), IGNORE.fields(lang, &|f| ctx.typed(f), problems), lang.pick("Ignore", "Ignorieren")))
            }
        }
        @if undoable && may_act(ctx) {
            (act_button(ctx, &format!("/bank/lines/{}/undo", line.id), lang.pick("Undo (by counter-postings)", "Rückgängig machen (durch Gegenbuchung)")))
        }
        p { a href="/bank" { (lang.pick("All lines", "Alle Buchungen")) } }
    };
    let title = format!(
        "{} {}",
        lang.pick("Bank line", "Buchung"),
        money(lang, &line.amount)
    );
    Ok(screen_with(ctx, status, Screen::Bank, &title, content))
}

/// The suggestions, best first, each with its reason and its confirmation.
fn suggestions(ctx: &Ctx, line: &LineView, money_in: bool) -> Markup {
    let lang = ctx.lang;
    html! {
        section aria-labelledby="suggestions-heading" {
            h2 #suggestions-heading { (lang.pick("Suggestions, best first", "Vorschläge, der beste zuerst")) }
            ol {
                @for (i, s) in line.suggestions.iter().enumerate() {
                    li {
                        p { strong { (s.number) } ": " (money(lang, &s.amount)) ". " (reason(lang, s, line)) }
                        @if s.advance {
                            p.notice {
                                (lang.pick(
                                    "Paid before the invoice's date: confirmed, the money is kept as the customer's credit and applied to the invoice on its date.",
                                    "Vor dem Rechnungsdatum gezahlt: Bestätigt, wird das Geld als Guthaben des Kunden behalten und am Rechnungsdatum mit der Rechnung verrechnet.",
                                ))
                            }
                        }
                        form.stack method="post" action=(format!("/bank/lines/{}/confirm", line.id)) {
                            (csrf(ctx))
                            input type="hidden" name="suggestion" value=(i + 1);
                            @let (choices, proposed) = difference_choices(lang, s, money_in);
                            @if !choices.is_empty() {
                                (choice(lang, &format!("difference{}", i + 1), lang.pick("Difference", "Differenz"), &choices, proposed, None, &Problems::default()))
                            }
                            button type="submit" { (lang.pick("Confirm", "Bestätigen")) " " (s.number) }
                        }
                    }
                }
            }
        }
    }
}

/// How a document fits the line, in a few words.
fn fit_words(lang: Lang, c: &Candidate, currency: &Currency) -> String {
    let mut words: Vec<String> = Vec::new();
    if c.named {
        words.push(
            lang.pick("named in the remittance", "im Verwendungszweck genannt")
                .into(),
        );
    }
    match c.fit {
        AmountFit::Exact => words.push(lang.pick("the amount fits", "der Betrag passt").into()),
        AmountFit::LessDiscount => words.push(format!(
            "{} {}",
            lang.pick(
                "the amount fits less the cash discount of",
                "der Betrag passt abzüglich Skonto von"
            ),
            locale::amount(lang, c.discount.unwrap_or(0), currency)
        )),
        AmountFit::Within | AmountFit::Beyond => {}
    }
    if c.payer {
        words.push(
            lang.pick("the payer is its partner", "der Zahler ist sein Partner")
                .into(),
        );
    }
    if c.advance {
        words.push(
            lang.pick(
                "dated after the line: paid in advance",
                "nach der Buchung datiert: im Voraus gezahlt",
            )
            .into(),
        );
    }
    words.join("; ")
}

/// The open documents that could fit, searched, each with a box to tick;
/// ticking and filling shows the split filled (a GET of this page).
fn pick_list(
    ctx: &Ctx,
    line: &LineView,
    picking: &candidates::Picking,
    picked: &[(Candidate, i64)],
    find: &str,
) -> Markup {
    let lang = ctx.lang;
    let currency = &line.amount.currency;
    let heading = if line.amount.minor > 0 {
        lang.pick(
            "Open invoices that could fit",
            "Offene Rechnungen, die passen könnten",
        )
    } else {
        lang.pick(
            "Open bills that could fit",
            "Offene Eingangsrechnungen, die passen könnten",
        )
    };
    let ticked = |c: &Candidate| picked.iter().any(|(p, _)| p.id == c.id);
    html! {
        section aria-labelledby="pick-heading" {
            h2 #pick-heading { (heading) }
            form.stack method="get" action=(format!("/bank/lines/{}", line.id)) {
                div.search role="search" {
                    (FIND.render(lang, find, &Problems::default()))
                    button type="submit" name="do" value="search" { (lang.pick("Search", "Suchen")) }
                }
                // What is ticked stays ticked while another search shows other documents.
                @for (c, _) in picked.iter().filter(|(c, _)| !picking.shown.iter().any(|s| s.id == c.id)) {
                    input type="hidden" name="pick" value=(c.id);
                }
                @if picking.shown.is_empty() {
                    p { (lang.pick("No open document fits this search.", "Kein offener Beleg passt zu dieser Suche.")) }
                } @else {
                    (Table::new(&[
                        th(lang.pick("Pick", "Wählen")), th(lang.pick("Number", "Nummer")),
                        th(lang.pick("Partner", "Partner")), th(lang.pick("Date", "Datum")),
                        th_amount(lang.pick("Open", "Offen")), th(lang.pick("How it fits", "Wie er passt")),
                    ])
                    .read_caption(lang.pick("Open documents, best fit first", "Offene Belege, der passendste zuerst"))
                    .id("candidates")
                    .rows(picking.shown.iter().enumerate(), |(i, c)| html! {
                        td {
                            input id=(format!("pick-{i}")) type="checkbox" name="pick" value=(c.id) checked[ticked(c)];
                            label.visually-hidden for=(format!("pick-{i}")) { (lang.pick("Pick ", "Wählen: ")) (c.number) }
                        }
                        td { (c.number) }
                        td { (c.partner_name) }
                        td { (locale::date(lang, c.dated)) }
                        td.amount { (locale::amount(lang, c.open, currency)) }
                        td { (fit_words(lang, c, currency)) }
                    }))
                    @if picking.more > 0 {
                        p.legend {
                            (picking.more) " "
                            (lang.pick("more fit the search; narrow it to see them.", "weitere passen zur Suche; grenzen Sie sie ein, um sie zu sehen."))
                        }
                    }
                    button type="submit" name="do" value="fill" { (lang.pick("Fill the split with the ticked", "Aufteilung mit den gewählten füllen")) }
                }
            }
        }
    }
}

/// The split: the ticked documents with the amounts they fill in (each
/// editable, what the difference becomes chosen), or, with none ticked,
/// up to four documents typed by number.
fn split_form(
    ctx: &Ctx,
    line: &LineView,
    left: i64,
    picked: &[(Candidate, i64)],
    problems: &Problems,
) -> Markup {
    let lang = ctx.lang;
    let currency = &line.amount.currency;
    let money_in = line.amount.minor > 0;
    let value = |field: &str, filled: i64| match ctx.form.sent(field) {
        Some(typed) => typed.to_string(),
        None => locale::number(lang, filled, currency.exponent()),
    };
    let owed: i64 = picked.iter().map(|(c, _)| c.open).sum();
    let paid: i64 = picked.iter().map(|(_, a)| a).sum();
    let pair = |value: &str, en: &str, de: &str| (value.to_string(), lang.pick(en, de).to_string());
    let discount = picked
        .iter()
        .any(|(c, a)| c.discount.is_some() && *a == c.full());
    let mut choices = vec![pair("open", "Leave it open", "Offen lassen")];
    if picked.is_empty() || owed > paid {
        choices.push(pair(
            "fees",
            "What the documents still owe: to fees",
            "Was die Belege noch schulden: als Gebühr",
        ));
        choices.push(pair(
            "discount",
            "What the documents still owe: as a discount",
            "Was die Belege noch schulden: als Skonto",
        ));
    }
    if money_in && (picked.is_empty() || left > paid) {
        choices.push(pair(
            "credit",
            "What the line has left: as the customer's credit",
            "Was die Buchung übrig hat: als Guthaben des Kunden",
        ));
    }
    let proposed = ctx
        .form
        .sent("difference")
        .unwrap_or(if discount { "discount" } else { "open" })
        .to_string();
    html! {
        section aria-labelledby="split-heading" {
            h2 #split-heading { (lang.pick("Split over documents", "Auf Belege aufteilen")) }
            form.stack method="post" action=(format!("/bank/lines/{}/split", line.id)) novalidate {
                (csrf(ctx))
                @if picked.is_empty() {
                    @for k in 1..=4 {
                        (SPLIT.text_fields()[k - 1].render(lang, &ctx.typed(&format!("number{k}")), problems))
                        (SPLIT.text_fields()[k + 3].render(lang, &ctx.typed(&format!("amount{k}")), problems))
                    }
                } @else {
                    p {
                        (lang.pick("The line has ", "Die Buchung hat noch "))
                        (locale::amount(lang, left, currency))
                        (lang.pick("; the ticked documents owe ", "; die gewählten Belege schulden "))
                        (locale::amount(lang, owed, currency)) "."
                        @if paid < owed {
                            " " (lang.pick("They are paid ", "Sie werden um ")) (locale::amount(lang, owed - paid, currency))
                            (lang.pick(" less than they owe.", " weniger bezahlt, als sie schulden."))
                        }
                        @if left > paid {
                            " " (lang.pick("The line pays ", "Die Buchung zahlt ")) (locale::amount(lang, left - paid, currency))
                            (lang.pick(" more than they owe.", " mehr, als sie schulden."))
                        }
                    }
                    @for (k, (c, amount)) in picked.iter().enumerate() {
                        input type="hidden" name=(format!("doc{}", k + 1)) value=(c.id);
                        @let hint = format!("{} · {} · {} {}", c.number, c.partner_name, lang.pick("owes", "schuldet"), locale::amount(lang, c.open, currency));
                        (SPLIT.text_fields()[k + 4].render_hinted(lang, &value(&format!("amount{}", k + 1), *amount), Some(hint), problems))
                    }
                }
                (choice(lang, "difference", lang.pick("Difference", "Differenz"), &choices, &proposed, None, problems))
                button type="submit" { (lang.pick("Split", "Aufteilen")) }
            }
        }
    }
}

/// GET /bank/lines/{id}?find=…&pick=…
pub fn show(ctx: &Ctx, id: &str) -> Result<Answer> {
    let line = lines::show(ctx.conn, &ctx.session.tenant, id)?;
    line_page(ctx, &line, StatusCode::OK, &CONFIRM, &Problems::default())
}

/// The line's page again after a refused act, or to it with `done`.
fn after(ctx: &Ctx, id: &str, acted: Acted<LineView>, form: &Form, done: &str) -> Result<Answer> {
    match acted {
        Acted::Done(_) => Ok(see_other(&format!("/bank/lines/{id}?done={done}"))),
        Acted::Refused(r) => {
            let line = lines::show(ctx.conn, &ctx.session.tenant, id)?;
            line_page(ctx, &line, r.status, form, &r.problems)
        }
    }
}

/// POST /bank/lines/{id}/confirm `{suggestion, differenceN}`
pub fn confirm(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let mut read = Reading::of(ctx);
    let n = read.take(
        ctx.form
            .get("suggestion")
            .and_then(|n| n.parse::<usize>().ok())
            .ok_or_else(|| Error::invalid("suggestion", Input::Missing)),
    );
    let difference = match ctx.form.get(&format!("difference{}", n.unwrap_or(1))) {
        Some(text) => read.take(Difference::read(text)),
        None => None,
    };
    let checked = read.check(Ok((n.unwrap_or(1), difference)));
    let acted = CONFIRM.act(ctx, checked, |tx, (n, difference)| {
        acts::confirm(tx, tenant, &ctx.actor(), id, n, difference)
    })?;
    after(ctx, id, acted, &CONFIRM, "confirmed")
}

/// POST /bank/lines/{id}/split `{doc1, amount1, …}` (picked) or
/// `{number1, amount1, …}` (typed), `difference`
pub fn split(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let line = lines::get(ctx.conn, tenant, id)?;
    let mut read = Reading::of(ctx);
    let mut parts = Vec::new();
    for k in 1..=MAX_PARTS {
        let named = ctx
            .form
            .get(&format!("doc{k}"))
            .or_else(|| ctx.form.get(&format!("number{k}")))
            .map(str::trim)
            .unwrap_or("");
        if named.is_empty() {
            continue;
        }
        if let Some(amount) = read.amount(&format!("amount{k}"), &line.currency) {
            parts.push((named.to_string(), amount));
        }
    }
    let difference = match ctx.form.get("difference") {
        Some(text) => read.take(Difference::read(text)),
        None => None,
    };
    let checked = read.check(Ok((parts, difference)));
    let acted = SPLIT.act(ctx, checked, |tx, (parts, difference)| {
        acts::split(tx, tenant, &ctx.actor(), id, &parts, difference)
    })?;
    after(ctx, id, acted, &SPLIT, "split")
}

/// POST /bank/lines/{id}/book `{account, amount}`
pub fn book(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let line = lines::get(ctx.conn, tenant, id)?;
    let mut read = Reading::of(ctx);
    let amount = match ctx.form.get("amount").map(str::trim) {
        None | Some("") => None,
        Some(_) => read.amount("amount", &line.currency),
    };
    let account = ctx.form.get("account").unwrap_or("").to_string();
    let checked = read.check(Ok((account, amount)));
    let acted = BOOK.act(ctx, checked, |tx, (account, amount)| {
        acts::book(tx, tenant, &ctx.actor(), id, &account, amount)
    })?;
    after(ctx, id, acted, &BOOK, "booked")
}

/// POST /bank/lines/{id}/ignore `{reason}`
pub fn ignore(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let reason = ctx.form.get("reason").unwrap_or("").to_string();
    let acted = IGNORE.act(ctx, Reading::of(ctx).check(Ok(reason)), |tx, reason| {
        acts::ignore(tx, tenant, &ctx.actor(), id, &reason)
    })?;
    after(ctx, id, acted, &IGNORE, "ignored")
}

/// POST /bank/lines/{id}/undo
pub fn undo(ctx: &Ctx, id: &str) -> Result<Answer> {
    ctx.must(Capability::Act)?;
    let tenant = &ctx.session.tenant;
    let acted = CONFIRM.act(ctx, Reading::of(ctx).check(Ok(())), |tx, ()| {
        acts::undo(tx, tenant, &ctx.actor(), id)
    })?;
    after(ctx, id, acted, &CONFIRM, "undone")
}
