//! `kontor asset add | list | show | classes | dispose`: fixed assets
//! recorded from a bill's line or on their own, listed with their book
//! values, disposed of by sale or scrapping; the classes of the
//! depreciation table.

use serde_json::json;

use crate::access::people::Capability;
use crate::books::assets::{self, AssetInput, Disposal, DisposalInput, NewAsset};
use crate::books::tenancy::{self, Owned};
use crate::console::acting::{actor, no_actor, print};
use crate::console::args::AssetCommand;
use crate::error::Result;
use crate::rules::afa;
use crate::store::db::Db;

/// Runs an `asset` command.
///
/// Fails as the books refuse the command, or with `Refused` naming `as`
/// when `--as` may not act in the company's books.
pub fn run(db: &Db, cmd: &AssetCommand, acting: Option<&str>) -> Result<()> {
    match cmd {
        AssetCommand::Add {
            company,
            name,
            class,
            acquired,
            cost,
            from_bill,
            line,
            life_months,
            one_year,
            mode,
        } => {
            let new = NewAsset::check(AssetInput {
                name: Some(name.clone()),
                class: Some(class.clone()),
                acquired: acquired.clone(),
                cost: *cost,
                life_months: *life_months,
                one_year: *one_year,
                from_bill: from_bill.clone(),
                line: *line,
            })?;
            print(&db.write(|tx| {
                let t = tenancy::tenant(tx, company, mode.environment())?;
                let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
                assets::record(tx, &t, &actor, &new)
            })?)
        }
        AssetCommand::List { company, mode } => print(&db.read(|conn| {
            no_actor(acting, "`asset list` only reads")?;
            let t = tenancy::tenant(conn, company, mode.environment())?;
            Ok(json!({ "assets": assets::list(conn, &t)? }))
        })?),
        AssetCommand::Show { asset, mode } => print(&db.read(|conn| {
            no_actor(acting, "`asset show` only reads")?;
            let t = tenancy::owner(conn, Owned::Asset, asset, mode.environment())?;
            assets::get(conn, &t, asset)
        })?),
        AssetCommand::Classes => classes()?,
        AssetCommand::Dispose {
            asset,
            on,
            proceeds,
            invoice,
            mode,
        } => {
            let disposal = Disposal::check(DisposalInput {
                on: Some(on.clone()),
                proceeds: *proceeds,
                invoice: invoice.clone(),
            })?;
            print(&db.write(|tx| {
                let t = tenancy::owner(tx, Owned::Asset, asset, mode.environment())?;
                let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
                assets::dispose(tx, &t, &actor, asset, &disposal)
            })?)
        }
    }
    Ok(())
}

/// `asset classes`: the classes of the depreciation table.
///
/// Never fails.
pub fn classes() -> Result<()> {
    let classes: Vec<_> = afa::CLASSES
        .iter()
        .map(|c| {
            json!({
                "class": c.key,
                "reference": c.reference,
                "name": c.name_de,
                "nameEn": c.name_en,
                "lifeMonths": c.life_months,
                "account": c.account,
                "depreciationAccount": c.depreciation,
                "digital": c.digital,
                "intangible": c.intangible,
                "source": c.source,
            })
        })
        .collect();
    print(&json!({ "classes": classes }));
    Ok(())
}
