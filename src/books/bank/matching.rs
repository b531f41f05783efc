//! The matching ladder: which open items a bank line pays, and how sure that
//! is. A pure function over the line's facts and the open items (with their
//! numbers, open amounts, partners and creditor references), so it can be
//! tested and measured without storage. The rungs, in order:
//!
//! - (a) a structured creditor reference (ISO 11649, checked) equal to an
//!   item's: **certain**;
//! - (b) one item's number in the remittance or end-to-end id and the amount
//!   equal to its open amount, or (a bill owed whole, paid by the last day
//!   of its cash discount) to its open amount less the discount:
//!   **certain**;
//! - (c) several numbers and the amount equal to their open sum: **certain**;
//! - (d) the counterparty's IBAN known for exactly one partner and the amount
//!   equal to one of its open items, or to a sum of two to four of them:
//!   **suggested**;
//! - (e) numbers found but the amount lower (a partial payment, or one
//!   reduced by fees within the company's tolerance) or higher (an
//!   overpayment): **suggested**, the difference named;
//! - (f) the counterparty's name alike a partner's and the amount equal to
//!   one of its open items: **suggested**;
//! - otherwise unmatched.
//!
//! Numbers are found with spaces, dashes, case and leading zeros tolerated
//! (`re 2026-17` finds `RE2026-00017`), never inside a longer token
//! (`XRE2026-00017`, `RE2026-000171`), and when one found number lies inside
//! another found one (`RE2026-00017` in `RE2026-00017-2`) only the longer
//! counts. A line is matched only up to its own amount and an item only up
//! to its open amount; a certain match lowers the item's open amount for the
//! lines after it, a suggestion does not. Only items of the line's direction
//! (money in: invoices and suppliers' credits; money out: bills and credit
//! notes) and currency are considered; the caller hands in only one
//! company's and one environment's items.

use std::collections::{HashMap, HashSet};

use jiff::civil::Date;

use crate::books::payments::TargetKind;
use crate::rules::creditor_reference::CreditorReference;

/// Most readings of the numbers a line names, when a number names several items.
const MAX_READINGS: usize = 8;

/// Most items of one partner tried in sums for rung (d), oldest first.
const SUM_CANDIDATES: usize = 24;
/// Most items a sum of rung (d) may have.
const SUM_ITEMS: usize = 4;
/// Most segments of a number looked for (`RE`, `2026`, `00017` are three).
const MAX_SEGMENTS: usize = 8;

/// An open item as the ladder sees it.
#[derive(Debug, Clone)]
pub struct Item {
    pub kind: TargetKind,
    /// The document's id.
    pub id: String,
    pub number: String,
    /// The partner's id and name.
    pub partner: String,
    pub partner_name: String,
    /// What is still open, in minor units, signed as the bank line that
    /// pays it: positive for money in (an invoice, a supplier's credit to be
    /// refunded), negative for money out (a bill, a credit note to refund).
    pub open: i64,
    pub currency: String,
    /// The item's ISO 11649 reference, if it was issued with one.
    pub reference: Option<String>,
    /// The document's date: the oldest is tried first.
    pub dated: Date,
    /// The cash discount (Skonto) a bill grants while it is owed whole.
    pub discount: Option<CashDiscount>,
}

/// A supplier's cash discount on a bill: paid by `until`, the bill is
/// settled by `amount` less than it owes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CashDiscount {
    pub until: Date,
    /// Minor units, positive.
    pub amount: i64,
}

/// What the ladder reads of a bank line.
#[derive(Debug, Clone, Default)]
pub struct LineFacts {
    /// Signed minor units: credits positive.
    pub amount: i64,
    pub currency: String,
    pub iban: Option<String>,
    pub name: Option<String>,
    pub remittance: String,
    pub end_to_end_id: Option<String>,
    pub creditor_references: Vec<String>,
    /// The line's day (booking, else value day): a cash discount counts
    /// up to its last day.
    pub day: Option<Date>,
}

/// Why an allocation was proposed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// (a) The line's creditor reference is the item's.
    CreditorReference(String),
    /// (b) The item's number is named and the amount is its open amount.
    Number,
    /// (c) Several numbers are named and the amount is their open sum.
    Combined,
    /// (d) The IBAN is known for the item's partner and the amount is the
    /// open amount of one item (or the sum of several).
    KnownIban(String),
    /// (e) Numbers are named and the line pays less than open by at most
    /// the company's fee tolerance (the difference, minor units).
    FeeReduced(i64),
    /// (e) Numbers are named and the line pays less than open.
    Partial(i64),
    /// (e) Numbers are named and the line pays more than open.
    Overpaid(i64),
    /// (e) Several numbers are named and the amount equals one item's open amount.
    OneOfSeveral,
    /// (f) The name is alike the item's partner's and the amount is its open amount.
    NameAlike,
    /// (b) The item's number is named and the amount is its open amount
    /// less the cash discount it grants, within its period (the discount,
    /// minor units).
    CashDiscount(i64),
}

