//! Bank statements written by the tests (and the bank benchmark, which
//! includes this file): a camt.053.001.08 day statement and an MT940 file
//! from a list of entries, each entry one transaction or a batch of several.
//! The MT940 writer wraps `:86:` at 65 characters and its purpose into
//! 27-character subfields, as German banks do.

#![allow(dead_code)]

use std::fmt::Write;

/// One transaction of an entry.
#[derive(Clone, Debug, Default)]
pub struct Transfer {
    /// Signed minor units of EUR: credits positive.
    pub amount: i64,
    pub name: String,
    pub iban: Option<String>,
    pub remittance: String,
    pub end_to_end_id: Option<String>,
    /// A structured creditor reference (`RF…`).
    pub reference: Option<String>,
    pub mandate_id: Option<String>,
    /// A returned direct debit: the reason code (`AC04`).
    pub return_reason: Option<String>,
    /// Charges the bank took within the amount (minor units).
    pub charges: i64,
}

/// One entry: a single transaction, or a batch of several of one direction.
#[derive(Clone, Debug)]
pub struct Entry {
    pub bank_reference: String,
    /// `YYYY-MM-DD`.
    pub booked_on: String,
    pub reversal: bool,
    pub txs: Vec<Transfer>,
}

impl Entry {
    pub fn amount(&self) -> i64 {
        self.txs.iter().map(|t| t.amount).sum()
    }
}

