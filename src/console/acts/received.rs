//! `kontor purchase receive | show | list | book | refuse | original |
//! trust`: received e-invoices. `receive` reads each file (at most the
//! reader's 20 MB and one byte more), hands it to the books in a
//! transaction of its own and prints one result per file; its exit status
//! is non-zero only when a file could not be read from disk at all.
//! `show` gives the bill's warnings and payment terms; `book` takes the
//! person's choice on them (`--accept-warnings`, `--supplier`).

use std::io::Read;

use serde_json::json;

use crate::access::people::Capability;
use crate::books::received::{
    self, BillState, Channel, Decision, Incoming, Receipt, SupplierChoice,
};
use crate::books::tenancy;
use crate::console::acting::{actor, no_actor, print};
use crate::console::args::PurchaseCommand;
use crate::documents::read::MAX_FILE;
use crate::documents::Category;
use crate::error::{Error, Result};
use crate::rules::money::Decimal;
use crate::store::db::Db;
use crate::store::paging::Paging;

/// Runs a received e-invoice's command (any other `purchase` command is
/// `purchases`').
///
/// Fails as the books refuse the command, or with `Invalid` naming `files`
/// when a file could not be read from disk (after the others are received).
pub fn run(db: &Db, cmd: &PurchaseCommand, acting: Option<&str>) -> Result<()> {
    match cmd {
        PurchaseCommand::Receive {
            company,
            files,
            mode,
        } => {
            let mut out: Vec<Receipt> = Vec::with_capacity(files.len());
            let mut unreadable = Vec::new();
            for path in files {
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy().to_string())
                    .unwrap_or_else(|| path.display().to_string());
                let bytes = match read_bounded(path) {
                    Ok(bytes) => bytes,
                    Err(e) => {
                        unreadable.push(path.display().to_string());
                        out.push(Receipt {
                            file: name,
                            state: "refused",
                            id: None,
                            valid: false,
                            findings: Vec::new(),
                            figures: None,
                            booked: false,
                            refused: Some(format!("The file cannot be read: {e}.")),
                            duplicate_of: None,
                            buyer: None,
                        });
                        continue;
                    }
                };
                out.push(db.write(|tx| {
                    let t = tenancy::tenant(tx, company, mode.environment())?;
                    let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
                    received::receive(
                        tx,
                        &t,
                        &actor,
                        &Incoming {
                            file_name: &name,
                            bytes: &bytes,
                            channel: Channel::Console,
                            channel_ref: None,
                        },
                    )
                })?);
            }
            print(&out);
            if !unreadable.is_empty() {
                return Err(Error::invalid(
                    "files",
                    format!("could not all be read: {}", unreadable.join(", ")),
                ));
            }
        }
        PurchaseCommand::Show { company, id, mode } => print(&db.read(|conn| {
            no_actor(acting, "`purchase show` only reads")?;
            let t = tenancy::tenant(conn, company, mode.environment())?;
            received::shown(conn, &t, id)
        })?),
        PurchaseCommand::List {
            company,
            state,
            page,
            mode,
        } => {
            let state = match state.as_deref() {
                None => None,
                Some(s) => Some(
                    BillState::parse(s)
                        .ok_or_else(|| Error::invalid("state", BillState::not_one_of(s)))?,
                ),
            };
            print(&db.read(|conn| {
                no_actor(acting, "`purchase list` only reads")?;
                let t = tenancy::tenant(conn, company, mode.environment())?;
                let paging = Paging {
                    page: (*page).max(0),
                    size: 100,
                };
                received::list(conn, &t, state, paging)
            })?)
        }
        PurchaseCommand::Book {
            company,
            id,
            rate,
            category,
            accept_warnings,
            supplier,
            mode,
        } => {
            let supplier = match supplier.as_deref() {
                None => None,
                Some(s) => Some(
                    SupplierChoice::parse(s)
                        .ok_or_else(|| Error::invalid("supplier", SupplierChoice::not_one_of(s)))?,
                ),
            };
            let decision = Decision {
                accept_warnings: *accept_warnings,
                supplier,
            };
            let rate = rate
                .as_deref()
                .map(|r| Decimal::parse("rate", r))
                .transpose()?;
            let category = category
                .as_deref()
                .map(|c| Category::named("category", c))
                .transpose()?;
            print(&db.write(|tx| {
                let t = tenancy::tenant(tx, company, mode.environment())?;
                let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
                received::book(tx, &t, &actor, id, rate, category.as_ref(), &decision)
            })?)
        }
        PurchaseCommand::Refuse {
            company,
            id,
            reason,
            mode,
        } => print(&db.write(|tx| {
            let t = tenancy::tenant(tx, company, mode.environment())?;
            let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
            received::refuse(tx, &t, &actor, id, reason)
        })?),
        PurchaseCommand::Original {
            company,
            id,
            out,
            mode,
        } => {
            let kept = db.read(|conn| {
                no_actor(acting, "`purchase original` only reads")?;
                let t = tenancy::tenant(conn, company, mode.environment())?;
                received::original(conn, &t, id)
            })?;
            std::fs::write(out, &kept.bytes)
                .map_err(|e| Error::invalid("out", format!("cannot be written: {e}")))?;
            print(&json!({
                "id": id,
                "file": kept.file_name,
                "mediaType": kept.media_type,
                "bytes": kept.bytes.len(),
                "out": out.display().to_string(),
            }));
        }
        PurchaseCommand::Trust {
            company,
            supplier,
            off,
            mode,
        } => print(&db.write(|tx| {
            let t = tenancy::tenant(tx, company, mode.environment())?;
            let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
            received::trust(tx, &t, &actor, supplier, !off)?;
            Ok(json!({ "supplierId": supplier, "trusted": !off }))
        })?),
        _ => {
            return Err(Error::internal(
                "a purchase command that is no received e-invoice's reached its file",
            ))
        }
    }
    Ok(())
}

/// A file's bytes, at most one more than the reader takes (so a larger
/// one is refused by it with its sentence, never read whole).
fn read_bounded(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(MAX_FILE as u64 + 1)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}
