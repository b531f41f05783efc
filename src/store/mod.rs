//! Storage: the data file, its pool and pragmas, the group-committing
//! writer, the schema and its version; and the small things every layer
//! stores in one form: tenants, instants and dates, random ids, pages;
//! and the secrets sealed under a key kept beside the data file.

pub mod clock;
pub mod db;
pub mod ids;
pub mod lock;
pub mod migrations;
pub mod paging;
pub mod row;
pub mod sealed;
pub mod share;
pub mod tenant;