fn decimal(minor: i64, separator: char) -> String {
    let m = minor.abs();
    format!("{}{separator}{:02}", m / 100, m % 100)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A camt.053.001.08 statement of `iban` (EUR), with the balances that
/// follow from `opening` and the entries.
pub fn camt053(
    iban: &str,
    id: &str,
    sequence: u64,
    opening: i64,
    day: &str,
    entries: &[Entry],
) -> String {
    let closing = opening + entries.iter().map(Entry::amount).sum::<i64>();
    let cd = |a: i64| if a < 0 { "DBIT" } else { "CRDT" };
    let mut x = String::with_capacity(600 * entries.len() + 2000);
    x.push_str(r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    x.push_str(
        "\n<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.08\"><BkToCstmrStmt>",
    );
    write!(
        x,
        "<GrpHdr><MsgId>{id}</MsgId><CreDtTm>{day}T22:00:00+01:00</CreDtTm></GrpHdr>"
    )
    .unwrap();
    write!(
        x,
        "<Stmt><Id>{id}</Id><ElctrncSeqNb>{sequence}</ElctrncSeqNb>"
    )
    .unwrap();
    write!(x, "<Acct><Id><IBAN>{iban}</IBAN></Id><Ccy>EUR</Ccy></Acct>").unwrap();
    for (code, amount) in [("PRCD", opening), ("CLBD", closing)] {
        write!(
            x,
            "<Bal><Tp><CdOrPrtry><Cd>{code}</Cd></CdOrPrtry></Tp><Amt Ccy=\"EUR\">{}</Amt><CdtDbtInd>{}</CdtDbtInd><Dt><Dt>{day}</Dt></Dt></Bal>",
            decimal(amount, '.'),
            cd(amount)
        )
        .unwrap();
    }
    for e in entries {
        let amount = e.amount();
        write!(
            x,
            "\n<Ntry><Amt Ccy=\"EUR\">{}</Amt><CdtDbtInd>{}</CdtDbtInd>",
            decimal(amount, '.'),
            cd(amount)
        )
        .unwrap();
        if e.reversal {
            x.push_str("<RvslInd>true</RvslInd>");
        }
        write!(
            x,
            "<Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>{0}</Dt></BookgDt><ValDt><Dt>{0}</Dt></ValDt><AcctSvcrRef>{1}</AcctSvcrRef><NtryDtls>",
            e.booked_on, e.bank_reference
        )
        .unwrap();
        if e.txs.len() > 1 {
            write!(x, "<Btch><NbOfTxs>{}</NbOfTxs></Btch>", e.txs.len()).unwrap();
        }
        for t in &e.txs {
            x.push_str("<TxDtls>");
            if t.end_to_end_id.is_some() || t.mandate_id.is_some() {
                x.push_str("<Refs>");
                if let Some(e2e) = &t.end_to_end_id {
                    write!(x, "<EndToEndId>{}</EndToEndId>", escape(e2e)).unwrap();
                }
                if let Some(m) = &t.mandate_id {
                    write!(x, "<MndtId>{m}</MndtId>").unwrap();
                }
                x.push_str("</Refs>");
            }
            // A single transaction's amount is the entry's; a batch's each its own.
            if e.txs.len() > 1 {
                write!(
                    x,
                    "<Amt Ccy=\"EUR\">{}</Amt><CdtDbtInd>{}</CdtDbtInd>",
                    decimal(t.amount, '.'),
                    cd(t.amount)
                )
                .unwrap();
            }
            if t.charges > 0 {
                write!(
                    x,
                    "<Chrgs><TtlChrgsAndTaxAmt Ccy=\"EUR\">{}</TtlChrgsAndTaxAmt></Chrgs>",
                    decimal(t.charges, '.')
                )
                .unwrap();
            }
            // The counterparty is the debtor of a credit (and of a returned
            // direct debit), the creditor of a debit.
            let role = if t.amount > 0 || e.reversal {
                "Dbtr"
            } else {
                "Cdtr"
            };
            if !t.name.is_empty() {
                write!(
                    x,
                    "<RltdPties><{role}><Pty><Nm>{}</Nm></Pty></{role}>",
                    escape(&t.name)
                )
                .unwrap();
                if let Some(iban) = &t.iban {
                    write!(x, "<{role}Acct><Id><IBAN>{iban}</IBAN></Id></{role}Acct>").unwrap();
                }
                x.push_str("</RltdPties>");
            }
            if !t.remittance.is_empty() || t.reference.is_some() {
                x.push_str("<RmtInf>");
                if !t.remittance.is_empty() {
                    write!(x, "<Ustrd>{}</Ustrd>", escape(&t.remittance)).unwrap();
                }
                if let Some(r) = &t.reference {
                    write!(
                        x,
                        "<Strd><CdtrRefInf><Tp><CdOrPrtry><Cd>SCOR</Cd></CdOrPrtry><Issr>ISO</Issr></Tp><Ref>{r}</Ref></CdtrRefInf></Strd>"
                    )
                    .unwrap();
                }
                x.push_str("</RmtInf>");
            }
            if let Some(reason) = &t.return_reason {
                write!(x, "<RtrInf><Rsn><Cd>{reason}</Cd></Rsn></RtrInf>").unwrap();
            }
            x.push_str("</TxDtls>");
        }
        x.push_str("</NtryDtls></Ntry>");
    }
    x.push_str("\n</Stmt></BkToCstmrStmt></Document>\n");
    x
}

/// `text` cut into pieces of at most `width` characters.
fn pieces(text: &str, width: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars.chunks(width).map(|c| c.iter().collect()).collect()
}

/// An MT940 file of the account `bank_code/number` (EUR): one statement, one
/// `:61:` per transaction (batches are written as their transactions).
pub fn mt940(
    account: &str,
    id: &str,
    number: u32,
    opening: i64,
    day: &str,
    entries: &[Entry],
) -> String {
    let yymmdd = |d: &str| format!("{}{}{}", &d[2..4], &d[5..7], &d[8..10]);
    let mark = |a: i64| if a < 0 { 'D' } else { 'C' };
    let closing = opening + entries.iter().map(Entry::amount).sum::<i64>();
    let mut m = String::new();
    write!(m, ":20:{id}\r\n:25:{account}\r\n:28C:{number:05}/001\r\n").unwrap();
    write!(
        m,
        ":60F:{}{}EUR{}\r\n",
        mark(opening),
        yymmdd(day),
        decimal(opening, ',')
    )
    .unwrap();
    for e in entries {
        for t in &e.txs {
            let date = yymmdd(&e.booked_on);
            let kind = if e.reversal {
                if t.amount < 0 {
                    "RC"
                } else {
                    "RD"
                }
            } else if t.amount < 0 {
                "D"
            } else {
                "C"
            };
            write!(
                m,
                ":61:{date}{}{kind}{}NTRFNONREF//{}\r\n",
                &date[2..],
                decimal(t.amount, ','),
                e.bank_reference
            )
            .unwrap();
            let mut purpose = String::new();
            if let Some(e2e) = &t.end_to_end_id {
                write!(purpose, "EREF+{e2e}").unwrap();
            }
            if let Some(mandate) = &t.mandate_id {
                write!(purpose, "MREF+{mandate}").unwrap();
            }
            let remittance = match &t.reference {
                Some(r) if t.remittance.is_empty() => r.clone(),
                Some(r) => format!("{r} {}", t.remittance),
                None => t.remittance.clone(),
            };
            write!(purpose, "SVWZ+{remittance}").unwrap();
            let gvc = if e.reversal {
                "109"
            } else if t.amount < 0 {
                "116"
            } else {
                "166"
            };
            let booking = if e.reversal {
                "RUECKLASTSCHRIFT"
            } else if t.amount < 0 {
                "SEPA-UEBERWEISUNG"
            } else {
                "GUTSCHRIFT"
            };
            let mut info = format!("{gvc}?00{booking}?100399");
            for (i, piece) in pieces(&purpose, 27).iter().take(10).enumerate() {
                write!(info, "?{}{piece}", 20 + i).unwrap();
            }
            if let Some(iban) = &t.iban {
                write!(info, "?31{iban}").unwrap();
            }
            let name = pieces(&t.name, 27);
            for (i, piece) in name.iter().take(2).enumerate() {
                write!(info, "?{}{piece}", 32 + i).unwrap();
            }
            for (i, line) in pieces(&info, 65).iter().enumerate() {
                if i == 0 {
                    write!(m, ":86:{line}\r\n").unwrap();
                } else {
                    write!(m, "{line}\r\n").unwrap();
                }
            }
        }
    }
    write!(
        m,
        ":62F:{}{}EUR{}\r\n-\r\n",
        mark(closing),
        yymmdd(day),
        decimal(closing, ',')
    )
    .unwrap();
    m
}
