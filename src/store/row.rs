//! Reading stored values back, strictly: a value that cannot be read is an
//! error naming its table, its row's id and its column, never a default. Row
//! mappers read through `Row`; states stored as text are enums declared with
//! `stored_enum!`, which is the one place their stored spelling is written
//! and read.

use rusqlite::types::{FromSql, Type};
use rusqlite::{Connection, Params};

use crate::error::Result;

/// A value that could not be read: where it is and why.
#[derive(Debug)]
pub struct Unreadable {
    pub table: &'static str,
    pub id: String,
    pub column: String,
    pub detail: String,
}

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} row {}: column {} cannot be read ({})",
            self.table, self.id, self.column, self.detail
        )
    }
}

impl std::error::Error for Unreadable {}

/// Every row `sql` answers for `params`, in its order, each read by `read`
/// as a row of `table`.
///
/// Fails on a storage error or a value `read` cannot read.
pub fn all<T>(
    conn: &Connection,
    sql: &str,
    params: impl Params,
    table: &'static str,
    mut read: impl FnMut(&Row<'_, '_>) -> rusqlite::Result<T>,
) -> Result<Vec<T>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map(params, |r| read(&Row::new(r, table)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// One stored row of `table`, whose first column is its id.
pub struct Row<'a, 'b> {
    row: &'a rusqlite::Row<'b>,
    table: &'static str,
}

impl<'a, 'b> Row<'a, 'b> {
    pub fn new(row: &'a rusqlite::Row<'b>, table: &'static str) -> Row<'a, 'b> {
        Row { row, table }
    }

    /// The value of column `index`.
    ///
    /// Fails with a conversion error naming table, id and column when the
    /// stored value is not a `T`.
    pub fn get<T: FromSql>(&self, index: usize) -> rusqlite::Result<T> {
        self.row
            .get(index)
            .map_err(|e| self.unreadable(index, e.to_string()))
    }

    /// The JSON text of column `index` read as a `T`.
    ///
    /// Fails as `get` does when the text is not JSON of a `T`, never with
    /// a default.
    pub fn json<T: serde::de::DeserializeOwned>(&self, index: usize) -> rusqlite::Result<T> {
        let text: String = self.get(index)?;
        serde_json::from_str(&text).map_err(|e| self.unreadable(index, e.to_string()))
    }

    fn unreadable(&self, index: usize, detail: String) -> rusqlite::Error {
        let id = self
            .row
            .get::<_, String>(0)
            .unwrap_or_else(|_| "(no id)".into());
        let column = self
            .row
            .as_ref()
            .column_name(index)
            .map_or_else(|_| index.to_string(), str::to_string);
        rusqlite::Error::FromSqlConversionFailure(
            index,
            Type::Text,
            Box::new(Unreadable {
                table: self.table,
                id,
                column,
                detail,
            }),
        )
    }
}

/// An enum stored as text: each variant with its one stored (and shown)
/// spelling. Generates `as_str`, `parse` (None for anything else), `ALL`,
/// `Serialize` as the spelling, and `ToSql`/`FromSql` (an unknown stored
/// spelling is an error, never a default).
#[macro_export]
macro_rules! stored_enum {
    ($(#[$meta:meta])* $vis:vis enum $name:ident { $($(#[$vmeta:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $name { $($(#[$vmeta])* $variant),+ }

        impl $name {
            /// Every value, in declaration order.
            #[allow(dead_code)]
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The stored and shown spelling.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            /// The value spelled `text` exactly, if any.
            pub fn parse(text: &str) -> Option<$name> {
                match text { $($text => Some($name::$variant),)+ _ => None }
            }

            /// What a refusal of `got` says: `is a, b or c, not "x"`, with
            /// every spelling.
            #[allow(dead_code)]
            pub fn not_one_of(got: &str) -> $crate::error::Said {
                $crate::error::not_one_of(&[$($text),+], got)
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl rusqlite::types::ToSql for $name {
            fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
                Ok(rusqlite::types::ToSqlOutput::from(self.as_str()))
            }
        }

        impl rusqlite::types::FromSql for $name {
            fn column_result(
                value: rusqlite::types::ValueRef<'_>,
            ) -> rusqlite::types::FromSqlResult<Self> {
                let text = value.as_str()?;
                $name::parse(text).ok_or_else(|| {
                    rusqlite::types::FromSqlError::Other(
                        format!("{text:?} is not a {}", stringify!($name)).into(),
                    )
                })
            }
        }
    };
}

#[cfg(test)]
mod tests {
    crate::stored_enum! {
        /// A plan, for the test.
        enum Tier {
            Starter = "STARTER",
            Professional = "PROFESSIONAL",
            Enterprise = "ENTERPRISE",
        }
    }

    #[test]
    fn a_stored_enum_refuses_with_every_spelling_it_has() {
        assert_eq!(
            Tier::not_one_of("gold"),
            crate::error::Said::Input(crate::error::said::Input::NotOneOf {
                values: vec!["STARTER".into(), "PROFESSIONAL".into(), "ENTERPRISE".into()],
                got: "gold".into(),
            })
        );
        assert_eq!(Tier::parse("PROFESSIONAL"), Some(Tier::Professional));
        assert_eq!(Tier::ALL.len(), 3);
        assert_eq!(Tier::Starter.as_str(), "STARTER");
        assert_eq!(Tier::parse("Enterprise"), None);
        let _ = Tier::Enterprise;
    }
}
