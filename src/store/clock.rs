//! Instants and calendar dates as kontor stores and shows them: instants as
//! fixed-width UTC text (`2026-11-21T05:41:16.123Z`, so text order is time
//! order), dates as `YYYY-MM-DD`, "today" always in a company's time zone.
//! This module reads the clock; it does not decide what a date means.

use jiff::{civil::Date, tz::TimeZone, Timestamp};

use crate::error::said::Input;
use crate::error::{Error, Result};

/// Formats an instant the way every `...At` field and column carries it
/// (`2026-11-21T05:41:16.123Z`; on the request path, so no format parser).
pub fn format_instant(ts: Timestamp) -> String {
    let dt = jiff::tz::Offset::UTC.to_datetime(ts);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        dt.year(),
        dt.month(),
        dt.day(),
        dt.hour(),
        dt.minute(),
        dt.second(),
        dt.subsec_nanosecond() / 1_000_000
    )
}

/// The current instant in stored form.
pub fn now() -> String {
    format_instant(Timestamp::now())
}

/// Reads an instant given by a person or a program (`2026-12-31T23:00:00Z`,
/// offsets allowed) and returns it in stored form.
///
/// Fails with `Invalid` naming `field` when the text is not an ISO 8601 instant.
pub fn parse_instant(field: &str, text: &str) -> Result<String> {
    text.parse::<Timestamp>()
        .map(format_instant)
        .map_err(|_| Error::invalid(field, Input::NotInstant))
}

/// Reads a calendar date in exactly the form `YYYY-MM-DD`.
///
/// Fails with `Invalid` naming `field` for any other text or an impossible date.
pub fn parse_date(field: &str, text: &str) -> Result<Date> {
    let shaped = text.len() == 10
        && text.bytes().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
    let date = shaped
        .then(|| text.parse::<Date>().ok())
        .flatten()
        .ok_or_else(|| Error::invalid(field, Input::NotDate))?;
    if !(1900..=2199).contains(&date.year()) {
        return Err(Error::invalid(
            field,
            Input::DateOutOfRange {
                from: 1900,
                to: 2199,
            },
        ));
    }
    Ok(date)
}

/// The time zone of a company, by its IANA name.
///
/// Fails with `Invalid` naming the field `timezone` when the name is not in
/// the time zone database.
pub fn zone(name: &str) -> Result<TimeZone> {
    TimeZone::get(name).map_err(|_| {
        Error::invalid(
            "timezone",
            Input::NotTimeZone {
                got: name.to_string(),
            },
        )
    })
}

/// Today's date in the given time zone.
pub fn today_in(zone: &TimeZone) -> Date {
    Timestamp::now().to_zoned(zone.clone()).date()
}

#[cfg(test)]
mod tests {
    #[test]
    fn instants_have_a_fixed_width() {
        let ts: jiff::Timestamp = "2026-01-02T03:04:05.006789Z".parse().unwrap();
        assert_eq!(super::format_instant(ts), "2026-01-02T03:04:05.006Z");
        let ts: jiff::Timestamp = "2026-12-31T23:59:59Z".parse().unwrap();
        assert_eq!(super::format_instant(ts), "2026-12-31T23:59:59.000Z");
    }
}