impl Reason {
    /// The reason in a sentence, amounts written by `money`.
    pub fn sentence(&self, items: &[&Item], money: &dyn Fn(i64) -> String) -> String {
        let numbers = items
            .iter()
            .map(|i| i.number.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        match self {
            Reason::CreditorReference(r) => format!("The creditor reference {r} is the one of {numbers}."),
            Reason::Number => format!("The remittance names {numbers} and the amount is its open amount."),
            Reason::Combined => format!("The remittance names {numbers} and the amount is their open sum."),
            Reason::KnownIban(iban) => {
                let partner = items.first().map_or("", |i| i.partner_name.as_str());
                if items.len() == 1 {
                    format!("The IBAN {iban} is known for {partner} and the amount is the open amount of {numbers}.")
                } else {
                    format!("The IBAN {iban} is known for {partner} and the amount is the open sum of {numbers}.")
                }
            }
            Reason::FeeReduced(d) => format!(
                "The remittance names {numbers}; the amount is {} less than open, within the fee tolerance.",
                money(*d)
            ),
            Reason::Partial(d) => format!(
                "The remittance names {numbers}; the amount is {} less than open (a partial payment).",
                money(*d)
            ),
            Reason::Overpaid(d) => format!(
                "The remittance names {numbers}; the amount is {} more than open (an overpayment).",
                money(*d)
            ),
            Reason::OneOfSeveral => format!(
                "The remittance names several numbers; the amount is the open amount of {numbers}."
            ),
            Reason::NameAlike => format!(
                "The payer's name is alike {} and the amount is the open amount of {numbers}.",
                items.first().map_or("", |i| i.partner_name.as_str())
            ),
            Reason::CashDiscount(d) => format!(
                "The remittance names {numbers}; the amount is its open amount less its cash discount of {}, \
                 paid within the discount's period.",
                money(*d)
            ),
        }
    }

    /// The reason's code, as a suggestion keeps it for its sentence in the
    /// reader's language.
    pub fn code(&self) -> &'static str {
        match self {
            Reason::CreditorReference(_) => "creditorReference",
            Reason::Number => "number",
            Reason::Combined => "combined",
            Reason::KnownIban(_) => "knownIban",
            Reason::FeeReduced(_) => "feeReduced",
            Reason::Partial(_) => "partial",
            Reason::Overpaid(_) => "overpaid",
            Reason::OneOfSeveral => "oneOfSeveral",
            Reason::NameAlike => "nameAlike",
            Reason::CashDiscount(_) => "cashDiscount",
        }
    }
}

/// Items and the amounts proposed for them (positive, at most each item's
/// open amount and together at most the line's), with the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proposal {
    /// (index into the ladder's items, amount in minor units, positive).
    pub allocations: Vec<(usize, i64)>,
    pub reason: Reason,
}

impl Proposal {
    /// The amount allocated in all.
    pub fn total(&self) -> i64 {
        self.allocations.iter().map(|(_, a)| a).sum()
    }
}

/// What the ladder made of a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// To be settled now (rungs a–c); the items' open amounts are lowered.
    Certain(Proposal),
    /// For a person to confirm, best first (rungs d–f).
    Suggested(Vec<Proposal>),
    Unmatched,
}

/// A text cut into segments: runs of letters or of digits, upper case, each
/// with whether it is glued to the one before (a letter next to a digit).
fn segments(text: &str) -> Vec<(String, bool)> {
    let mut out: Vec<(String, bool)> = Vec::new();
    let mut current = String::new();
    let mut glued = false;
    // 0: no letter or digit, 1: a letter, 2: a digit.
    let mut kind = 0u8;
    for c in text.chars() {
        let k = if c.is_ascii_digit() {
            2
        } else if c.is_alphanumeric() {
            1
        } else {
            0
        };
        if k != kind {
            if !current.is_empty() {
                out.push((std::mem::take(&mut current), glued));
            }
            glued = kind != 0 && k != 0;
        }
        if k != 0 {
            current.extend(c.to_uppercase());
        }
        kind = k;
    }
    if !current.is_empty() {
        out.push((current, glued));
    }
    out
}

/// The creditor references written in a text: a word starting `RF` and
/// two digits, alone or with the groups of four that follow it
/// (`RF13 RE20 2600 023`), each that passes its check digits.
fn written_references(text: &str) -> Vec<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut found = Vec::new();
    for (i, word) in words.iter().enumerate() {
        let upper = word.to_ascii_uppercase();
        if !(upper.starts_with("RF")
            && upper
                .as_bytes()
                .get(2..4)
                .is_some_and(|d| d.iter().all(u8::is_ascii_digit)))
        {
            continue;
        }
        let mut candidate = String::new();
        for next in &words[i..(i + 7).min(words.len())] {
            candidate.push_str(next.trim_matches(|c: char| !c.is_ascii_alphanumeric()));
            if candidate.len() > 25 {
                break;
            }
            if let Ok(rf) = CreditorReference::parse("reference", &candidate) {
                found.push(rf.as_str().to_string());
            }
        }
    }
    found
}

