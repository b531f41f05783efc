//! The ISO 20022 cash management messages a bank sends its customer:
//! camt.052 (intraday report), camt.053 (statement) and camt.054 (debit and
//! credit notification), versions .001.02 to .001.13. The message and
//! version are read from the root's namespace; elements are matched by their
//! local names, so a prefix or another version's namespace changes nothing.
//! Where .02 and .08 differ, both are read: `Sts` as text or `Sts/Cd`;
//! `Dbtr/Nm` or `Dbtr/Pty/Nm`; `Dt` or `DtTm` in `BookgDt`/`ValDt`;
//! `TxDtls/Amt` or `TxDtls/AmtDtls/TxAmt/Amt`.
//!
//! The file is read as a stream of events (quick-xml), never as a tree: a
//! DTD is refused (so no entity is ever declared or expanded), an entity
//! reference other than XML's five and character references is refused, and
//! the depth of elements and the length of each text are bounded.

use jiff::civil::Date;
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use crate::documents::statements::model::{
    check, date, minor_rounded, reference, refusal, tidy, Balance, Entry, Line, Message, Party,
    Remark, Statement, MAX_DEPTH, MAX_TEXT,
};
use crate::error::said::FileFault;
use crate::error::Result;
use crate::rules::bank::{AccountId, Iban};
use crate::rules::iso::Currency;

/// The message and version a namespace names (`urn:iso:std:iso:20022:tech:
/// xsd:camt.053.001.08` → statement, `camt.053.001.08`), if it is one read here.
pub fn message_of(namespace: &str) -> Option<(Message, String)> {
    let version = namespace.strip_prefix("urn:iso:std:iso:20022:tech:xsd:")?;
    let (kind, number) = version.split_at_checked(8)?;
    let message = match kind {
        "camt.052" => Message::Report,
        "camt.053" => Message::Statement,
        "camt.054" => Message::Notification,
        _ => return None,
    };
    let n: u8 = number.strip_prefix(".001.")?.parse().ok()?;
    (number.len() == 7 && (2..=13).contains(&n)).then(|| (message, version.to_string()))
}

/// A transaction being read (`TxDtls`).
#[derive(Default)]
struct TxDetails {
    line: Line,
    amount: Option<(i64, Currency)>,
    /// `AmtDtls/TxAmt/Amt`, the .02 place of the amount.
    tx_amount: Option<(i64, Currency)>,
    credit: Option<bool>,
    reversal: Option<bool>,
    debtor: Party,
    creditor: Party,
    debtor_agent: Option<String>,
    creditor_agent: Option<String>,
    unstructured: Vec<String>,
    charges_total: Option<i64>,
    charges_records: i64,
}

/// An entry being read (`Ntry`).
#[derive(Default)]
struct NtryDraft {
    amount: Option<(i64, Currency)>,
    credit: Option<bool>,
    reversal: bool,
    status: Option<String>,
    booked_on: Option<Date>,
    value_on: Option<Date>,
    bank_reference: Option<String>,
    domain: Vec<String>,
    proprietary: Option<String>,
    booking_text: Option<String>,
    batch: bool,
    txs: Vec<TxDetails>,
}

/// A balance being read (`Bal`).
#[derive(Default)]
struct BalDraft {
    code: Option<String>,
    amount: Option<(i64, Currency)>,
    credit: Option<bool>,
    on: Option<Date>,
}

/// A statement being read (`Stmt`, `Rpt`, `Ntfctn`).
#[derive(Default)]
struct StmtDraft {
    id: Option<String>,
    sequence: Option<String>,
    account: Option<AccountId>,
    currency: Option<Currency>,
    opening: Option<Balance>,
    closing: Option<Balance>,
    entries: Vec<Entry>,
    notes: Vec<Remark>,
}

struct Parse<'n> {
    name: &'n str,
    message: Message,
    version: String,
    /// Local names of the open elements, the root first.
    path: Vec<String>,
    /// The text of the innermost element so far.
    text: String,
    /// The `Ccy` attribute of the innermost element.
    ccy: Option<String>,
    statement: Option<StmtDraft>,
    balance: Option<BalDraft>,
    entry: Option<NtryDraft>,
    tx: Option<TxDetails>,
    /// Notes of what was read since the last entry or statement began.
    notes: Vec<Remark>,
    done: Vec<Statement>,
    /// The line of the file being read, for the sentences.
    line: usize,
}

