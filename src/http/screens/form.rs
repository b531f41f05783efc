//! The forms of the screens, described once, and the one way an act of a
//! screen goes: read, check, act, then redirect or show the form again
//! with each problem beside its field.
//!
//! A screen describes a form once, as a [`Form`] of its text fields
//! ([`FormField`]: the API's or the console flag's name, the labels, the
//! length limit the books check, the input kind and a hint), the names of
//! its other inputs (a choice, a group of checkboxes), the books' names of
//! fields the form names otherwise, and where a refusal of the whole or of
//! the record's state is said. The payment of `payment.rs`:
//!
//! ```text
//! pub const PAYMENT: Form = Form::new(&[
//!     FormField::amount("amount", "Amount", "Betrag").required(),
//!     FormField::date("on", "Paid on", "Bezahlt am").hint("Empty: today", "Leer: heute"),
//!     FormField::text("reference", "Reference", "Verwendungszweck", settlement::MAX_REFERENCE),
//! ])
//! .naming(&[("method", "Method", "Zahlungsart")])
//! .wrong_state_above();
//! ```
//!
//! Its page shows `PAYMENT.summary(lang, problems)` above the form and
//! `PAYMENT.fields(lang, value, problems)` in it (or one field's
//! `render`); a choice is `choice`, a list's search `search_form`; the
//! label of any field a refusal names is `PAYMENT.label(lang, field)`.
//!
//! An act of a screen is then, for example paying a bill:
//!
//! ```text
//! /// POST /bills/{id}/pay `{amount, on, method, reference}`
//! pub fn pay(ctx: &Ctx, id: &str) -> Result<Answer> {
//!     ctx.must(Capability::Act)?;
//!     let tenant = &ctx.session.tenant;
//!     let bill = purchases::get(ctx.conn, tenant, id)?;
//!     // 1. What must read before the books see it, problems noted.
//!     let mut read = Reading::of(ctx);
//!     let amount = read.amount("amount", &bill.currency);
//!     // 2. The books' check, with the reading's problems.
//!     let checked = read.check(NewPayment::check(PaymentInput {
//!         amount: Some(amount.unwrap_or(1)),
//!         on: ctx.form.get("on").map(str::to_string),
//!         method: ctx.form.get("method").map(str::to_string),
//!         reference: ctx.form.get("reference").map(str::to_string),
//!     }));
//!     // 3. The books' act, given the person acting; it writes its own
//!     //    audit row, in the same transaction.
//!     let paid = PAYMENT.act(ctx, checked, |tx, payment| {
//!         settlement::pay_bill(tx, tenant, &ctx.actor(), id, &payment).map(|_| ())
//!     })?;
//!     // 4. Done: a redirect naming what was done; refused: the page again.
//!     match paid {
//!         Acted::Done(()) => Ok(see_other(&format!("/bills/{id}?done=paid"))),
//!         Acted::Refused(r) => bill_page(ctx, &bill, r.status, &|f| ctx.typed(f), &r.problems),
//!     }
//! }
//! ```
//!
//! and its route line in `screens/mod.rs`
//! (`["bills", id, "pay"] if post => bills::pay(ctx, id)`). The form
//! itself is `post` around its fields. An act without a form (a button,
//! `frame::act_button`) writes through `Ctx::write` and gets a page of its
//! own when refused. A list reads its page with `Ctx::paging`, shows its
//! rows in a `frame::Table` and links its pages with `frame::pager`; money
//! reads as `frame::money`.
//!
//! The refusal rule, the same for every form: the problems of the form's
//! own reading come first; each problem of the books follows under the
//! form's name of its field, except one about a field the form could not
//! read (that field keeps only the reading's problem); a problem of the
//! whole is always said, above the form or beside the field the form names
//! for it. A refused form answers 409 when the books refused what read
//! well, 400 when something did not read. A wrong state of the record
//! (already paid, already cancelled) is said above the form when the form
//! says so, and gets a page of its own otherwise.

use hyper::StatusCode;
use maud::{html, Markup};

use crate::error::{Error, Result, Violation};
use crate::http::query::Query;
use crate::http::screens::context::Ctx;
use crate::http::screens::frame::csrf;
use crate::rules::catalogue::Reader;
use crate::rules::iso::Currency;
use crate::rules::locale::{self, Lang};
use crate::rules::money::Decimal;
use crate::store::db::Tx;