/// A digit run without its leading zeros (`00017` → `17`, `000` → `0`).
fn unpadded(segment: &str) -> &str {
    if segment.bytes().all(|b| b.is_ascii_digit()) {
        let t = segment.trim_start_matches('0');
        if t.is_empty() {
            "0"
        } else {
            t
        }
    } else {
        segment
    }
}

/// The two keys a number is found by: its segments without leading zeros
/// (`RE|2026|17`) and its letters and digits run together (`RE202600017`).
fn keys(segments: &[(String, bool)]) -> (String, String) {
    let mut split = String::new();
    let mut compact = String::new();
    for (i, (s, _)) in segments.iter().enumerate() {
        if i > 0 {
            split.push('|');
        }
        split.push_str(unpadded(s));
        compact.push_str(s);
    }
    (split, compact)
}

/// A name reduced to the words that tell it apart: lower case, umlauts
/// spelled out, legal forms and titles dropped.
fn name_words(name: &str) -> HashSet<String> {
    const NOISE: &[&str] = &[
        "gmbh",
        "mbh",
        "ag",
        "kg",
        "ohg",
        "ek",
        "e",
        "k",
        "co",
        "ug",
        "haftungsbeschraenkt",
        "gbr",
        "ltd",
        "inc",
        "llc",
        "sa",
        "sarl",
        "bv",
        "nv",
        "dr",
        "und",
        "the",
        "and",
        "von",
        "der",
    ];
    let mut folded = String::with_capacity(name.len());
    for c in name.chars().flat_map(char::to_lowercase) {
        match c {
            'ä' => folded.push_str("ae"),
            'ö' => folded.push_str("oe"),
            'ü' => folded.push_str("ue"),
            'ß' => folded.push_str("ss"),
            c if c.is_alphanumeric() => folded.push(c),
            _ => folded.push(' '),
        }
    }
    folded
        .split_whitespace()
        .filter(|w| !NOISE.contains(w))
        .map(str::to_string)
        .collect()
}

/// Whether two names are alike: the words of one are all among the other's,
/// and one of them has four letters at least.
fn alike(a: &HashSet<String>, b: &HashSet<String>) -> bool {
    let (small, large) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    !small.is_empty() && small.iter().any(|w| w.chars().count() >= 4) && small.is_subset(large)
}

/// The open items of one company, environment and moment, indexed for the
/// ladder, with the open amounts lowered by each certain match.
pub struct Ladder {
    items: Vec<Item>,
    by_reference: HashMap<String, usize>,
    by_split: HashMap<String, Vec<usize>>,
    by_compact: HashMap<String, Vec<usize>>,
    by_partner: HashMap<String, Vec<usize>>,
    by_amount: HashMap<i64, Vec<usize>>,
    /// IBAN → the partners it is known for.
    ibans: HashMap<String, Vec<String>>,
    partner_words: HashMap<String, HashSet<String>>,
    longest: usize,
    fee_tolerance: i64,
}

impl Ladder {
    /// Indexes `items`; `ibans` are (IBAN, partner id) pairs known from the
    /// partners' particulars, received e-invoices and earlier settled lines;
    /// `fee_tolerance` is how much less than open a payment may be to be
    /// called fee-reduced rather than partial (minor units).
    pub fn new(
        items: Vec<Item>,
        ibans: impl IntoIterator<Item = (String, String)>,
        fee_tolerance: i64,
    ) -> Ladder {
        let mut ladder = Ladder {
            by_reference: HashMap::new(),
            by_split: HashMap::new(),
            by_compact: HashMap::new(),
            by_partner: HashMap::new(),
            by_amount: HashMap::new(),
            ibans: HashMap::new(),
            partner_words: HashMap::new(),
            longest: 1,
            fee_tolerance: fee_tolerance.max(0),
            items: Vec::new(),
        };
        let mut items = items;
        items.sort_by(|a, b| (a.dated, &a.number).cmp(&(b.dated, &b.number)));
        for (i, item) in items.iter().enumerate() {
            if let Some(r) = &item.reference {
                ladder.by_reference.insert(r.clone(), i);
            }
            let segs = segments(&item.number);
            if !segs.is_empty() && segs.len() <= MAX_SEGMENTS {
                ladder.longest = ladder.longest.max(segs.len());
                let (split, compact) = keys(&segs);
                ladder.by_split.entry(split).or_default().push(i);
                ladder.by_compact.entry(compact).or_default().push(i);
            }
            ladder
                .by_partner
                .entry(item.partner.clone())
                .or_default()
                .push(i);
            ladder.by_amount.entry(item.open).or_default().push(i);
            if !ladder.partner_words.contains_key(&item.partner) {
                ladder
                    .partner_words
                    .insert(item.partner.clone(), name_words(&item.partner_name));
            }
        }
        ladder.items = items;
        for (iban, partner) in ibans {
            let partners = ladder.ibans.entry(iban).or_default();
            if !partners.contains(&partner) {
                partners.push(partner);
            }
        }
        ladder
    }