fn ends(path: &[String], tail: &[&str]) -> bool {
    path.len() >= tail.len()
        && path[path.len() - tail.len()..]
            .iter()
            .zip(tail)
            .all(|(a, b)| a == b)
}

fn flag(text: &str) -> Option<bool> {
    match text {
        "true" | "1" => Some(true),
        "false" | "0" => Some(false),
        _ => None,
    }
}

impl Parse<'_> {
    fn refuse(&self, fault: FileFault) -> crate::error::Error {
        refusal(
            self.name,
            FileFault::XmlLine {
                line: self.line,
                fault: Box::new(fault),
            },
        )
    }

    /// The amount of the element just closed; one with more decimals than
    /// its currency is rounded, with a note for the entry (or statement) it
    /// belongs to.
    fn amount(&mut self) -> Result<(i64, Currency)> {
        let code = match (
            &self.ccy,
            self.statement.as_ref().and_then(|s| s.currency.clone()),
        ) {
            (Some(code), _) => code.clone(),
            (None, Some(account)) => account.as_str().to_string(),
            (None, None) => return Err(self.refuse(FileFault::NoCurrency)),
        };
        let currency = Currency::parse("Ccy", &code)
            .map_err(|_| self.refuse(FileFault::NoIsoCurrency { code: code.clone() }))?;
        let (value, note) = minor_rounded(&self.text, &currency).map_err(|e| self.refuse(e))?;
        self.notes.extend(note);
        Ok((value, currency))
    }

    fn date(&self) -> Result<Date> {
        date(&self.text).map_err(|e| self.refuse(e))
    }

    fn credit(&self) -> Result<bool> {
        match self.text.trim() {
            "CRDT" => Ok(true),
            "DBIT" => Ok(false),
            other => Err(self.refuse(FileFault::CreditDebit {
                got: other.to_string(),
            })),
        }
    }

    fn start(&mut self, e: &BytesStart<'_>) -> Result<()> {
        let local = e.local_name().as_ref().to_string();
        self.ccy = None;
        if local == "Amt" || local == "TtlChrgsAndTaxAmt" {
            for a in e.attributes().flatten() {
                if a.key.local_name().as_ref() == "Ccy" {
                    self.ccy = Some(a.value.trim().to_string());
                }
            }
        }
        self.path.push(local);
        if self.path.len() > MAX_DEPTH {
            return Err(self.refuse(FileFault::TooDeep { max: MAX_DEPTH }));
        }
        self.text.clear();
        let p = &self.path;
        let depth = p.len();
        if depth == 3 && matches!(p[2].as_str(), "Stmt" | "Rpt" | "Ntfctn") {
            self.statement = Some(StmtDraft::default());
        } else if self.statement.is_some() && depth == 4 && p[3] == "Bal" {
            self.balance = Some(BalDraft::default());
        } else if self.statement.is_some() && depth == 4 && p[3] == "Ntry" {
            self.entry = Some(NtryDraft::default());
            let balances = std::mem::take(&mut self.notes);
            if let Some(statement) = self.statement.as_mut() {
                statement.notes.extend(balances);
            }
        } else if self.entry.is_some() && ends(p, &["Ntry", "NtryDtls", "TxDtls"]) {
            self.tx = Some(TxDetails::default());
        } else if self.entry.is_some() && ends(p, &["Ntry", "NtryDtls", "Btch"]) {
            if let Some(entry) = self.entry.as_mut() {
                entry.batch = true;
            }
        }
        Ok(())
    }

    fn end(&mut self) -> Result<()> {
        let text = std::mem::take(&mut self.text);
        self.text = text.trim().to_string();
        // The path is lent to the element's handler, not copied.
        let path = std::mem::take(&mut self.path);
        let handled = if self.tx.is_some() {
            self.end_in_tx(&path)
        } else if self.entry.is_some() {
            self.end_in_entry(&path)
        } else if self.balance.is_some() {
            self.end_in_balance(&path)
        } else if self.statement.is_some() {
            self.end_in_statement(&path)
        } else {
            Ok(())
        };
        self.path = path;
        handled?;
        self.text.clear();
        self.path.pop();
        Ok(())
    }

    fn end_in_tx(&mut self, p: &[String]) -> Result<()> {
        let amount = if ends(p, &["TxDtls", "Amt"])
            || ends(p, &["AmtDtls", "TxAmt", "Amt"])
            || ends(p, &["Chrgs", "TtlChrgsAndTaxAmt"])
            || ends(p, &["Chrgs", "Rcrd", "Amt"])
            || ends(p, &["Chrgs", "Amt"])
        {
            Some(self.amount()?)
        } else {
            None
        };
        let credit = if ends(p, &["TxDtls", "CdtDbtInd"]) {
            Some(self.credit()?)
        } else {
            None
        };
        let text = self.text.clone();
        let tx = self.tx.as_mut().expect("inside a transaction");
        let last = p.last().map(String::as_str).unwrap_or("");
        if ends(p, &["TxDtls", "Amt"]) {
            tx.amount = amount;
        } else if ends(p, &["AmtDtls", "TxAmt", "Amt"]) {
            tx.tx_amount = amount;
        } else if ends(p, &["Chrgs", "TtlChrgsAndTaxAmt"]) {
            tx.charges_total = amount.map(|a| a.0);
        } else if ends(p, &["Chrgs", "Rcrd", "Amt"]) || ends(p, &["Chrgs", "Amt"]) {
            tx.charges_records += amount.map_or(0, |a| a.0);
        } else if credit.is_some() {
            tx.credit = credit;
        } else if ends(p, &["TxDtls", "RvslInd"]) {
            tx.reversal = flag(&text);
        } else if ends(p, &["Refs", "EndToEndId"]) {
            tx.line.end_to_end_id = reference(&text);
        } else if ends(p, &["Refs", "MndtId"]) {
            tx.line.mandate_id = reference(&text);
        } else if ends(p, &["Refs", "AcctSvcrRef"]) {
            tx.line.bank_reference = reference(&text);
        } else if ends(p, &["RmtInf", "Ustrd"]) {
            tx.unstructured.push(text);
        } else if ends(p, &["Strd", "CdtrRefInf", "Ref"]) {
            let r = tidy(&text);
            if !r.is_empty() {
                tx.line.creditor_references.push(r);
            }
        } else if ends(p, &["RtrInf", "Rsn", "Cd"]) || ends(p, &["RtrInf", "Rsn", "Prtry"]) {
            tx.line.return_reason = reference(&text);
        } else if p.iter().any(|n| n == "RltdPties") {
            let role = if p.iter().any(|n| n == "Dbtr" || n == "DbtrAcct") {
                Some(&mut tx.debtor)
            } else if p.iter().any(|n| n == "Cdtr" || n == "CdtrAcct") {
                Some(&mut tx.creditor)
            } else {
                None
            };
            if let Some(party) = role {
                let in_party = ends(p, &["Dbtr", "Nm"])
                    || ends(p, &["Dbtr", "Pty", "Nm"])
                    || ends(p, &["Cdtr", "Nm"])
                    || ends(p, &["Cdtr", "Pty", "Nm"]);
                let in_account = p.iter().any(|n| n == "DbtrAcct" || n == "CdtrAcct");
                if in_party {
                    party.name = Some(tidy(&text)).filter(|n| !n.is_empty());
                } else if in_account && (last == "IBAN" || ends(p, &["Othr", "Id"])) {
                    match Iban::parse("IBAN", &text) {
                        Ok(iban) => party.iban = Some(iban),
                        Err(_) => party.account = Some(tidy(&text)),
                    }
                }
            }
        } else if ends(p, &["DbtrAgt", "FinInstnId", "BICFI"])
            || ends(p, &["DbtrAgt", "FinInstnId", "BIC"])
        {
            tx.debtor_agent = Some(tidy(&text));
        } else if ends(p, &["CdtrAgt", "FinInstnId", "BICFI"])
            || ends(p, &["CdtrAgt", "FinInstnId", "BIC"])
        {
            tx.creditor_agent = Some(tidy(&text));
        }
        if last == "TxDtls" && ends(p, &["NtryDtls", "TxDtls"]) {
            let tx = self.tx.take().expect("inside a transaction");
            if let Some(entry) = self.entry.as_mut() {
                entry.txs.push(tx);
            }
        }
        Ok(())
    }

    fn end_in_entry(&mut self, p: &[String]) -> Result<()> {
        if ends(p, &["Ntry", "Amt"]) {
            let amount = self.amount()?;
            self.entry_mut().amount = Some(amount);
        } else if ends(p, &["Ntry", "CdtDbtInd"]) {
            let credit = self.credit()?;
            self.entry_mut().credit = Some(credit);
        } else if ends(p, &["Ntry", "RvslInd"]) {
            let r = flag(&self.text) == Some(true);
            self.entry_mut().reversal = r;
        } else if ends(p, &["Ntry", "Sts"]) || ends(p, &["Ntry", "Sts", "Cd"]) {
            if !self.text.is_empty() {
                let s = self.text.clone();
                self.entry_mut().status = Some(s);
            }
        } else if ends(p, &["BookgDt", "Dt"]) || ends(p, &["BookgDt", "DtTm"]) {
            let d = self.date()?;
            self.entry_mut().booked_on = Some(d);
        } else if ends(p, &["ValDt", "Dt"]) || ends(p, &["ValDt", "DtTm"]) {
            let d = self.date()?;
            self.entry_mut().value_on = Some(d);
        } else if ends(p, &["Ntry", "AcctSvcrRef"]) {
            let r = reference(&self.text);
            self.entry_mut().bank_reference = r;
        } else if ends(p, &["Ntry", "BkTxCd", "Domn", "Cd"])
            || ends(p, &["Ntry", "BkTxCd", "Domn", "Fmly", "Cd"])
            || ends(p, &["Ntry", "BkTxCd", "Domn", "Fmly", "SubFmlyCd"])
        {
            let t = tidy(&self.text);
            self.entry_mut().domain.push(t);
        } else if ends(p, &["Ntry", "BkTxCd", "Prtry", "Cd"]) {
            let t = tidy(&self.text);
            self.entry_mut().proprietary = Some(t);
        } else if ends(p, &["Ntry", "AddtlNtryInf"]) {
            let t = tidy(&self.text);
            self.entry_mut().booking_text = Some(t).filter(|t| !t.is_empty());
        } else if p.len() == 4 && p[3] == "Ntry" {
            let draft = self.entry.take().expect("inside an entry");
            let entry = self.finish_entry(draft)?;
            if let Some(statement) = self.statement.as_mut() {
                statement.entries.push(entry);
            }
        }
        Ok(())
    }

    fn entry_mut(&mut self) -> &mut NtryDraft {
        self.entry.as_mut().expect("inside an entry")
    }

    fn end_in_balance(&mut self, p: &[String]) -> Result<()> {
        if ends(p, &["Bal", "Tp", "CdOrPrtry", "Cd"]) {
            let code = self.text.clone();
            self.balance.as_mut().expect("in a balance").code = Some(code);
        } else if ends(p, &["Bal", "Amt"]) {
            let amount = self.amount()?;
            self.balance.as_mut().expect("in a balance").amount = Some(amount);
        } else if ends(p, &["Bal", "CdtDbtInd"]) {
            let credit = self.credit()?;
            self.balance.as_mut().expect("in a balance").credit = Some(credit);
        } else if ends(p, &["Bal", "Dt", "Dt"]) || ends(p, &["Bal", "Dt", "DtTm"]) {
            let d = self.date()?;
            self.balance.as_mut().expect("in a balance").on = Some(d);
        } else if p.len() == 4 && p[3] == "Bal" {
            let draft = self.balance.take().expect("in a balance");
            let (Some((amount, currency)), Some(credit)) = (draft.amount, draft.credit) else {
                return Err(self.refuse(FileFault::BalanceIncomplete));
            };
            let balance = Balance {
                amount: if credit { amount } else { -amount },
                currency,
                on: draft.on,
            };
            let statement = self.statement.as_mut().expect("in a statement");
            match draft.code.as_deref() {
                Some("OPBD") => statement.opening = Some(balance),
                Some("PRCD") if statement.opening.is_none() => statement.opening = Some(balance),
                Some("CLBD") => statement.closing = Some(balance),
                _ => {}
            }
        }
        Ok(())
    }

    fn end_in_statement(&mut self, p: &[String]) -> Result<()> {
        let at = |tail: &[&str]| p.len() == 3 + tail.len() && ends(p, tail);
        if at(&["Id"]) {
            let t = tidy(&self.text);
            self.statement.as_mut().expect("in a statement").id = Some(t);
        } else if at(&["ElctrncSeqNb"]) {
            let t = tidy(&self.text);
            self.statement.as_mut().expect("in a statement").sequence =
                Some(t).filter(|t| !t.is_empty());
        } else if at(&["Acct", "Id", "IBAN"]) || at(&["Acct", "Id", "Othr", "Id"]) {
            let account = AccountId::read(&self.text);
            self.statement.as_mut().expect("in a statement").account = Some(account);
        } else if at(&["Acct", "Ccy"]) {
            let currency = Currency::parse("Ccy", &self.text).map_err(|_| {
                self.refuse(FileFault::AccountCurrency {
                    code: self.text.clone(),
                })
            })?;
            self.statement.as_mut().expect("in a statement").currency = Some(currency);
        } else if p.len() == 3 {
            let draft = self.statement.take().expect("in a statement");
            let Some(account) = draft.account else {
                return Err(self.refuse(FileFault::NoAccount));
            };
            let Some(id) = draft.id.filter(|id| !id.is_empty()) else {
                return Err(self.refuse(FileFault::NoStatementId));
            };
            let mut notes = draft.notes;
            notes.append(&mut self.notes);
            self.done.push(Statement {
                notes,
                message: self.message,
                version: self.version.clone(),
                account,
                currency: draft.currency,
                id,
                sequence: draft.sequence,
                opening: draft.opening,
                closing: draft.closing,
                entries: draft.entries,
            });
        }
        Ok(())
    }

    /// The entry with its lines: one per transaction, the amounts adding up
    /// to the entry's (see `split`).
    fn finish_entry(&mut self, draft: NtryDraft) -> Result<Entry> {
        let Some((amount, currency)) = draft.amount.clone() else {
            return Err(self.refuse(FileFault::EntryNoAmount));
        };
        let Some(credit) = draft.credit else {
            return Err(self.refuse(FileFault::EntryNoSign));
        };
        let signed = if credit { amount } else { -amount };
        let booked = self.message != Message::Report && draft.status.as_deref() == Some("BOOK");
        let transaction_code = match (&draft.proprietary, draft.domain.is_empty()) {
            (_, false) => Some(draft.domain.join("/")),
            (Some(p), true) => Some(p.clone()),
            (None, true) => None,
        };
        let several = draft.txs.len() > 1;
        let lines = split(
            draft.txs,
            signed,
            &currency,
            credit,
            draft.reversal,
            several,
        );
        Ok(Entry {
            amount: signed,
            currency,
            booked,
            booked_on: draft.booked_on,
            value_on: draft.value_on,
            bank_reference: draft.bank_reference,
            reversal: draft.reversal,
            booking_text: draft.booking_text,
            transaction_code,
            batch: draft.batch || several,
            lines,
            notes: std::mem::take(&mut self.notes),
        })
    }
}

