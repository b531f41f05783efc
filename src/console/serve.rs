//! The data file the console works on: which one (`--data`, else
//! `kontor.db`), opening it, serving it over HTTP (`serve`), and copying it
//! while a server may be running (`backup`).

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::console::acting::print;
use crate::console::args::ServeArgs;
use crate::console::log;
use crate::error::{Error, Result};
use crate::http::server::{self, Config};
use crate::store::db::{Db, SCHEMA_VERSION};

/// The data file used when `--data` is not given.
pub const DEFAULT_DATA: &str = "kontor.db";

/// The data file `--data` names, else the default.
pub fn path(data: &Option<PathBuf>) -> PathBuf {
    data.clone().unwrap_or_else(|| PathBuf::from(DEFAULT_DATA))
}

/// Opens the data file for one command.
///
/// Fails as `Db::open` fails (a file that cannot be opened, or one from a
/// newer kontor).
pub fn open(path: &Path) -> Result<Db> {
    Db::open(path, 2)
}

/// Opens the data file for a command on books already begun. A file that
/// is not there is refused, not started empty: a forgotten or mistyped
/// `--data` would otherwise leave an empty file behind and answer that the
/// company was not found.
///
/// Fails with `Refused` naming the path when there is no file, else as
/// `open` fails.
pub fn open_existing(path: &Path) -> Result<Db> {
    if !path.exists() {
        return Err(Error::refused(format!(
            "There is no data file at {}: name the books' file with --data PATH, or begin books with \
             `kontor company create` (or `kontor demo`).",
            path.display()
        )));
    }
    open(path)
}

/// `serve`: the REST API, the agent tools and the screens over the data
/// file, until a signal stops them.
///
/// Fails when the file cannot be opened or the address cannot be bound.
pub fn serve(path: PathBuf, args: &ServeArgs) -> Result<()> {
    let _log = log::start(args.log_format);
    let mut config = Config::new(&path, args.listen);
    args.apply(&mut config)?;
    config.inbox = args.mailbox()?;
    server::run_until_signal(config, |addr| {
        tracing::info!("serving {} on http://{addr}/v1", path.display());
    })
}

/// `backup --to`: copies the data file to `to`, consistently, and prints
/// what was written.
///
/// Fails when `to` exists or cannot be written.
pub fn backup(db: &Db, to: &Path) -> Result<()> {
    let bytes = db.backup_to(to)?;
    print(&json!({
        "backup": to.display().to_string(),
        "bytes": bytes,
        "schemaVersion": SCHEMA_VERSION,
    }));
    Ok(())
}

/// `restore --from`: puts the checked copy in place of the data file and
/// prints what was done.
///
/// Fails as `store::backups::restore` fails, replacing nothing.
pub fn restore(from: &Path, data: &Path) -> Result<()> {
    let done = crate::store::backups::restore(from, data)?;
    print(&serde_json::to_value(&done).map_err(Error::internal)?);
    Ok(())
}