    /// The items, oldest first (the indexes of the proposals point here).
    pub fn items(&self) -> &[Item] {
        &self.items
    }

    /// What is still open of an item, as a positive amount, if the line can
    /// pay it (same direction and currency).
    fn payable(&self, i: usize, line: &LineFacts) -> Option<i64> {
        let item = &self.items[i];
        let same_way = (item.open > 0) == (line.amount > 0);
        (item.open != 0 && same_way && item.currency == line.currency).then(|| item.open.abs())
    }

    /// The items whose numbers the line names, in the order named: one
    /// list per number written, holding every item that number names (more
    /// than one when two suppliers' bills share it).
    fn named(&self, line: &LineFacts) -> Vec<Vec<usize>> {
        let mut text = line.remittance.clone();
        if let Some(e2e) = &line.end_to_end_id {
            text.push(' ');
            text.push_str(e2e);
        }
        let segs = segments(&text);
        let mut found: Vec<(usize, usize, usize)> = Vec::new(); // (start, end, item)
        for start in 0..segs.len() {
            if segs[start].1 {
                continue;
            }
            let mut split = String::new();
            let mut compact = String::new();
            for end in start + 1..=(start + self.longest).min(segs.len()) {
                let s = &segs[end - 1].0;
                if end > start + 1 {
                    split.push('|');
                }
                split.push_str(unpadded(s));
                compact.push_str(s);
                if segs.get(end).is_some_and(|next| next.1) {
                    continue;
                }
                for map_key in [(&self.by_split, &split), (&self.by_compact, &compact)] {
                    if let Some(hits) = map_key.0.get(map_key.1.as_str()) {
                        for &i in hits {
                            found.push((start, end, i));
                        }
                    }
                }
            }
        }
        // A number inside another found number does not count.
        let spans = found.clone();
        let mut named: Vec<((usize, usize), Vec<usize>)> = Vec::new();
        for (start, end, i) in found {
            let inside = spans
                .iter()
                .any(|(s, e, j)| *j != i && *s <= start && end <= *e && (e - s) > (end - start));
            let seen = named.iter().any(|(_, items)| items.contains(&i));
            if inside || seen || self.payable(i, line).is_none() {
                continue;
            }
            match named.iter_mut().find(|(span, _)| *span == (start, end)) {
                Some((_, items)) => items.push(i),
                None => named.push(((start, end), vec![i])),
            }
        }
        named.into_iter().map(|(_, items)| items).collect()
    }

    /// The readings of the numbers a line names: one item per number
    /// written, every combination where a number names several (at most
    /// `MAX_READINGS`).
    fn readings(&self, line: &LineFacts) -> Vec<Vec<usize>> {
        let mut readings: Vec<Vec<usize>> = vec![Vec::new()];
        for items in self.named(line) {
            readings = readings
                .iter()
                .flat_map(|r| {
                    items
                        .iter()
                        .map(move |i| r.iter().copied().chain([*i]).collect::<Vec<_>>())
                })
                .take(MAX_READINGS)
                .collect();
        }
        readings.retain(|r| !r.is_empty());
        readings
    }

    /// Places a line on the ladder. A certain match lowers the open amounts
    /// of its items for the lines placed after it.
    pub fn place(&mut self, line: &LineFacts) -> Outcome {
        let outcome = self.judge(line);
        if let Outcome::Certain(p) = &outcome {
            self.lower(p, line);
        }
        outcome
    }

