//! Checked text the records store as it is written: a country or currency
//! code, an IBAN, a BIC. `stored_text!` gives such a type (one with
//! `parse(field, text)` and `as_str`) its stored and shown form: `ToSql`
//! and `Serialize` as `as_str`, `Display` the same, and a strict `FromSql`.
//! (Enums stored as text are `stored_enum!`'s, in `store`.)

/// Implements `ToSql`, `FromSql`, `Serialize` and `Display` for `$type` by
/// its `as_str`. A stored value is read back strictly: one that `parse`
/// refuses (a code no longer on its list) or would change (not upper case,
/// spaces) is an error saying it is not `$what`, never a default.
macro_rules! stored_text {
    ($type:ident, $what:literal) => {
        impl rusqlite::types::ToSql for $type {
            fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
                Ok(rusqlite::types::ToSqlOutput::from(self.as_str()))
            }
        }

        impl rusqlite::types::FromSql for $type {
            fn column_result(
                value: rusqlite::types::ValueRef<'_>,
            ) -> rusqlite::types::FromSqlResult<Self> {
                // Stored exactly as written: upper case, no spaces.
                let text = value.as_str()?;
                match $type::parse("stored", text) {
                    Ok(checked) if checked.as_str() == text => Ok(checked),
                    _ => Err(rusqlite::types::FromSqlError::Other(
                        format!("{text:?} is not {}", $what).into(),
                    )),
                }
            }
        }

        impl serde::Serialize for $type {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl std::fmt::Display for $type {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

pub(crate) use stored_text;
