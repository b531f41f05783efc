//! The SWIFT MT940 statement as German banks export it: `:20:` the
//! statement's reference, `:25:` the account (an IBAN, or bank code `/`
//! account number), `:28C:` its number, `:60F:`/`:60M:` the opening and
//! `:62F:`/`:62M:` the closing balance, and per booking a `:61:` line
//! (value date, booking date, `C`/`D`/`RC`/`RD`, the amount with a decimal
//! comma, the SWIFT code, references) followed by its `:86:`. A German
//! `:86:` starts with a three-digit GVC and carries `?00`–`?63` subfields:
//! `?00` the booking text, `?20`–`?29` and `?60`–`?63` the purpose (with the
//! SEPA keys `EREF+`, `KREF+`, `MREF+`, `SVWZ+`, …), `?30` the BIC, `?31`
//! the IBAN, `?32`/`?33` the name. Lines wrap at 65 characters anywhere,
//! even inside a subfield's marker (`?2` + newline + `2`), so a structured
//! `:86:` is joined without separators before it is split; a free-text one
//! (no GVC) is joined with spaces. The text is UTF-8 when it reads as UTF-8,
//! else Latin-1.

use jiff::civil::Date;

use crate::documents::statements::model::{
    check, minor_rounded, reference, refusal, tidy, Balance, Entry, Line, Message, Party, Remark,
    Statement, MAX_TEXT,
};
use crate::error::said::FileFault;
use crate::error::Result;
use crate::rules::bank::{AccountId, Iban};
use crate::rules::iso::Currency;

/// One field of the file: its tag, its text (continuation lines joined by
/// `\n`) and the line it starts on.
struct Field {
    tag: String,
    value: String,
    line: usize,
}

/// Whether the text looks like an MT940 file: a `:20:` field at the start
/// of a line, within the first kilobytes.
pub fn looks_like(text: &[u8]) -> bool {
    let head = &text[..text.len().min(4096)];
    head.starts_with(b":20:") || head.windows(5).any(|w| w == b"\n:20:")
}

/// The tag of a line that starts a field (`:61:` → `61`, `:28C:` → `28C`).
fn tag_of(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix(':')?;
    let end = rest.find(':')?;
    let tag = &rest[..end];
    let shaped = (2..=3).contains(&tag.len())
        && tag.as_bytes()[..2].iter().all(u8::is_ascii_digit)
        && tag.bytes().skip(2).all(|b| b.is_ascii_uppercase());
    shaped.then(|| (tag, &rest[end + 1..]))
}

fn fields(name: &str, text: &str) -> Result<Vec<Field>> {
    let mut out: Vec<Field> = Vec::new();
    // After a message's end (`-`, `-}`, `-}{5:…}`) and before the next
    // field, a bank may write lines of its own (a sender, `940`, a
    // receiver): they belong to no field.
    let mut between = false;
    for (i, raw) in text.split('\n').enumerate() {
        let mut line = raw.trim_end_matches('\r');
        // SWIFT envelopes: `{1:…}{2:…}{4:` before the fields, `-}` after.
        if line.starts_with('{') {
            match line.find("{4:") {
                Some(at) => line = &line[at + 3..],
                None => continue,
            }
        }
        // The envelope's end may close the last field's own line.
        if let Some(at) = line.find("-}") {
            if at > 0 {
                line = &line[..at];
            } else {
                between = true;
                continue;
            }
        }
        if line.trim() == "-" {
            between = true;
            continue;
        }
        if line.is_empty() {
            continue;
        }
        if let Some((tag, value)) = tag_of(line) {
            between = false;
            out.push(Field {
                tag: tag.to_string(),
                value: value.to_string(),
                line: i + 1,
            });
        } else if between {
            continue;
        } else if let Some(last) = out.last_mut() {
            if last.value.len() + line.len() > MAX_TEXT {
                return Err(refusal(
                    name,
                    FileFault::FieldTooLong {
                        max: MAX_TEXT,
                        line: i + 1,
                    },
                ));
            }
            last.value.push('\n');
            last.value.push_str(line);
        }
    }
    Ok(out)
}

/// `YYMMDD` as a date (years 80–99 are the 1900s).
fn yymmdd(text: &str) -> Option<Date> {
    if text.len() != 6 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let yy: i16 = text[..2].parse().ok()?;
    let year = if yy >= 80 { 1900 + yy } else { 2000 + yy };
    Date::new(year, text[2..4].parse().ok()?, text[4..6].parse().ok()?).ok()
}