    /// What the ladder makes of a line, the open amounts left as they are
    /// (a line's suggestions computed again).
    pub fn judge(&self, line: &LineFacts) -> Outcome {
        let amount = line.amount.abs();
        if amount == 0 {
            return Outcome::Unmatched;
        }
        // (a) The structured creditor reference, or one written in the
        // remittance (MT940 has no field of its own for it).
        for reference in line
            .creditor_references
            .iter()
            .cloned()
            .chain(written_references(&line.remittance))
        {
            let Ok(rf) = CreditorReference::parse("reference", &reference) else {
                continue;
            };
            if let Some(&i) = self.by_reference.get(rf.as_str()) {
                if let Some(open) = self.payable(i, line) {
                    return Outcome::Certain(Proposal {
                        allocations: vec![(i, open.min(amount))],
                        reason: Reason::CreditorReference(rf.as_str().to_string()),
                    });
                }
            }
        }
        // The items named: a number two suppliers' bills share is read as
        // either bill, never as both.
        let groups = self.readings(line);
        let opens: Vec<Vec<i64>> = groups
            .iter()
            .map(|g| {
                g.iter()
                    .map(|i| self.payable(*i, line).unwrap_or(0))
                    .collect()
            })
            .collect();
        // (b) and (c): the amount is exactly what the named items owe;
        // certain when one reading of the numbers makes it.
        let mut exact: Vec<Proposal> = Vec::new();
        for (group, open) in groups.iter().zip(&opens) {
            if open.iter().sum::<i64>() == amount {
                let reason = if group.len() == 1 {
                    Reason::Number
                } else {
                    Reason::Combined
                };
                exact.push(Proposal {
                    allocations: group.iter().copied().zip(open.iter().copied()).collect(),
                    reason,
                });
            } else if let [i] = group.as_slice() {
                // A bill paid less its cash discount, within its period, is paid whole.
                if let Some(d) = self
                    .cash_discount(*i, line)
                    .filter(|d| open[0] - d == amount)
                {
                    exact.push(Proposal {
                        allocations: vec![(*i, amount)],
                        reason: Reason::CashDiscount(d),
                    });
                }
            }
        }
        if exact.len() == 1 {
            return Outcome::Certain(exact.remove(0));
        }
        let mut suggestions: Vec<Proposal> = exact;
        // (d) A known IBAN of exactly one partner.
        if let Some(iban) = &line.iban {
            if let Some([partner]) = self.ibans.get(iban).map(Vec::as_slice) {
                if let Some(p) = self.by_iban(partner, iban, amount, line) {
                    suggestions.push(p);
                }
            }
        }
        // (e) Numbers named, the amount differs.
        for (named, opens) in groups.iter().zip(&opens) {
            let sum: i64 = opens.iter().sum();
            let discounted = matches!(named.as_slice(), [i] if self.cash_discount(*i, line).is_some_and(|d| sum - d == amount));
            if sum == amount || discounted {
                continue;
            }
            if named.len() > 1 {
                for (i, open) in named.iter().zip(opens) {
                    if *open == amount {
                        suggestions.push(Proposal {
                            allocations: vec![(*i, *open)],
                            reason: Reason::OneOfSeveral,
                        });
                    }
                }
            }
            let mut left = amount;
            let mut allocations = Vec::new();
            for (i, open) in named.iter().zip(opens) {
                let take = left.min(*open);
                if take > 0 {
                    allocations.push((*i, take));
                    left -= take;
                }
            }
            let reason = if amount > sum {
                Reason::Overpaid(amount - sum)
            } else if sum - amount <= self.fee_tolerance {
                Reason::FeeReduced(sum - amount)
            } else {
                Reason::Partial(sum - amount)
            };
            suggestions.push(Proposal {
                allocations,
                reason,
            });
        }
        // (f) The name alike and the amount equal.
        if let Some(name) = line.name.as_deref().filter(|n| !n.trim().is_empty()) {
            let words = name_words(name);
            let signed = line.amount;
            for &i in self
                .by_amount
                .get(&signed)
                .map(Vec::as_slice)
                .unwrap_or(&[])
            {
                let item = &self.items[i];
                if self.payable(i, line) == Some(amount)
                    && self
                        .partner_words
                        .get(&item.partner)
                        .is_some_and(|w| alike(w, &words))
                {
                    suggestions.push(Proposal {
                        allocations: vec![(i, amount)],
                        reason: Reason::NameAlike,
                    });
                }
            }
        }
        let mut seen = HashSet::new();
        suggestions.retain(|p| seen.insert(p.allocations.clone()));
        if suggestions.is_empty() {
            Outcome::Unmatched
        } else {
            Outcome::Suggested(suggestions)
        }
    }

    /// Rung (d) for one partner: one open item of the amount (the oldest), or
    /// the first sum of two to four of its oldest items that makes it.
    fn by_iban(
        &self,
        partner: &str,
        iban: &str,
        amount: i64,
        line: &LineFacts,
    ) -> Option<Proposal> {
        let candidates: Vec<(usize, i64)> = self
            .by_partner
            .get(partner)?
            .iter()
            .filter_map(|&i| self.payable(i, line).map(|open| (i, open)))
            .take(SUM_CANDIDATES)
            .collect();
        let reason = Reason::KnownIban(iban.to_string());
        if let Some(&(i, open)) = candidates.iter().find(|(_, open)| *open == amount) {
            return Some(Proposal {
                allocations: vec![(i, open)],
                reason,
            });
        }
        let mut chosen = Vec::new();
        for size in 2..=SUM_ITEMS.min(candidates.len()) {
            if sum_of(&candidates, size, 0, amount, &mut chosen) {
                return Some(Proposal {
                    allocations: chosen,
                    reason,
                });
            }
        }
        None
    }

