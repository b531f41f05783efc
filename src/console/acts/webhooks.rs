//! `kontor webhook deliveries | redeliver`: the delivery log of a company's
//! endpoints, and sending a delivery's event again.

use crate::access::people::Capability;
use crate::books::tenancy;
use crate::books::tenancy::Owned;
use crate::books::webhooks;
use crate::console::acting::{actor, no_actor, print};
use crate::console::args::WebhookCommand;
use crate::error::Result;
use crate::outbox::endpoints;
use crate::store::db::Db;
use crate::store::paging::Paging;

/// Runs a `webhook` command.
///
/// Fails as the books refuse the command, or with `Refused` naming `as`
/// when `--as` may not manage the company's webhooks.
pub fn run(db: &Db, cmd: &WebhookCommand, acting: Option<&str>) -> Result<()> {
    match cmd {
        WebhookCommand::Deliveries {
            company,
            endpoint,
            page,
            mode,
        } => print(&db.read(|conn| {
            no_actor(acting, "`webhook deliveries` only reads")?;
            let t = tenancy::tenant(conn, company, mode.environment())?;
            let paging = Paging {
                page: (*page).max(0),
                size: 100,
            };
            endpoints::deliveries(conn, &t, endpoint.as_deref(), paging)
        })?),
        WebhookCommand::Redeliver { delivery, mode } => print(&db.write(|tx| {
            let t = tenancy::owner(tx, Owned::Delivery, delivery, mode.environment())?;
            let actor = actor(tx, acting, &t.company_id, Capability::ManageDevelopers)?;
            let id = webhooks::redeliver(tx, &t, &actor, delivery)?;
            endpoints::delivery(tx, &t, &id)
        })?),
    }
    Ok(())
}