/// The lines of an entry. One transaction (or none) is one line of the
/// entry's amount, whatever amount the transaction names (banks write 0 or
/// another currency there). Several take their own amounts in the entry's
/// currency (`TxDtls/Amt`, else `AmtDtls/TxAmt/Amt`); what the entry's
/// amount leaves goes to the first transaction without one (the others
/// without one are 0: the bank did not say how it splits), or, when every
/// transaction has one and they do not add up, to a line of its own, so
/// the lines always add up to the entry.
fn split(
    txs: Vec<TxDetails>,
    signed: i64,
    currency: &Currency,
    credit: bool,
    reversal: bool,
    several: bool,
) -> Vec<Line> {
    if txs.is_empty() {
        return vec![Line {
            amount: signed,
            ..Line::default()
        }];
    }
    let mut lines = Vec::with_capacity(txs.len());
    let mut missing = Vec::new();
    let mut sum = 0i64;
    for tx in txs {
        let own = tx
            .amount
            .clone()
            .filter(|(_, c)| c == currency)
            .or_else(|| tx.tx_amount.clone().filter(|(_, c)| c == currency))
            .map(|(a, _)| if tx.credit.unwrap_or(credit) { a } else { -a });
        let line_credit = tx.credit.unwrap_or(credit);
        // The counterparty is the debtor of a credit and the creditor of a
        // debit; a reversal keeps the original transaction's parties.
        let original_credit = line_credit != tx.reversal.unwrap_or(reversal);
        let mut party = if original_credit {
            tx.debtor
        } else {
            tx.creditor
        };
        party.bic = if original_credit {
            tx.debtor_agent
        } else {
            tx.creditor_agent
        };
        let mut line = tx.line;
        line.counterparty = party;
        let mut remittance: Vec<String> = tx.unstructured;
        remittance.extend(line.creditor_references.iter().cloned());
        line.remittance = tidy(&remittance.join(" "));
        line.charges = tx.charges_total.unwrap_or(tx.charges_records);
        match own {
            Some(a) if several => {
                sum += a;
                line.amount = a;
            }
            _ => missing.push(lines.len()),
        }
        lines.push(line);
    }
    let rest = signed - sum;
    if let Some(first) = missing.first() {
        lines[*first].amount = rest;
    } else if rest != 0 {
        lines.push(Line {
            amount: rest,
            ..Line::default()
        });
    }
    lines
}

