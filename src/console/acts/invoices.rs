//! `kontor invoice cancel | document` (and `send`, `sends`, in `sending`):
//! cancelling an invoice by a full correction, and writing one of its
//! stored documents to a file.

use serde_json::json;

use crate::access::people::Capability;
use crate::books::invoices;
use crate::books::invoices::cancel::{self, CancelInput, Cancellation};
use crate::books::invoices::documents as invoice_documents;
use crate::books::tenancy;
use crate::console::acting::{actor, no_actor, print};
use crate::console::acts::sending;
use crate::console::args::{InvoiceCommand, Mode};
use crate::documents::Format;
use crate::error::{Error, Result};
use crate::store::db::Db;

/// Runs an `invoice` command.
///
/// Fails as the books refuse the command, when the document cannot be
/// written, or with `Refused` naming `as` when `--as` may not act in the
/// company's books.
pub fn run(db: &Db, cmd: &InvoiceCommand, acting: Option<&str>) -> Result<()> {
    match cmd {
        InvoiceCommand::Cancel {
            company,
            number,
            reason,
            on,
            mode,
        } => {
            let request = Cancellation::check(CancelInput {
                reason: Some(reason.clone()),
                on: on.clone(),
            })?;
            cancel(db, acting, company, number, &request, *mode)
        }
        InvoiceCommand::Send(args) => sending::send(db, args, acting),
        InvoiceCommand::Sends(args) => sending::sends(db, args, acting),
        InvoiceCommand::Document {
            company,
            number,
            format,
            out,
            mode,
        } => {
            no_actor(acting, "`invoice document` only reads")?;
            let format = Format::named(Some(format))?;
            document(db, company, number, format, out, *mode)
        }
    }
}

/// `invoice cancel`: prints the cancelled invoice and its correction.
fn cancel(
    db: &Db,
    acting: Option<&str>,
    company: &str,
    number: &str,
    request: &Cancellation,
    mode: Mode,
) -> Result<()> {
    print(&db.write(|tx| {
        let t = tenancy::tenant(tx, company, mode.environment())?;
        let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
        let (original, correction) = cancel::cancel(tx, &t, &actor, number, request)?;
        Ok(json!({
            "cancelled": invoices::get_by_id(tx, &t, &original)?,
            "correction": invoices::get_by_id(tx, &t, &correction)?,
        }))
    })?);
    Ok(())
}

/// `invoice document`: the stored document written to `out` (`-`: standard
/// output); for a file, prints what was written.
fn document(
    db: &Db,
    company: &str,
    number: &str,
    format: Format,
    out: &str,
    mode: Mode,
) -> Result<()> {
    let document = db.read(|conn| {
        let t = tenancy::tenant(conn, company, mode.environment())?;
        invoice_documents::get(conn, &t, number, format)
    })?;
    let written = if out == "-" {
        std::io::Write::write_all(&mut std::io::stdout().lock(), &document.content)
    } else {
        std::fs::write(out, &document.content)
    };
    written.map_err(|e| Error::refused(format!("{out} cannot be written: {e}.")))?;
    if out != "-" {
        print(&json!({
            "number": number,
            "format": format.as_str(),
            "file": out,
            "bytes": document.content.len(),
            "sha256": document.sha256,
        }));
    }
    Ok(())
}