    /// Lowers the open amounts of a certain match's items by what it
    /// settles (a cash discount taken settles it whole), for the lines
    /// placed after it.
    pub fn lower(&mut self, proposal: &Proposal, line: &LineFacts) {
        let discount = match proposal.reason {
            Reason::CashDiscount(d) => d,
            _ => 0,
        };
        for &(i, amount) in &proposal.allocations {
            let item = &mut self.items[i];
            let before = item.open;
            let settled = amount + discount;
            item.open -= if line.amount > 0 { settled } else { -settled };
            if let Some(list) = self.by_amount.get_mut(&before) {
                list.retain(|j| *j != i);
            }
            self.by_amount.entry(item.open).or_default().push(i);
        }
    }

    /// The cash discount item `i` grants a line of its day: a bill owed
    /// whole whose discount's last day is not before the line's.
    pub fn cash_discount(&self, i: usize, line: &LineFacts) -> Option<i64> {
        let item = &self.items[i];
        let d = item.discount?;
        let open = self.payable(i, line)?;
        (line.day.is_some_and(|day| day <= d.until) && d.amount < open).then_some(d.amount)
    }

    /// The items the line names by number or creditor reference, each
    /// once, whatever it pays.
    pub fn named_items(&self, line: &LineFacts) -> HashSet<usize> {
        let mut found: HashSet<usize> = self.named(line).into_iter().flatten().collect();
        for reference in line
            .creditor_references
            .iter()
            .cloned()
            .chain(written_references(&line.remittance))
        {
            if let Ok(rf) = CreditorReference::parse("reference", &reference) {
                if let Some(&i) = self.by_reference.get(rf.as_str()) {
                    found.insert(i);
                }
            }
        }
        found
    }

    /// Whether the line's payer is the item's partner, as far as the
    /// ladder can tell: its IBAN known for that partner alone, or its name
    /// alike the partner's.
    pub fn payer_is(&self, i: usize, line: &LineFacts) -> bool {
        let partner = &self.items[i].partner;
        let by_iban = line
            .iban
            .as_ref()
            .and_then(|iban| self.ibans.get(iban))
            .is_some_and(|partners| partners.as_slice() == [partner.clone()]);
        by_iban
            || line
                .name
                .as_deref()
                .filter(|n| !n.trim().is_empty())
                .is_some_and(|name| {
                    self.partner_words
                        .get(partner)
                        .is_some_and(|w| alike(w, &name_words(name)))
                })
    }
}

/// Whether `size` of `candidates[from..]` add up to `target`; the chosen
/// ones are left in `chosen`.
fn sum_of(
    candidates: &[(usize, i64)],
    size: usize,
    from: usize,
    target: i64,
    chosen: &mut Vec<(usize, i64)>,
) -> bool {
    if size == 0 {
        return target == 0;
    }
    for k in from..candidates.len() {
        let (i, open) = candidates[k];
        if open > target {
            continue;
        }
        chosen.push((i, open));
        if sum_of(candidates, size - 1, k + 1, target - open, chosen) {
            return true;
        }
        chosen.pop();
    }
    false
}

#[cfg(test)]
mod tests {
    //! The ladder's rungs one by one, on a handful of open items.

    use jiff::civil::date;

    use super::*;

    fn item(number: &str, partner: &str, open: i64) -> Item {
        Item {
            kind: if open > 0 {
                TargetKind::Invoice
            } else {
                TargetKind::Purchase
            },
            id: format!("id-{number}"),
            number: number.into(),
            partner: partner.into(),
            partner_name: match partner {
                "c1" => "Bäckerei Sonnenschein KG".into(),
                "c2" => "Hansen & Söhne OHG".into(),
                "s1" => "Holz Meier GmbH".into(),
                other => format!("Partner {other}"),
            },
            open,
            currency: "EUR".into(),
            reference: CreditorReference::of_number(number).map(|r| r.as_str().to_string()),
            dated: date(2026, 11, 1),
            discount: None,
        }
    }

    fn ladder() -> Ladder {
        Ladder::new(
            vec![
                item("RE2026-00017", "c1", 119_000),
                item("RE2026-00023", "c2", 47_600),
                item("RE2026-00031", "c1", 11_900),
                item("RE2026-00032", "c1", 23_800),
                item("RE2026-00033", "c2", 5_950),
                item("RE2026-00017-2", "c2", 1_000),
                item("LF-58207", "s1", -59_500),
                item("0815", "s1", -10_000),
            ],
            [("DE60430609671122334455".to_string(), "c1".to_string())],
            300,
        )
    }

    fn credit(amount: i64, remittance: &str) -> LineFacts {
        LineFacts {
            amount,
            currency: "EUR".into(),
            remittance: remittance.into(),
            ..LineFacts::default()
        }
    }

    fn numbers(l: &Ladder, p: &Proposal) -> Vec<(String, i64)> {
        p.allocations
            .iter()
            .map(|(i, a)| (l.items()[*i].number.clone(), *a))
            .collect()
    }

