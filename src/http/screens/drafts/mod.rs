//! The drafts: the paged list of open drafts with what each comes to, a new
//! invoice draft for one of the company's customers, and a draft's page:
//! its lines (added, changed, removed), its references, its figures as
//! issuing it now would freeze them, the preview of its PDF, and the way to
//! issue it. Quantities, prices and rates are typed as a person types them
//! (`1.234,56` in German, `1,234.56` in English) and read by
//! `rules::locale` in the draft's currency; the books' `NewDraftLine::check`
//! with `drafts::add_line`, `change_line` and `remove_line`,
//! `ReferencesChange::check` with `set_references` (as `draft set`), and
//! `invoices::issue` with `IssueOptions::check` (as `draft issue`: the same
//! verdict, documents, number, ledger entry and event) do the rest. Fields
//! carry the API's and the console's names (`description`, `quantity`,
//! `unit`, `unitPrice`, `taxRate`, `vatCategory`, `exemptionReason`,
//! `exemptionCode`, `buyerReference`, `orderReference`, `deliveredOn`,
//! `rate`). Every act is the person's: the books record them in the audit.
//!
//! This file declares the files and re-exports the handlers `route` calls
//! (`drafts::issue`, …); nothing else. What the other screens share is not
//! kept here, nor anything the files would import this file for.
//!
//! - `list.rs`: the list with what each draft comes to, the new draft's form
//!   (a search among the customers, the choice of one) and `create`, as
//!   `POST /v1/invoices/drafts` makes a draft.
//! - `page.rs`: a draft's page (particulars, lines, figures, the new line's
//!   form, references, history), `set_references` and `preview_pdf` (never
//!   stored); `figures_section`, which the confirmation page shows too.
//! - `lines.rs`: a line added, changed (on a page of its own) and removed.
//! - `issue.rs`: `confirm_issue` (the confirmation page: the customer, the
//!   figures, the number the next issue would take, that it cannot be
//!   undone, a refusal's reasons) and `issue`.
//! - `fields.rs`: the drafts' forms described once (`DRAFT`, `DELIVERED_ON`,
//!   `RATE`, …) and how a person reads a kind, a VAT category and a rate. A
//!   leaf.
//! - `line_fields.rs`: a line's form, shown (a stored line in the person's
//!   notation or what a refused form had typed) and read into the books'
//!   input in the draft's currency. A leaf.

mod fields;
mod issue;
mod line_fields;
mod lines;
mod list;
mod page;

pub use issue::{confirm_issue, issue};
pub use lines::{add_line, change_line, line_form, remove_line};
pub use list::{create, list, new_form};
pub use page::{preview_pdf, set_references, show};