/// Reads a camt.052, .053 or .054 message.
///
/// Fails with a sentence naming `name` when the bytes are no UTF-8, hold a
/// DTD or an entity, are no well-formed XML, end early, nest too deep, are no
/// camt.052/053/054 message of a version read here, or a statement, balance
/// or entry lacks what it must have.
pub fn read(name: &str, bytes: &[u8]) -> Result<Vec<Statement>> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        refusal(
            name,
            FileFault::NotUtf8 {
                at: e.valid_up_to(),
            },
        )
    })?;
    let mut reader = Reader::from_str(text);
    reader.config_mut().check_end_names = true;
    let mut parse = Parse {
        name,
        message: Message::Statement,
        version: String::new(),
        path: Vec::new(),
        text: String::new(),
        ccy: None,
        statement: None,
        balance: None,
        entry: None,
        tx: None,
        notes: Vec::new(),
        done: Vec::new(),
        line: 1,
    };
    let mut consumed = 0usize;
    let mut root_seen = false;
    loop {
        let event = reader.read_event();
        let position = reader.buffer_position() as usize;
        parse.line += text.as_bytes()[consumed.min(text.len())..position.min(text.len())]
            .iter()
            .filter(|b| **b == b'\n')
            .count();
        consumed = position;
        let event = event.map_err(|e| {
            parse.refuse(FileFault::NotXml {
                detail: e.to_string(),
            })
        })?;
        match event {
            Event::DocType(_) => {
                return Err(parse.refuse(FileFault::Dtd));
            }
            Event::Start(e) => {
                if !root_seen {
                    root_seen = true;
                    parse.root(&e)?;
                }
                parse.start(&e)?;
            }
            Event::Empty(e) => {
                if !root_seen {
                    root_seen = true;
                    parse.root(&e)?;
                }
                parse.start(&e)?;
                parse.end()?;
            }
            Event::End(_) => parse.end()?,
            Event::Text(t) => parse.push_text(&t.xml10_content())?,
            Event::CData(t) => parse.push_text(&t.into_inner())?,
            Event::GeneralRef(r) => {
                let resolved = match r.resolve_char_ref() {
                    Ok(Some(c)) => c,
                    Ok(None) => match &*r {
                        "lt" => '<',
                        "gt" => '>',
                        "amp" => '&',
                        "apos" => '\'',
                        "quot" => '"',
                        other => {
                            return Err(parse.refuse(FileFault::Entity {
                                name: other.to_string(),
                            }))
                        }
                    },
                    Err(e) => {
                        return Err(parse.refuse(FileFault::CharacterReference {
                            detail: e.to_string(),
                        }))
                    }
                };
                parse.push_text(resolved.encode_utf8(&mut [0; 4]))?;
            }
            Event::Eof => break,
            Event::Decl(_) | Event::PI(_) | Event::Comment(_) => {}
        }
        if root_seen && parse.path.is_empty() {
            break;
        }
    }
    check(root_seen, name, || FileFault::NoElement)?;
    check(parse.path.is_empty(), name, || FileFault::Truncated {
        line: parse.line,
        inside: parse.path.join("/"),
    })?;
    Ok(parse.done)
}

impl Parse<'_> {
    /// Reads the message and version from the root's namespace.
    fn root(&mut self, e: &BytesStart<'_>) -> Result<()> {
        let local = e.local_name().as_ref().to_string();
        let wanted = match e.name().prefix() {
            Some(p) => format!("xmlns:{}", p.as_ref()),
            None => "xmlns".to_string(),
        };
        let namespace = e
            .attributes()
            .flatten()
            .find(|a| a.key.as_ref() == wanted)
            .map(|a| a.value.to_string())
            .unwrap_or_default();
        let Some((message, version)) = message_of(&namespace).filter(|_| local == "Document")
        else {
            return Err(refusal(
                self.name,
                FileFault::NotCamt {
                    root: local,
                    namespace,
                },
            ));
        };
        self.message = message;
        self.version = version;
        Ok(())
    }

    fn push_text(&mut self, text: &str) -> Result<()> {
        if self.path.is_empty() {
            return Ok(());
        }
        if self.text.len() + text.len() > MAX_TEXT {
            return Err(self.refuse(FileFault::TextTooLong { max: MAX_TEXT }));
        }
        self.text.push_str(text);
        Ok(())
    }
}
