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
//! The screens of a draft are a folder: `list` (the list and a new
//! draft), `page` (a draft's page and its references), `lines` (a line
//! added, changed, removed), `issue` (the confirmation and the issue), and
//! their leaves `fields` (the forms described once, how a person reads a
//! unit, a category, a kind, a rate) and `line_fields` (a line's form,
//! shown and read).

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