/// The longest date a form takes (`YYYY-MM-DD`).
pub const DATE_LENGTH: usize = 10;
/// The longest amount a form takes as a person types it (`1.234.567,89`).
pub const AMOUNT_LENGTH: usize = 30;
/// The longest electronic address a form takes (`SCHEME:VALUE`).
pub const ELECTRONIC_ADDRESS_LENGTH: usize = 120;

/// A refusal's message for one field (or the whole), in the page's language.
pub fn message(lang: Lang, v: &Violation) -> String {
    v.predicate(Reader::screens(lang))
}

/// The violations of a refused form, for its fields and its summary.
#[derive(Default)]
pub struct Problems {
    pub list: Vec<Violation>,
}

impl Problems {
    /// The problems of a refusal (empty for other errors).
    pub fn of(error: &Error) -> Problems {
        Problems {
            list: error.violations().to_vec(),
        }
    }

    /// The problems of `field`.
    pub fn of_field(&self, field: &str) -> Vec<&Violation> {
        self.list
            .iter()
            .filter(|v| v.field.as_deref() == Some(field))
            .collect()
    }

    /// The status of a page that shows these problems of its query (a
    /// list's search, a statement's days): 200 without, 400 with.
    pub fn query_status(&self) -> StatusCode {
        if self.list.is_empty() {
            StatusCode::OK
        } else {
            StatusCode::BAD_REQUEST
        }
    }

    /// Whether `field` has a problem.
    pub fn at(&self, field: &str) -> bool {
        self.list.iter().any(|v| v.field.as_deref() == Some(field))
    }

