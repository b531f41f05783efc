//! `kontor dunning run | send | base-rate | levels`: the reminders of a
//! day (proposed, changing nothing; or recorded and mailed), a row of the
//! base-rate table, and the company's ladder.

use serde_json::json;

use crate::access::people::Capability;
use crate::books::company;
use crate::books::dunning::levels::{self, BaseRateInput, LevelInput};
use crate::books::dunning::{run, send};
use crate::books::tenancy;
use crate::console::acting::{actor, company_books, no_actor, print};
use crate::console::args::{DunningCommand, LevelArgs};
use crate::error::{Error, Result};
use crate::store::clock;
use crate::store::db::Db;

/// Runs a `dunning` command.
///
/// Fails as the books refuse the command, or with `Refused` naming `as`.
pub fn run(db: &Db, cmd: &DunningCommand, acting: Option<&str>) -> Result<()> {
    match cmd {
        DunningCommand::Run { company, on, mode } => {
            no_actor(acting, "`dunning run` only reads")?;
            let answer = db.read(|conn| {
                let t = tenancy::tenant(conn, company, mode.environment())?;
                let day = match on {
                    Some(d) => clock::parse_date("on", d)?,
                    None => company::get(conn, &t.company_id)?.today(),
                };
                run::run(conn, &t, day)
            })?;
            print(&answer);
        }
        DunningCommand::Send {
            company,
            on,
            except,
            mode,
        } => {
            let day = on
                .as_deref()
                .map(|d| clock::parse_date("on", d))
                .transpose()?;
            let sent = db.write(|tx| {
                let t = tenancy::tenant(tx, company, mode.environment())?;
                let actor = actor(tx, acting, &t.company_id, Capability::Act)?;
                let day = match day {
                    Some(d) => d,
                    None => company::get(tx, &t.company_id)?.today(),
                };
                Ok(json!({"on": day, "sent": send::send(tx, &t, &actor, day, except)?}))
            })?;
            print(&sent);
        }
        DunningCommand::BaseRate {
            company,
            from,
            percent,
        } => {
            let rows = db.write(|tx| {
                let company_id = company::get(tx, company)?.id;
                let actor = actor(tx, acting, &company_id, Capability::ManageSettings)?;
                levels::add_base_rate(
                    tx,
                    &company_books(&company_id),
                    &actor,
                    &BaseRateInput {
                        from: Some(from.clone()),
                        percent: Some(percent.clone()),
                    },
                )
            })?;
            print(&json!({"baseRates": rows}));
        }
        DunningCommand::Levels(args) => print(&ladder(db, args, acting)?),
    }
    Ok(())
}

/// `dunning levels`: the ladder, after the change the arguments name.
fn ladder(db: &Db, args: &LevelArgs, acting: Option<&str>) -> Result<serde_json::Value> {
    let input = LevelInput {
        level: args.level.clone(),
        days: args.days.clone(),
        fee: args.fee,
        interest: args.interest,
        pay_days: args.pay_days.clone(),
        title_en: args.title_en.clone(),
        title_de: args.title_de.clone(),
        text_en: args.text_en.clone(),
        text_de: args.text_de.clone(),
    };
    let changing = input.level.is_some();
    let all = if changing {
        db.write(|tx| {
            let company_id = company::get(tx, &args.company)?.id;
            let actor = actor(tx, acting, &company_id, Capability::ManageSettings)?;
            levels::change_level(tx, &company_books(&company_id), &actor, &input)
        })?
    } else {
        no_actor(acting, "`dunning levels` without --level only reads")?;
        db.read(|conn| levels::levels(conn, &company::get(conn, &args.company)?.id))?
    };
    let shown: Vec<_> = all
        .iter()
        .map(|l| {
            json!({
                "level": l.level, "days": l.days, "fee": l.fee, "interest": l.interest,
                "payDays": l.pay_days, "titleEn": l.title.0, "titleDe": l.title.1,
                "textEn": l.text.0, "textDe": l.text.1,
            })
        })
        .collect();
    serde_json::to_value(json!({"levels": shown})).map_err(Error::internal)
}