/// A day of a `:61:` line: a day the month does not have (banks computing
/// interest on 30/360 write 30 February on closing entries) is read as the
/// month's last day, with a note saying so; days beyond 31 are no day.
fn day_of(year: i16, month: i8, day: i8, written: &str) -> Option<(Date, Option<Remark>)> {
    if let Ok(d) = Date::new(year, month, day) {
        return Some((d, None));
    }
    if !(1..=31).contains(&day) {
        return None;
    }
    let last = Date::new(year, month, 1).ok()?.last_of_month();
    Some((
        last,
        Some(Remark::LastOfMonth {
            written: written.to_string(),
            read: last,
        }),
    ))
}

/// A balance field: `C181126EUR13564,13`.
fn balance(name: &str, field: &Field, notes: &mut Vec<Remark>) -> Result<Balance> {
    let bad = |fault: FileFault| {
        refusal(
            name,
            FileFault::Mt940Balance {
                tag: field.tag.clone(),
                line: field.line,
                fault: Box::new(fault),
            },
        )
    };
    // A balance is one line; what a bank writes after it is none of it.
    let v = field.value.split('\n').next().unwrap_or("").trim();
    let sign = match v.get(..1) {
        Some("C") => 1,
        Some("D") => -1,
        _ => return Err(bad(FileFault::NoSign)),
    };
    let on = v
        .get(1..7)
        .and_then(yymmdd)
        .ok_or_else(|| bad(FileFault::NoBalanceDate))?;
    let code = v
        .get(7..10)
        .ok_or_else(|| bad(FileFault::NoBalanceCurrency))?;
    let currency =
        Currency::parse("currency", code).map_err(|_| bad(FileFault::NoBalanceIsoCurrency))?;
    let (amount, note) = minor_rounded(&v[10..], &currency).map_err(bad)?;
    notes.extend(note.map(|n| Remark::Balance {
        tag: field.tag.clone(),
        line: field.line,
        remark: Box::new(n),
    }));
    Ok(Balance {
        amount: sign * amount,
        currency,
        on: Some(on),
    })
}

/// A `:61:` line read: the entry without its `:86:`.
struct Booking {
    amount: i64,
    value_on: Date,
    booked_on: Date,
    reversal: bool,
    swift_code: String,
    bank_reference: Option<String>,
    /// What was changed to read the line (its day, its amount).
    notes: Vec<Remark>,
}

/// Reads `:61:` — `YYMMDD[MMDD](C|D|RC|RD)[funds code]amount(N|F|S)xxx
/// customer reference[//bank reference][\n supplementary details]`.
fn booking(name: &str, field: &Field, currency: &Currency) -> Result<Booking> {
    let bad = |fault: FileFault| {
        refusal(
            name,
            FileFault::Mt940Booking {
                line: field.line,
                fault: Box::new(fault),
            },
        )
    };
    let first = field.value.split('\n').next().unwrap_or("").trim_end();
    let mut notes = Vec::new();
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    let value = first
        .get(..6)
        .filter(|t| digits(t))
        .ok_or_else(|| bad(FileFault::NoValueDate))?;
    let yy: i16 = value[..2].parse().map_err(|_| bad(FileFault::ValueDate))?;
    let value_year = if yy >= 80 { 1900 + yy } else { 2000 + yy };
    let month: i8 = value[2..4].parse().map_err(|_| bad(FileFault::ValueDate))?;
    let day: i8 = value[4..6].parse().map_err(|_| bad(FileFault::ValueDate))?;
    let (value_on, note) =
        day_of(value_year, month, day, value).ok_or_else(|| bad(FileFault::ValueDateNoDay))?;
    notes.extend(note);
    let mut rest = &first[6..];
    let mut booked_on = value_on;
    if rest.len() >= 4 && digits(&rest[..4]) {
        let month: i8 = rest[..2].parse().map_err(|_| bad(FileFault::BookingDate))?;
        let day: i8 = rest[2..4]
            .parse()
            .map_err(|_| bad(FileFault::BookingDate))?;
        let mut year = value_on.year();
        if month == 1 && value_on.month() == 12 {
            year += 1;
        } else if month == 12 && value_on.month() == 1 {
            year -= 1;
        }
        let (d, note) =
            day_of(year, month, day, &rest[..4]).ok_or_else(|| bad(FileFault::BookingDateNoDay))?;
        if note.is_some() && notes.is_empty() {
            notes.extend(note);
        }
        booked_on = d;
        rest = &rest[4..];
    }
    let (credit, reversal, after) = if let Some(r) = rest.strip_prefix("RC") {
        (false, true, r)
    } else if let Some(r) = rest.strip_prefix("RD") {
        (true, true, r)
    } else if let Some(r) = rest.strip_prefix('C') {
        (true, false, r)
    } else if let Some(r) = rest.strip_prefix('D') {
        (false, false, r)
    } else {
        return Err(bad(FileFault::NoMark));
    };
    // The funds code, the third letter of the currency, may follow.
    let after = match after.as_bytes().first() {
        Some(b) if b.is_ascii_alphabetic() => &after[1..],
        _ => after,
    };
    let end = after
        .find(|c: char| !(c.is_ascii_digit() || c == ','))
        .ok_or_else(|| bad(FileFault::NoTypeAfterAmount))?;
    let (amount, note) = minor_rounded(&after[..end], currency).map_err(bad)?;
    notes.extend(note);
    check(after[..end].contains(','), name, || {
        FileFault::NoDecimalComma {
            line: field.line,
            amount: after[..end].to_string(),
        }
    })?;
    // Some banks write a space between the amount and the type (`D12,35 NTRF`).
    let rest = after[end..].trim_start_matches(' ');
    let swift_code = rest
        .get(..4)
        .filter(|c| matches!(c.as_bytes()[0], b'N' | b'F' | b'S'));
    let Some(swift_code) = swift_code else {
        return Err(bad(FileFault::NoType));
    };
    let references = &rest[4..];
    // The account owner's reference comes first; the bank's follows `//`.
    let bank = references.split_once("//").map(|(_, b)| b);
    Ok(Booking {
        amount: if credit { amount } else { -amount },
        value_on,
        booked_on,
        reversal,
        swift_code: swift_code.to_string(),
        bank_reference: bank.and_then(reference),
        notes,
    })
}

