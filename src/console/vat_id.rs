//! `kontor vat-id check`: VAT ids read one per line from stdin, each judged
//! by the state of its own prefix and answered on its own line of stdout,
//! tab-separated: `valid COMPACT`, `invalid COMPACT SENTENCE` or
//! `unchecked COMPACT SENTENCE` (a prefix of no state whose ids are
//! checked). Needs no data file. Exit code 0 when every id is valid.

use std::io::{BufWriter, Read, Write};

use clap::Subcommand;

use crate::error::{Error, Result};
use crate::rules::vat_ids::{self, Judged};

#[derive(Subcommand, Debug)]
pub enum VatIdCommand {
    /// Judge VAT ids read one per line from stdin; one answer line each.
    Check,
}

/// Runs a `vat-id` command.
pub fn run(cmd: &VatIdCommand) -> Result<()> {
    match cmd {
        VatIdCommand::Check => check(&mut std::io::stdin().lock(), &mut std::io::stdout().lock()),
    }
}

/// Judges each line of `input` and writes the answers to `output`.
///
/// Fails when reading or writing fails, and, after answering every line,
/// with a sentence when some id is not valid.
fn check(input: &mut impl Read, output: &mut impl Write) -> Result<()> {
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes).map_err(Error::internal)?;
    let text = String::from_utf8_lossy(&bytes);
    let mut out = BufWriter::new(output);
    let (mut total, mut not_valid) = (0usize, 0usize);
    for line in text.lines() {
        total += 1;
        let answer = match vat_ids::judge(line) {
            Judged::Valid(compact) => format!("valid\t{}", shown(&compact)),
            Judged::Invalid { compact, sentence } => {
                not_valid += 1;
                format!("invalid\t{}\t{}", shown(&compact), shown(&sentence))
            }
            Judged::Unchecked { compact, sentence } => {
                not_valid += 1;
                format!("unchecked\t{}\t{}", shown(&compact), shown(&sentence))
            }
        };
        writeln!(out, "{answer}").map_err(Error::internal)?;
    }
    out.flush().map_err(Error::internal)?;
    if not_valid > 0 {
        return Err(Error::refused(format!(
            "{not_valid} of {total} VAT ids are not valid."
        )));
    }
    Ok(())
}

/// Text with its control characters (a tab in an id) escaped, so each
/// answer stays one line of tab-separated fields.
fn shown(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_debug().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::console::vat_id::check;

    #[test]
    fn each_line_is_answered() {
        let mut output = Vec::new();
        let input = "de 136-695-976\nDE136695975\nUS123\n";
        let refusal = check(&mut input.as_bytes(), &mut output).map_err(|e| e.sentence());
        assert_eq!(refusal, Err("2 of 3 VAT ids are not valid.".to_string()));
        assert_eq!(
            String::from_utf8_lossy(&output),
            "valid\tDE136695976\n\
             invalid\tDE136695975\tThe VAT id DE136695975 fails the German check digit.\n\
             unchecked\tUS123\tThe VAT id US123 does not start with the prefix of a state \
             whose VAT ids kontor checks (the EU's, XI, CH, GB and NO).\n"
        );
        let mut output = Vec::new();
        assert!(check(&mut "CHE-116.281.710 MWST\r\n".as_bytes(), &mut output).is_ok());
        assert_eq!(
            String::from_utf8_lossy(&output),
            "valid\tCHE116281710MWST\n"
        );
    }
}
