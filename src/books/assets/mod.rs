//! Fixed assets (*Anlagenverzeichnis*): an asset recorded from a bill's line
//! or on its own, in a class of the official depreciation table
//! (`rules::afa`), written off by the method its class, cost and the fiscal
//! year's choices give it; the year's depreciation posted once per asset
//! and year; a disposal by sale or scrapping; the register of a fiscal year
//! (*Anlagenspiegel*). Every act posts its own balanced entries and writes
//! its audit row in the caller's transaction; the assets raise no events.
//!
//! An asset's lines in the ledger are `fixed_assets` (its cost, on the
//! chart account of its class, within the asset's id), `depreciation`
//! (within its id, on its depreciation account), `asset_disposals` (its
//! remaining value when it leaves) and, for a sale, its proceeds moved from
//! the revenue of the invoice that sold it to `asset_sales` within the
//! invoice's tax key. Its entries are named `ast_…` (recorded), `dep_…`
//! (a year's depreciation, or a disposal's part of it), `dsp_…` (the
//! remaining value out) and `sal_…` (the proceeds).
//!
//! - `stored.rs`: an asset as stored and in its wire form (`Asset`), the
//!   tenant's assets, the depreciation posted per asset and year, the
//!   bounds of a fiscal year named by its first calendar year (and today's,
//!   `this_year`), and the checks every act shares (the book currency, the
//!   years before posted).
//! - `choices.rs`: a fiscal year's choices of the low-value rule and the
//!   pool (`rule_of`, `set_rule`), changed only while no asset of that year
//!   would be written off otherwise.
//! - `record.rs`: recording an asset (`AssetInput`, `NewAsset`, `record`):
//!   from a bill's line (its cost moved from the line's expense account) or
//!   on its own (from the money not yet assigned).
//! - `run.rs`: the year's depreciation posted (`depreciate`), what each
//!   asset writes off in a year (`of_year`), posted or due, and an asset's
//!   plan year by year (`schedule`).
//! - `dispose.rs`: an asset leaving the books (`DisposalInput`, `dispose`):
//!   its depreciation up to the month, its remaining value out, a sale's
//!   proceeds off revenue.
//! - `register.rs`: the register of a fiscal year (`register`): cost,
//!   additions, disposals, depreciation and book values per asset and class.

mod choices;
mod dispose;
mod record;
mod register;
mod run;
mod stored;

pub use choices::{rule_of, set_rule, RuleInput, YearChoice};
pub use dispose::{dispose, Disposal, DisposalInput};
pub use record::{record, AssetInput, NewAsset, MAX_NAME};
pub use register::{register, Figures, Register, RegisterClass, RegisterRow};
pub use run::{depreciate, of_year, schedule, Depreciated, PlannedYear, YearFigure};
pub(crate) use stored::year_bounds;
pub use stored::{get, list, this_year, Asset};
