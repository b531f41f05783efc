//! `kontor export datev | gobd`: the books for the tax adviser (a ZIP of
//! DATEV EXTF files written to `--out`) and for a tax audit (the GoBD
//! data medium written into the folder `--out`). Each prints what it
//! wrote.

use std::path::Path;

use serde_json::json;

use crate::access::people::Capability;
use crate::books::export::datev::{self, ExportInput, ExportRequest};
use crate::books::export::gobd;
use crate::books::tenancy;
use crate::console::acting::{actor, print};
use crate::console::args::ExportCommand;
use crate::error::{Error, Result};
use crate::store::db::Db;

/// Runs an `export` command.
///
/// Fails as the books refuse the export, with `Invalid` naming `out` when
/// the file or folder cannot be written, or with `Refused` naming `as`
/// when `--as` may not act in the company's books.
pub fn run(db: &Db, cmd: &ExportCommand, acting: Option<&str>) -> Result<()> {
    match cmd {
        ExportCommand::Datev {
            company: id,
            from,
            to,
            out,
            documents,
            mode,
        } => {
            let request = ExportRequest::check(ExportInput {
                from: Some(from.clone()),
                to: Some(to.clone()),
                documents: *documents,
            })?;
            if out.exists() {
                return Err(Error::invalid(
                    "out",
                    format!("{} exists already", out.display()),
                ));
            }
            let exported = db.write(|tx| {
                let t = tenancy::tenant(tx, id, mode.environment())?;
                let actor = actor(tx, acting, id, Capability::Export)?;
                datev::export(tx, &t, &actor, &request)
            })?;
            std::fs::write(out, &exported.zip).map_err(|e| cannot_write(out, &e))?;
            print(&json!({ "export": exported, "out": out, "bytes": exported.zip.len() }));
        }
        ExportCommand::Gobd {
            company: id,
            year,
            out,
            mode,
        } => {
            let empty = match std::fs::read_dir(out) {
                Ok(mut entries) => entries.next().is_none(),
                Err(_) => !out.exists(),
            };
            if !empty {
                return Err(Error::invalid(
                    "out",
                    format!("{} is not an empty folder", out.display()),
                ));
            }
            let medium = db.write(|tx| {
                let t = tenancy::tenant(tx, id, mode.environment())?;
                let actor = actor(tx, acting, id, Capability::Export)?;
                gobd::export(tx, &t, &actor, *year)
            })?;
            for (name, bytes) in &medium.files {
                let path = out.join(name);
                if let Some(folder) = path.parent() {
                    std::fs::create_dir_all(folder).map_err(|e| cannot_write(folder, &e))?;
                }
                std::fs::write(&path, bytes).map_err(|e| cannot_write(&path, &e))?;
            }
            let files: Vec<&str> = medium.files.iter().map(|(n, _)| n.as_str()).collect();
            print(&json!({ "export": medium, "out": out, "files": files }));
        }
    }
    Ok(())
}

fn cannot_write(path: &Path, e: &std::io::Error) -> Error {
    Error::invalid("out", format!("{} cannot be written: {e}", path.display()))
}