    /// The summary above a refused form: every problem, whole ones in full.
    pub fn summary(&self, lang: Lang, label: &dyn Fn(&str) -> String) -> Markup {
        html! {
            @if !self.list.is_empty() {
                div.problem role="alert" {
                    p { (lang.pick("Nothing was saved. Please correct:", "Es wurde nichts gespeichert. Bitte korrigieren:")) }
                    ul {
                        @for v in &self.list {
                            li {
                                @match &v.field {
                                    Some(field) => { (label(field)) ": " (message(lang, v)) }
                                    None => { (message(lang, v)) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The code an authenticator app shows: asked when one is set up and at
/// sign-in.
pub const APP_CODE: FormField =
    FormField::text("code", "Code from the app", "Code aus der App", 12)
        .required()
        .autocomplete("one-time-code")
        .hint("6 digits", "6 Ziffern");

/// One text field of a form: the API's name of the field (or the console
/// flag's), its labels, the longest text it takes (the books' own limit
/// where the books check one), its input kind, and a hint beside it.
/// Made with `FormField::text` (or `date`, `amount`) and adjusted with the
/// other `const fn`s, so a form's fields read as one table.
#[derive(Debug, Clone, Copy)]
pub struct FormField {
    pub name: &'static str,
    pub en: &'static str,
    pub de: &'static str,
    pub max: usize,
    pub kind: &'static str,
    pub autocomplete: Option<&'static str>,
    pub required: bool,
    /// The hint beside the field (English, German).
    pub hint: Option<(&'static str, &'static str)>,
}

impl FormField {
    /// A text field of at most `max` characters, optional, without a hint.
    pub const fn text(name: &'static str, en: &'static str, de: &'static str, max: usize) -> Self {
        FormField {
            name,
            en,
            de,
            max,
            kind: "text",
            autocomplete: None,
            required: false,
            hint: None,
        }
    }

    /// A date field (`YYYY-MM-DD`).
    pub const fn date(name: &'static str, en: &'static str, de: &'static str) -> Self {
        FormField::text(name, en, de, DATE_LENGTH).kind("date")
    }

    /// An amount typed as a person types it, read by `Reading::amount`.
    pub const fn amount(name: &'static str, en: &'static str, de: &'static str) -> Self {
        FormField::text(name, en, de, AMOUNT_LENGTH)
    }

    /// The electronic address of a seller or a buyer (`electronicAddress`):
    /// a scheme and an identifier, as the EAS code list reads them; the
    /// page's hint gives an example of its own.
    pub const fn electronic_address() -> Self {
        FormField::text(
            "electronicAddress",
            "Electronic address",
            "Elektronische Adresse",
            ELECTRONIC_ADDRESS_LENGTH,
        )
    }

    /// The same field, required (marked with `*`).
    pub const fn required(self) -> Self {
        FormField {
            required: true,
            ..self
        }
    }

    /// The same field with another input kind (`email`, `tel`, `url`, `password`, `search`).
    pub const fn kind(self, kind: &'static str) -> Self {
        FormField { kind, ..self }
    }

    /// The same field with what browsers may fill in (`organization`, `email`, …).
    pub const fn autocomplete(self, autocomplete: &'static str) -> Self {
        FormField {
            autocomplete: Some(autocomplete),
            ..self
        }
    }

    /// The same field with a hint beside it.
    pub const fn hint(self, en: &'static str, de: &'static str) -> Self {
        FormField {
            hint: Some((en, de)),
            ..self
        }
    }

    /// The field with its value and its own hint, and what to fix beside it.
    pub fn render(&self, lang: Lang, value: &str, problems: &Problems) -> Markup {
        let hint = self.hint.map(|(en, de)| lang.pick(en, de));
        self.input(lang, lang.pick(self.en, self.de), value, hint, problems)
    }

    /// The field with its value and `hint` in place of its own (a hint made
    /// for the page, such as the amount outstanding), and what to fix beside it.
    pub fn render_hinted(
        &self,
        lang: Lang,
        value: &str,
        hint: Option<String>,
        problems: &Problems,
    ) -> Markup {
        self.input(
            lang,
            lang.pick(self.en, self.de),
            value,
            hint.as_deref(),
            problems,
        )
    }

    fn input(
        &self,
        lang: Lang,
        label: &str,
        value: &str,
        hint: Option<&str>,
        problems: &Problems,
    ) -> Markup {
        let wrong = problems.of_field(self.name);
        let id = format!("field-{}", self.name);
        let error_id = format!("{id}-error");
        let hint_id = format!("{id}-hint");
        let described = match (hint.is_some(), wrong.is_empty()) {
            (true, false) => Some(format!("{hint_id} {error_id}")),
            (true, true) => Some(hint_id.clone()),
            (false, false) => Some(error_id.clone()),
            (false, true) => None,
        };
        html! {
            div.field.wrong[!wrong.is_empty()] {
                label for=(id) {
                    (label)
                    @if self.required { " " span.required aria-hidden="true" { "*" } }
                }
                @if let Some(hint) = hint {
                    span.hint id=(hint_id) { (hint) }
                }
                input id=(id) type=(self.kind) name=(self.name) value=(value)
                    maxlength=(self.max) required[self.required]
                    autocomplete=[self.autocomplete]
                    aria-invalid=[(!wrong.is_empty()).then_some("true")]
                    aria-describedby=[described];
                @if !wrong.is_empty() {
                    p.error id=(error_id) {
                        @for v in &wrong { (message(lang, v)) " " }
                    }
                }
            }
        }
    }
}

/// What a list or a statement read with its query: the result, or none
/// and the problems beside the query's fields when the query did not read.
///
/// Fails with any other error.
pub fn queried<T>(result: Result<T>) -> Result<(Option<T>, Problems)> {
    match result {
        Ok(found) => Ok((Some(found), Problems::default())),
        Err(e @ Error::Invalid(_)) => Ok((None, Problems::of(&e))),
        Err(e) => Err(e),
    }
}

/// A form of a page that posts to `action`, stacked: the session's token,
/// `inputs`, and a button saying `submit`. The browser's own checks are off
/// (`novalidate`): the books' refusal, said beside each field in the
/// page's language, is the check.
pub fn post(ctx: &Ctx, action: &str, inputs: Markup, submit: &str) -> Markup {
    html! {
        form.stack method="post" action=(action) novalidate {
            (csrf(ctx))
            (inputs)
            button type="submit" { (submit) }
        }
    }
}

/// The note above a form that marks its required fields with `*`.
pub fn required_note(lang: Lang) -> Markup {
    html! {
        p.legend { (lang.pick("Fields marked * are required.", "Mit * markierte Felder sind Pflichtfelder.")) }
    }
}

/// A choice among `options` (value, text), `chosen` selected, labelled
/// `label`, with a hint and the problems beside it.
pub fn choice(
    lang: Lang,
    name: &str,
    label: &str,
    options: &[(String, String)],
    chosen: &str,
    hint: Option<String>,
    problems: &Problems,
) -> Markup {
    let wrong = problems.of_field(name);
    let id = format!("field-{name}");
    let hint_id = format!("{id}-hint");
    let error_id = format!("{id}-error");
    let described: Vec<&str> = [
        hint.is_some().then_some(hint_id.as_str()),
        (!wrong.is_empty()).then_some(error_id.as_str()),
    ]
    .into_iter()
    .flatten()
    .collect();
    html! {
        div.field.wrong[!wrong.is_empty()] {
            label for=(id) { (label) }
            @if let Some(hint) = &hint {
                span.hint id=(hint_id) { (hint) }
            }
            select id=(id) name=(name)
                aria-invalid=[(!wrong.is_empty()).then_some("true")]
                aria-describedby=[(!described.is_empty()).then(|| described.join(" "))] {
                @for (value, text) in options {
                    option value=(value) selected[value == chosen] { (text) }
                }
            }
            @if !wrong.is_empty() {
                p.error id=(error_id) {
                    @for v in &wrong { (message(lang, v)) " " }
                }
            }
        }
    }
}

/// The search form of a list: `action` with the field `search` (its label,
/// limit and hint from `field`, its value `value`, a refusal beside it) and
/// the list's other parameters kept as hidden fields.
pub fn search_form(
    lang: Lang,
    action: &str,
    keep: &[(&str, &str)],
    field: &FormField,
    value: &str,
    problems: &Problems,
) -> Markup {
    html! {
        form.search method="get" action=(action) role="search" {
            @for (name, kept) in keep {
                input type="hidden" name=(name) value=(kept);
            }
            (field.render(lang, value, problems))
            button type="submit" { (lang.pick("Search", "Suchen")) }
        }
    }
}

/// A form of a screen, described once: its text fields, the names of its
/// other inputs, the books' names of fields it names otherwise, where a
/// refusal of the whole belongs, and whether a wrong state of the record
/// is said above it. Made with `Form::new` and the other `const fn`s.
pub struct Form {
    fields: &'static [FormField],
    others: &'static [(&'static str, &'static str, &'static str)],
    renames: &'static [(&'static str, &'static str)],
    whole_at: Option<&'static str>,
    wrong_state_above: bool,
}

impl Form {
    /// A form of these text fields, in the order it shows them.
    pub const fn new(fields: &'static [FormField]) -> Form {
        Form {
            fields,
            others: &[],
            renames: &[],
            whole_at: None,
            wrong_state_above: false,
        }
    }

    /// The same form, naming its other inputs and the fields of the page's
    /// other forms a refusal may name: (field, English, German).
    pub const fn naming(
        self,
        others: &'static [(&'static str, &'static str, &'static str)],
    ) -> Form {
        Form { others, ..self }
    }

    /// The same form, where the books name fields otherwise: (the books'
    /// name, the form's), as `supplier` for `supplierName`.
    pub const fn renaming(self, renames: &'static [(&'static str, &'static str)]) -> Form {
        Form { renames, ..self }
    }

    /// The same form, a refusal of the whole said beside `field` (a VAT
    /// id's check, an address that is not public).
    pub const fn whole_at(self, field: &'static str) -> Form {
        Form {
            whole_at: Some(field),
            ..self
        }
    }

    /// The same form, a wrong state of its record (already paid, already
    /// cancelled) said above it rather than on a page of its own.
    pub const fn wrong_state_above(self) -> Form {
        Form {
            wrong_state_above: true,
            ..self
        }
    }

    /// How a person reads a field's name, the form's or the books': its
    /// label; `lines[n]` of the books is the line n + 1; any other is its
    /// own name.
    pub fn label(&self, lang: Lang, field: &str) -> String {
        if let Some(n) = field
            .strip_prefix("lines[")
            .and_then(|rest| rest.split(']').next())
            .and_then(|n| n.parse::<usize>().ok())
        {
            return match lang {
                Lang::En => format!("Line {}", n + 1),
                Lang::De => format!("Position {}", n + 1),
            };
        }
        if let Some(f) = self.fields.iter().find(|f| f.name == field) {
            return lang.pick(f.en, f.de).to_string();
        }
        self.others
            .iter()
            .find(|(name, _, _)| *name == field)
            .map_or(field, |(_, en, de)| lang.pick(en, de))
            .to_string()
    }

    /// The form's name of a field the books name `books`.
    pub fn form_name<'b>(&self, books: &'b str) -> &'b str {
        self.renames
            .iter()
            .find(|(b, _)| *b == books)
            .map_or(books, |(_, form)| form)
    }

    /// The form's text fields, in order.
    pub fn text_fields(&self) -> &'static [FormField] {
        self.fields
    }

    /// The summary above the refused form: every problem, with the form's labels.
    pub fn summary(&self, lang: Lang, problems: &Problems) -> Markup {
        problems.summary(lang, &|f| self.label(lang, f))
    }

    /// Every text field of the form, each with `value` of it, its own hint
    /// and the problems beside it.
    pub fn fields(
        &self,
        lang: Lang,
        value: &dyn Fn(&str) -> String,
        problems: &Problems,
    ) -> Markup {
        html! {
            @for f in self.fields {
                (f.render(lang, &value(f.name), problems))
            }
        }
    }

    /// A yes-or-no field of the form: under the form's label of `name`, a
    /// checkbox labelled `label` sending `yes`, and a hidden `no` sent with
    /// it, so a box left unticked says no rather than nothing (read by
    /// `Ctx::yes_no`).
    pub fn yes_no(&self, lang: Lang, name: &str, label: &str, checked: bool) -> Markup {
        let id = format!("field-{name}");
        html! {
            fieldset.choices {
                legend { (self.label(lang, name)) }
                input type="hidden" name=(name) value="no";
                div {
                    input id=(id) type="checkbox" name=(name) value="yes" checked[checked];
                    label for=(id) { (label) }
                }
            }
        }
    }

    /// One act of the form: when the reading and the books' check in
    /// `checked` pass, `write` runs in one transaction (the books' act,
    /// which records its audit row) and its result is `Acted::Done`; a refusal of the
    /// check or of the act is `Acted::Refused`, as the form shows it (see
    /// the module's refusal rule).
    ///
    /// Fails with any other error (not found, storage, a wrong state the
    /// form does not show), which gets a page of its own.
    pub fn act<C, T>(
        &self,
        ctx: &Ctx,
        checked: impl Into<Checked<C>>,
        write: impl FnOnce(&Tx, C) -> Result<T>,
    ) -> Result<Acted<T>> {
        let Checked {
            read,
            failed,
            checked,
        } = checked.into();
        if let Some(e) = failed {
            return Err(e);
        }
        let books = match checked {
            Ok(input) if read.is_empty() => match ctx.app.db.write(|tx| write(tx, input)) {
                Ok(done) => return Ok(Acted::Done(done)),
                Err(e) => Some(e),
            },
            Ok(_) => None,
            Err(e) => Some(e),
        };
        self.refusal(read, books).map(Acted::Refused)
    }

    /// A refusal as the form shows it: the reading's problems and the
    /// books' (`books`), by the module's refusal rule.
    ///
    /// Fails with `books` when it is no refusal the form shows.
    fn refusal(&self, read: Vec<Violation>, books: Option<Error>) -> Result<Refusal> {
        let (refused, said) = match books {
            None => (false, Vec::new()),
            Some(Error::Invalid(said)) => (false, said),
            Some(Error::Refused(said)) => (true, said),
            Some(Error::WrongState(sentence)) if self.wrong_state_above => {
                (true, vec![Violation::whole(*sentence)])
            }
            Some(other) => return Err(other),
        };
        let mut list = read.clone();
        for mut v in said {
            if let Some(field) = &v.field {
                v.field = Some(self.form_name(field).to_string());
            }
            if !read.iter().any(|r| r.field.is_some() && r.field == v.field) {
                list.push(v);
            }
        }
        if let Some(at) = self.whole_at {
            for v in &mut list {
                if v.field.is_none() {
                    *v = Violation::at(at, v.message.clone());
                }
            }
        }
        let error = if refused && read.is_empty() {
            Error::Refused(list)
        } else {
            Error::Invalid(list)
        };
        Ok(Refusal {
            status: error.status(),
            problems: Problems::of(&error),
        })
    }
}

/// What an act of a form came to.
pub enum Acted<T> {
    /// The books' act ran (and recorded its audit row); its result.
    Done(T),
    /// Refused: what the form shows again.
    Refused(Refusal),
}

/// A refused form: the status of its page and the problems beside its fields.
pub struct Refusal {
    pub status: StatusCode,
    pub problems: Problems,
}

impl Refusal {
    /// The refusal in sentences in the page's language, for a page that
    /// shows it in one paragraph; fields named by `label`.
    pub fn sentence(&self, lang: Lang, label: &dyn Fn(&str) -> String) -> String {
        Error::Refused(self.problems.list.clone()).sentence_to(Reader::screens(lang), label)
    }
}

/// An error in sentences in the page's language, for a page that shows it
/// in one paragraph; fields named as the books name them.
pub fn sentence(lang: Lang, e: &Error) -> String {
    e.sentence_for(Reader::screens(lang))
}

/// A form's own reading of what was typed, before the books see it: an
/// amount or a decimal in the person's notation, a currency. Each value
/// that does not read is `None` with its problem noted beside its field;
/// the act gives the books' check a stand-in for it, so every other
/// field's problem is said at once too.
pub struct Reading<'r> {
    lang: Lang,
    form: &'r Query,
    problems: Vec<Violation>,
    failed: Option<Error>,
}

impl<'r> Reading<'r> {
    /// The reading of the form `ctx` was sent, in the page's language.
    pub fn of(ctx: &'r Ctx) -> Reading<'r> {
        Reading {
            lang: ctx.lang,
            form: &ctx.form,
            problems: Vec::new(),
            failed: None,
        }
    }

    /// Notes a problem of the reading (an error that is no refusal ends the act).
    pub fn note(&mut self, e: Error) {
        match e {
            Error::Invalid(v) | Error::Refused(v) => self.problems.extend(v),
            other => {
                self.failed.get_or_insert(other);
            }
        }
    }

    /// The value read, or `None` with its problem noted.
    pub fn take<T>(&mut self, read: Result<T>) -> Option<T> {
        read.map_err(|e| self.note(e)).ok()
    }

    /// The amount typed into `field`, in `currency` (minor units).
    pub fn amount(&mut self, field: &str, currency: &Currency) -> Option<i64> {
        let text = self.form.sent(field).unwrap_or("");
        self.take(locale::parse_amount(self.lang, field, text, currency))
    }

    /// The decimal typed into `field`.
    pub fn decimal(&mut self, field: &str) -> Option<Decimal> {
        let text = self.form.sent(field).unwrap_or("");
        self.take(locale::parse_decimal(self.lang, field, text))
    }

    /// The decimal typed into `field`, when one was typed: `None` for an
    /// empty field, and for one that does not read (its problem noted).
    pub fn optional_decimal(&mut self, field: &str) -> Option<Decimal> {
        let text = self
            .form
            .sent(field)
            .map(str::trim)
            .filter(|t| !t.is_empty())?;
        self.take(locale::parse_decimal(self.lang, field, text))
    }

    /// The currency (an ISO code) typed into `field`.
    pub fn currency(&mut self, field: &str) -> Option<Currency> {
        self.take(Currency::parse(field, self.form.sent(field).unwrap_or("")))
    }

    /// The books' check of the input read, with the reading's problems, for `Form::act`.
    pub fn check<C>(self, checked: Result<C>) -> Checked<C> {
        Checked {
            read: self.problems,
            failed: self.failed,
            checked,
        }
    }
}

/// The books' check of a form's input together with the problems of the
/// form's own reading (none when the form reads nothing itself: a check's
/// `Result` is one as it is).
pub struct Checked<C> {
    read: Vec<Violation>,
    failed: Option<Error>,
    checked: Result<C>,
}

impl<C> From<Result<C>> for Checked<C> {
    fn from(checked: Result<C>) -> Checked<C> {
        Checked {
            read: Vec::new(),
            failed: None,
            checked,
        }
    }
}

/// Both checks at once: their values, or every problem of each (a refusal
/// only when both refuse, an unreadable field outranking a rule's).
pub fn both<A, B>(first: Result<A>, second: Result<B>) -> Result<(A, B)> {
    match (first, second) {
        (Ok(a), Ok(b)) => Ok((a, b)),
        (Err(e), Ok(_)) | (Ok(_), Err(e)) => Err(e),
        (Err(first), Err(second)) => {
            let mut all = first.violations().to_vec();
            all.extend(second.violations().iter().cloned());
            match (&first, &second) {
                (Error::Refused(_), Error::Refused(_)) => Err(Error::Refused(all)),
                _ => Err(Error::Invalid(all)),
            }
        }
    }
}