/// The SEPA keys of a German purpose text.
const KEYS: &[&str] = &[
    "EREF+", "KREF+", "MREF+", "CRED+", "DEBT+", "SVWZ+", "ABWA+", "ABWE+", "COAM+", "OAMT+",
    "IBAN+", "BIC+", "MTLG:",
];

/// The purpose split at its SEPA keys: the text before the first key (under
/// the key ""), then each key with its value (up to the next key).
fn keyed(purpose: &str) -> Vec<(&'static str, String)> {
    let mut marks: Vec<(usize, &'static str)> = Vec::new();
    for key in KEYS {
        let mut from = 0;
        while let Some(at) = purpose[from..].find(key) {
            marks.push((from + at, key));
            from += at + key.len();
        }
    }
    marks.sort();
    let mut out = vec![(
        "",
        purpose[..marks.first().map_or(purpose.len(), |m| m.0)].to_string(),
    )];
    for (i, (at, key)) in marks.iter().enumerate() {
        let end = marks.get(i + 1).map_or(purpose.len(), |m| m.0);
        out.push((key, purpose[(at + key.len()).min(end)..end].to_string()));
    }
    out
}

/// The line of a `:86:` (German, structured or free text) and the entry's
/// booking text and GVC.
fn details(info: Option<&str>) -> (Line, Option<String>, Option<String>) {
    let mut line = Line::default();
    let Some(info) = info else {
        return (line, None, None);
    };
    let b = info.as_bytes();
    let structured = b.len() >= 4
        && b[..3].iter().all(u8::is_ascii_digit)
        && !b[3].is_ascii_alphanumeric()
        && !b[3].is_ascii_whitespace();
    if !structured {
        line.remittance = tidy(&info.split('\n').collect::<Vec<_>>().join(" "));
        return (line, None, None);
    }
    let gvc = info[..3].to_string();
    let separator = char::from(b[3]);
    let joined: String = info[4..].split('\n').collect();
    let mut subfields: Vec<(u8, String)> = Vec::new();
    for (i, piece) in joined.split(separator).enumerate() {
        let code = piece
            .get(..2)
            .filter(|c| c.bytes().all(|b| b.is_ascii_digit()));
        match (i, code) {
            (_, Some(code)) => subfields.push((code.parse().unwrap_or(0), piece[2..].to_string())),
            (0, None) => subfields.push((0, piece.to_string())),
            (_, None) => {
                if let Some(last) = subfields.last_mut() {
                    last.1.push(separator);
                    last.1.push_str(piece);
                }
            }
        }
    }
    let all = |range: std::ops::RangeInclusive<u8>| -> String {
        subfields
            .iter()
            .filter(|(c, _)| range.contains(c))
            .map(|(_, t)| t.as_str())
            .collect()
    };
    let booking_text = Some(tidy(&all(0..=0))).filter(|t| !t.is_empty());
    let purpose = all(20..=29) + &all(60..=63);
    let mut remittance = Vec::new();
    for (key, value) in keyed(&purpose) {
        match key {
            "" | "SVWZ+" | "MTLG:" => remittance.push(value),
            "EREF+" => line.end_to_end_id = reference(&value),
            "MREF+" => line.mandate_id = reference(&value),
            _ => {}
        }
    }
    line.remittance = tidy(&remittance.join(" "));
    let account = tidy(&all(31..=31));
    let mut party = Party {
        name: Some(tidy(&all(32..=33))).filter(|n| !n.is_empty()),
        bic: Some(tidy(&all(30..=30))).filter(|b| !b.is_empty()),
        ..Party::default()
    };
    match Iban::parse("IBAN", &account) {
        Ok(iban) => party.iban = Some(iban),
        Err(_) if !account.is_empty() => party.account = Some(account),
        Err(_) => {}
    }
    line.counterparty = party;
    (line, booking_text, Some(gvc))
}

/// Reads an MT940 file: every statement in it, in order.
///
/// Fails with a sentence naming `name` and the line when no `:20:` is found,
/// a statement has no `:25:` account or no balance to take its currency
/// from, or a balance or a `:61:` line cannot be read.
pub fn read(name: &str, bytes: &[u8]) -> Result<Vec<Statement>> {
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t.to_string(),
        Err(_) => bytes.iter().map(|b| char::from(*b)).collect(),
    };
    let fields = fields(name, &text)?;
    check(fields.iter().any(|f| f.tag == "20"), name, || {
        FileFault::NotMt940
    })?;
    let mut out = Vec::new();
    let mut start = 0;
    while start < fields.len() {
        let end = fields[start + 1..]
            .iter()
            .position(|f| f.tag == "20")
            .map_or(fields.len(), |p| start + 1 + p);
        if fields[start].tag == "20" {
            out.push(statement(name, &fields[start..end])?);
        }
        start = end;
    }
    Ok(out)
}