    fn certain(l: &mut Ladder, line: &LineFacts) -> (Vec<(String, i64)>, Reason) {
        match l.place(line) {
            Outcome::Certain(p) => (numbers(l, &p), p.reason),
            other => panic!("not certain: {other:?}"),
        }
    }

    fn suggested(l: &mut Ladder, line: &LineFacts) -> Vec<(Vec<(String, i64)>, Reason)> {
        match l.place(line) {
            Outcome::Suggested(list) => list
                .iter()
                .map(|p| (numbers(l, p), p.reason.clone()))
                .collect(),
            other => panic!("not suggested: {other:?}"),
        }
    }

    fn n(number: &str, amount: i64) -> Vec<(String, i64)> {
        vec![(number.to_string(), amount)]
    }

    #[test]
    fn numbers_are_cut_into_segments_with_their_glue() {
        let s = segments("RE-2026-00017 Kd-Nr.10023 re2026");
        let shown: Vec<(&str, bool)> = s.iter().map(|(t, g)| (t.as_str(), *g)).collect();
        assert_eq!(
            shown,
            [
                ("RE", false),
                ("2026", false),
                ("00017", false),
                ("KD", false),
                ("NR", false),
                ("10023", false),
                ("RE", false),
                ("2026", true)
            ]
        );
        assert_eq!(
            keys(&segments("RE2026-00017")),
            ("RE|2026|17".into(), "RE202600017".into())
        );
        assert_eq!(unpadded("000"), "0");
    }

    #[test]
    fn a_creditor_reference_is_certain() {
        let mut l = ladder();
        let mut line = credit(47_600, "");
        line.creditor_references = vec!["RF13RE202600023".into()];
        assert_eq!(
            certain(&mut l, &line),
            (
                n("RE2026-00023", 47_600),
                Reason::CreditorReference("RF13RE202600023".into())
            )
        );
        // Now paid: the same reference again finds nothing open.
        assert_eq!(l.place(&line), Outcome::Unmatched);
        // A reference that fails its check digits is no reference.
        let mut wrong = credit(119_000, "");
        wrong.creditor_references = vec!["RF14RE202600017".into()];
        assert_eq!(l.place(&wrong), Outcome::Unmatched);
    }

    #[test]
    fn a_creditor_reference_written_in_the_remittance_counts_too() {
        assert_eq!(
            written_references("Zahlung RF13 RE20 2600 023 danke"),
            ["RF13RE202600023"]
        );
        assert_eq!(written_references("rf13re202600023."), ["RF13RE202600023"]);
        assert!(written_references("RF14RE202600023 RF").is_empty());
        let mut l = ladder();
        assert_eq!(
            certain(&mut l, &credit(47_600, "SVWZ RF13 RE20 2600 023")),
            (
                n("RE2026-00023", 47_600),
                Reason::CreditorReference("RF13RE202600023".into())
            )
        );
    }

    #[test]
    fn a_number_with_spaces_dashes_case_and_zeros_and_the_open_amount_is_certain() {
        for text in [
            "RE-2026-00017 Kd-Nr. 10023",
            "re 2026 00017",
            "Rechnung RE202600017",
            "RE2026-17",
            "RE2026/017.",
        ] {
            let mut l = ladder();
            assert_eq!(
                certain(&mut l, &credit(119_000, text)),
                (n("RE2026-00017", 119_000), Reason::Number),
                "{text}"
            );
        }
        // Inside a longer token it is not named.
        for text in ["XRE2026-00017", "RE2026-000171", "RE2026-00017A"] {
            let mut l = ladder();
            assert_eq!(
                l.place(&credit(119_000, text)),
                Outcome::Unmatched,
                "{text}"
            );
        }
        // A number inside another named number does not count.
        let mut l = ladder();
        assert_eq!(
            certain(&mut l, &credit(1_000, "RE2026-00017-2")),
            (n("RE2026-00017-2", 1_000), Reason::Number)
        );
        // The end-to-end id is read too.
        let mut l = ladder();
        let mut line = credit(11_900, "Wartung November");
        line.end_to_end_id = Some("RE2026-00031".into());
        assert_eq!(
            certain(&mut l, &line),
            (n("RE2026-00031", 11_900), Reason::Number)
        );
    }

    #[test]
    fn several_numbers_and_their_sum_are_certain() {
        let mut l = ladder();
        let (found, reason) = certain(&mut l, &credit(35_700, "RE2026-00031, RE2026-00032"));
        assert_eq!(
            found,
            [
                ("RE2026-00031".to_string(), 11_900),
                ("RE2026-00032".to_string(), 23_800)
            ]
        );
        assert_eq!(reason, Reason::Combined);
    }