fn statement(name: &str, fields: &[Field]) -> Result<Statement> {
    let head = &fields[0];
    let find = |tag: &str| fields.iter().find(|f| f.tag == tag);
    let account =
        find("25").ok_or_else(|| refusal(name, FileFault::NoAccountField { line: head.line }))?;
    let mut notes = Vec::new();
    let opening = fields
        .iter()
        .find(|f| f.tag.starts_with("60"))
        .map(|f| balance(name, f, &mut notes))
        .transpose()?;
    let closing = fields
        .iter()
        .find(|f| f.tag.starts_with("62"))
        .map(|f| balance(name, f, &mut notes))
        .transpose()?;
    let currency = opening
        .as_ref()
        .or(closing.as_ref())
        .map(|b| b.currency.clone())
        .ok_or_else(|| refusal(name, FileFault::NoBalance { line: head.line }))?;
    let mut entries = Vec::new();
    for (i, field) in fields.iter().enumerate() {
        if field.tag != "61" {
            continue;
        }
        let b = booking(name, field, &currency)?;
        let info = fields
            .get(i + 1)
            .filter(|f| f.tag == "86")
            .map(|f| f.value.as_str());
        let (mut line, booking_text, gvc) = details(info);
        line.amount = b.amount;
        let transaction_code = Some(match gvc {
            Some(gvc) => format!("{gvc} {}", b.swift_code),
            None => b.swift_code.clone(),
        });
        entries.push(Entry {
            amount: b.amount,
            currency: currency.clone(),
            booked: true,
            booked_on: Some(b.booked_on),
            value_on: Some(b.value_on),
            bank_reference: b.bank_reference,
            reversal: b.reversal,
            booking_text,
            transaction_code,
            batch: false,
            lines: vec![line],
            notes: b.notes,
        });
    }
    let number = find("28C").or_else(|| find("28")).map(|f| tidy(&f.value));
    let closing_day = closing.as_ref().and_then(|c| c.on).map(|d| d.to_string());
    let sequence = match (number, closing_day) {
        (Some(n), Some(d)) => Some(format!("{n} {d}")),
        (n, d) => n.or(d),
    };
    Ok(Statement {
        message: Message::Mt940,
        version: "MT940".into(),
        account: AccountId::read(&account.value),
        currency: Some(currency),
        id: tidy(&head.value),
        sequence,
        opening,
        closing,
        entries,
        notes,
    })
}