    #[test]
    fn a_bill_is_paid_by_a_debit_and_never_by_a_credit() {
        let mut l = ladder();
        assert_eq!(l.place(&credit(59_500, "LF-58207")), Outcome::Unmatched);
        assert_eq!(
            certain(&mut l, &credit(-59_500, "Rechnung LF-58207 vom 03.11.2026")),
            (n("LF-58207", 59_500), Reason::Number)
        );
        assert_eq!(
            certain(&mut l, &credit(-10_000, "Beleg 815")),
            (n("0815", 10_000), Reason::Number)
        );
        // Another currency is never matched.
        let mut usd = credit(-10_000, "LF-58207");
        usd.currency = "USD".into();
        assert_eq!(l.place(&usd), Outcome::Unmatched);
    }

    #[test]
    fn partial_fee_reduced_and_overpaid_are_suggested_with_the_difference() {
        let mut l = ladder();
        let s = suggested(&mut l, &credit(100_000, "RE2026-00017"));
        assert_eq!(s, [(n("RE2026-00017", 100_000), Reason::Partial(19_000))]);
        let s = suggested(&mut l, &credit(118_750, "RE2026-00017"));
        assert_eq!(s, [(n("RE2026-00017", 118_750), Reason::FeeReduced(250))]);
        let s = suggested(&mut l, &credit(120_000, "RE2026-00017"));
        assert_eq!(s, [(n("RE2026-00017", 119_000), Reason::Overpaid(1_000))]);
        // Suggestions do not lower what is open.
        assert_eq!(
            certain(&mut l, &credit(119_000, "RE2026-00017")).1,
            Reason::Number
        );
        let money = |m: i64| format!("{}.{:02} EUR", m / 100, m % 100);
        let items = [l
            .items()
            .iter()
            .find(|i| i.number == "RE2026-00017")
            .unwrap()];
        assert_eq!(
            Reason::Partial(19_000).sentence(&items, &money),
            "The remittance names RE2026-00017; the amount is 190.00 EUR less than open (a partial payment)."
        );
    }

    #[test]
    fn a_known_iban_suggests_one_item_or_a_sum_of_up_to_four() {
        let mut l = ladder();
        let mut line = credit(23_800, "Danke");
        line.iban = Some("DE60430609671122334455".into());
        let iban = Reason::KnownIban("DE60430609671122334455".into());
        assert_eq!(
            suggested(&mut l, &line),
            [(n("RE2026-00032", 23_800), iban.clone())]
        );
        line.amount = 119_000 + 11_900 + 23_800;
        let s = suggested(&mut l, &line);
        assert_eq!(s[0].0.len(), 3);
        assert_eq!(s[0].1, iban);
        line.amount = 5;
        assert_eq!(l.place(&line), Outcome::Unmatched);
    }

    #[test]
    fn a_name_alike_and_the_open_amount_is_suggested_and_a_stranger_is_unmatched() {
        let mut l = ladder();
        let mut line = credit(47_600, "Zahlung");
        line.name = Some("HANSEN UND SOEHNE".into());
        assert_eq!(
            suggested(&mut l, &line),
            [(n("RE2026-00023", 47_600), Reason::NameAlike)]
        );
        line.name = Some("Unbekannt GmbH".into());
        assert_eq!(l.place(&line), Outcome::Unmatched);
        line.name = Some("GmbH".into());
        assert_eq!(l.place(&line), Outcome::Unmatched);
    }

    #[test]
    fn a_bill_paid_less_its_cash_discount_within_the_period_is_certain() {
        let mut bill = item("LF-77", "s1", -100_000);
        bill.discount = Some(CashDiscount {
            until: date(2026, 11, 15),
            amount: 2_000,
        });
        let mut l = Ladder::new(vec![bill.clone()], [], 0);
        let mut line = credit(-98_000, "LF-77");
        line.day = Some(date(2026, 11, 15));
        assert_eq!(
            certain(&mut l, &line),
            (n("LF-77", 98_000), Reason::CashDiscount(2_000))
        );
        // Paid whole by it: nothing of the bill is open for the next line.
        assert_eq!(l.place(&credit(-2_000, "LF-77")), Outcome::Unmatched);
        // A day late, the same amount is a partial payment.
        let mut l = Ladder::new(vec![bill], [], 0);
        line.day = Some(date(2026, 11, 16));
        assert_eq!(
            suggested(&mut l, &line),
            [(n("LF-77", 98_000), Reason::Partial(2_000))]
        );
    }

    #[test]
    fn a_line_pays_at_most_its_amount_and_an_item_at_most_its_open_amount() {
        let mut l = ladder();
        let mut line = credit(50_000, "");
        line.creditor_references = vec!["RF13RE202600023".into()];
        let (found, _) = certain(&mut l, &line);
        assert_eq!(found, n("RE2026-00023", 47_600));
        let mut l = ladder();
        line.amount = 40_000;
        assert_eq!(certain(&mut l, &line).0, n("RE2026-00023", 40_000));
        assert_eq!(
            l.items()
                .iter()
                .find(|i| i.number == "RE2026-00023")
                .unwrap()
                .open,
            7_600
        );
    }
}
