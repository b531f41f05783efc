//! Documents that print whole: the invoice, the correction and the reminder
//! of the demo company, and of a company whose particulars are long (name,
//! street, e-mail address, register entry), read back with poppler's
//! `pdftotext -bbox-layout`. Every particular of the seller and the buyer's address
//! stand whole in the text (never cut with an ellipsis or broken inside a
//! word), and no word crosses the page's margins, overlaps another, or
//! runs from its footer column into the next.
//!
//! With KONTOR_PRINTED=DIR the documents are also written there, to look at.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::lock::Running;
use crate::support::screens::{Browser, Office};
use crate::support::{Client, DataFile};

/// Millimetres in points.
fn mm(v: f32) -> f32 {
    v * 72.0 / 25.4
}

/// A word of a page as `pdftotext -bbox-layout` places it.
#[derive(Debug)]
struct Word {
    x0: f32,
    y0: f32,
    x1: f32,
    y1: f32,
    text: String,
}

/// A page: its size, its words, and the left edge of each line of text.
struct Page {
    width: f32,
    height: f32,
    words: Vec<Word>,
    line_starts: Vec<(f32, f32)>,
}

fn attribute(tag: &str, name: &str) -> f32 {
    let start = tag
        .find(&format!("{name}=\""))
        .unwrap_or_else(|| panic!("{name} in {tag}"))
        + name.len()
        + 2;
    let end = start + tag[start..].find('"').unwrap();
    tag[start..end].parse().unwrap()
}

fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

fn pdftotext(file: &Path, args: &[&str]) -> String {
    let out = Command::new("pdftotext")
        .args(args)
        .arg(file)
        .arg("-")
        .output()
        .unwrap_or_else(|e| {
            panic!("pdftotext cannot run ({e}); install it with tests/smtp/install.sh")
        });
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The pages of the PDF in `file`, by `pdftotext -bbox-layout`.
fn pages(file: &Path) -> Vec<Page> {
    let mut pages: Vec<Page> = Vec::new();
    for line in pdftotext(file, &["-bbox-layout"]).lines() {
        let line = line.trim();
        if line.starts_with("<page ") {
            pages.push(Page {
                width: attribute(line, "width"),
                height: attribute(line, "height"),
                words: Vec::new(),
                line_starts: Vec::new(),
            });
        } else if line.starts_with("<line ") {
            let page = pages.last_mut().unwrap();
            page.line_starts
                .push((attribute(line, "xMin"), attribute(line, "yMin")));
        } else if let Some(rest) = line.strip_prefix("<word ") {
            let (tag, text) = rest.split_once('>').unwrap();
            let text = text.trim_end_matches("</word>");
            pages.last_mut().unwrap().words.push(Word {
                x0: attribute(tag, "xMin"),
                y0: attribute(tag, "yMin"),
                x1: attribute(tag, "xMax"),
                y1: attribute(tag, "yMax"),
                text: unescape(text),
            });
        }
    }
    assert!(!pages.is_empty(), "no page in {}", file.display());
    pages
}

/// Every run of white space as one space.
fn squeezed(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// An IBAN as the page writes it: in groups of four.
fn in_fours(iban: &str) -> String {
    let compact: Vec<char> = iban.chars().filter(|c| !c.is_whitespace()).collect();
    compact
        .chunks(4)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The seller's particulars of `company` as `company show` gives them, each
/// as the document prints it; the bank's (IBAN, BIC) apart, since a
/// correction asks for no payment and so names no bank account.
fn particulars(data: &DataFile, company: &str) -> (Vec<String>, Vec<String>) {
    let shown = data.ok(&["company", "show", company]);
    let p = &shown["particulars"];
    let text = |name: &str| {
        p[name]
            .as_str()
            .unwrap_or_else(|| panic!("{name} in {shown}"))
            .to_string()
    };
    let seller = vec![
        text("legalName"),
        text("street"),
        format!("{} {}", text("postalCode"), text("city")),
        text("vatId"),
        text("taxNumber"),
        text("registration"),
        text("contactName"),
        text("contactPhone"),
        text("contactEmail"),
        p["electronicAddress"]["value"]
            .as_str()
            .unwrap()
            .to_string(),
        text("managingDirectors"),
    ];
    let bank = vec![in_fours(&text("iban")), text("bic")];
    (seller, bank)
}

/// Checks that every string of `whole` stands whole in the document's text
/// and that no word of it crosses the page's margins, another word, or the
/// edge of its footer column.
fn prints_whole(name: &str, pdf: &[u8], whole: &[String]) {
    assert!(pdf.starts_with(b"%PDF"), "{name} is no PDF");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(format!("{name}.pdf"));
    std::fs::write(&file, pdf).unwrap();
    if let Ok(keep) = std::env::var("KONTOR_PRINTED") {
        std::fs::write(Path::new(&keep).join(format!("{name}.pdf")), pdf).unwrap();
    }
    // The words in pdftotext's reading order, as its text gives them but
    // without joining a line that ends in a hyphen to the next.
    let pages = pages(&file);
    let text = pages
        .iter()
        .flat_map(|p| p.words.iter().map(|w| w.text.as_str()))
        .collect::<Vec<_>>()
        .join(" ");
    assert!(!text.contains('…'), "{name}: a text is cut: {text}");
    for particular in whole {
        assert!(
            text.contains(&squeezed(particular)),
            "{name}: {particular:?} is not whole in: {text}"
        );
    }
    for (n, page) in pages.iter().enumerate() {
        let at = format!("{name}, page {}", n + 1);
        within_margins(&at, page);
        no_overlap(&at, page);
        footer_columns(&at, page);
    }
}

/// No word is nearer to the page's edge than 20 mm at the sides and 8 mm
/// at the foot.
fn within_margins(at: &str, page: &Page) {
    for w in &page.words {
        assert!(
            w.x0 >= mm(20.0) - 0.5 && w.x1 <= page.width - mm(20.0) + 0.5,
            "{at}: {w:?} crosses the page's margin"
        );
        assert!(
            w.y0 >= mm(8.0) && w.y1 <= page.height - mm(8.0),
            "{at}: {w:?} crosses the page's margin"
        );
    }
}

/// No two words share a piece of the page.
fn no_overlap(at: &str, page: &Page) {
    for (i, a) in page.words.iter().enumerate() {
        for b in &page.words[i + 1..] {
            let across = a.x1.min(b.x1) - a.x0.max(b.x0);
            let down = a.y1.min(b.y1) - a.y0.max(b.y0);
            assert!(
                across <= 0.3 || down <= 0.3,
                "{at}: {a:?} and {b:?} overlap"
            );
        }
    }
}

/// Below the page number, the footer's columns, in one row or more (rows
/// a blank line apart): each column's left edge is where lines of text of
/// its row start; every word ends at least 2 pt before the next column's
/// left edge in its row (or within the page's margin).
fn footer_columns(at: &str, page: &Page) {
    let number = page
        .words
        .iter()
        .filter(|w| w.text == "Seite" || w.text == "Page")
        .max_by(|a, b| a.y0.total_cmp(&b.y0))
        .unwrap_or_else(|| panic!("{at}: no page number"));
    let top = number.y1;
    let footer: Vec<&Word> = page.words.iter().filter(|w| w.y0 > top).collect();
    assert!(footer.len() > 10, "{at}: the footer holds {footer:?}");
    let lines: Vec<(f32, f32)> = page
        .line_starts
        .iter()
        .copied()
        .filter(|(_, y)| *y > top)
        .collect();
    // The rows: where the lines' tops step by more than one line's lead.
    let mut tops: Vec<f32> = lines.iter().map(|(_, y)| *y).collect();
    tops.sort_by(f32::total_cmp);
    tops.dedup_by(|a, b| (*a - *b).abs() < 0.5);
    let lead = tops
        .windows(2)
        .map(|w| w[1] - w[0])
        .fold(f32::INFINITY, f32::min);
    let mut row_starts = vec![tops[0]];
    for w in tops.windows(2) {
        if w[1] - w[0] > lead * 1.5 {
            row_starts.push(w[1]);
        }
    }
    let row_of = |y: f32| row_starts.iter().rposition(|r| *r <= y + 0.5).unwrap();
    let mut columns = 0;
    for row in 0..row_starts.len() {
        let mut edges: Vec<f32> = lines
            .iter()
            .filter(|(_, y)| row_of(*y) == row)
            .map(|(x, _)| *x)
            .collect();
        edges.sort_by(f32::total_cmp);
        edges.dedup_by(|a, b| (*a - *b).abs() < 0.5);
        columns += edges.len();
        for w in footer.iter().filter(|w| row_of(w.y0) == row) {
            let column = edges
                .iter()
                .rposition(|e| *e <= w.x0 + 0.5)
                .unwrap_or_else(|| panic!("{at}: {w:?} left of every column"));
            let end = edges
                .get(column + 1)
                .map_or(page.width - mm(20.0) + 0.5, |next| next - 2.0);
            assert!(
                w.x1 <= end,
                "{at}: {w:?} runs from its column (at {}) into the next (at {end})",
                edges[column]
            );
        }
    }
    assert!(columns >= 3, "{at}: {columns} footer columns");
}

/// A stored document of an invoice, written by `invoice document`.
fn document(data: &DataFile, company: &str, number: &str) -> Vec<u8> {
    let file = data.path.with_file_name(format!("{number}.pdf"));
    data.ok(&[
        "invoice",
        "document",
        "--company",
        company,
        number,
        "--format",
        "facturx",
        "--out",
        file.to_str().unwrap(),
    ]);
    std::fs::read(file).unwrap()
}

/// Mail settings for a relay on loopback, so reminders can be recorded
/// (the mail itself is never delivered here).
fn mail(data: &DataFile, company: &str) {
    data.ok(&[
        "company",
        "mail",
        "--company",
        company,
        "--host",
        "127.0.0.1",
        "--mail-allow",
        "127.0.0.1",
        "--port",
        "9",
        "--security",
        "none",
        "--from",
        "rechnung@example.com",
    ]);
}

/// The reminders `dunning send` records on `on` (today when `None`): their ids.
fn remind(data: &DataFile, company: &str, on: Option<&str>) -> Vec<(String, String)> {
    let mut args = vec!["dunning", "send", "--company", company];
    if let Some(on) = on {
        args.extend(["--on", on]);
    }
    let sent = data.ok(&args);
    sent["sent"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["id"].as_str().unwrap().to_string(),
                s["number"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn letter(browser: &mut Browser, id: &str) -> Vec<u8> {
    let page = browser.get(&format!("/reminders/{id}/document"));
    assert_eq!(page.status, 200, "{}", page.body);
    page.raw
}

#[test]
fn the_demos_invoice_correction_and_reminder_print_every_particular_whole() {
    let data = DataFile::new();
    let mut demo = Running::start(&["demo", "--listen", "127.0.0.1:0"], Some(&data.path), None);
    let company_line = demo.stdout_line("kontor demo:");
    let company = company_line
        .split(['(', ','])
        .nth(1)
        .expect("company id")
        .to_string();
    let live = demo.stdout_line("live key");
    let live = live.split_whitespace().last().unwrap().to_string();
    let owner = demo.stdout_line("inhaberin@");
    let password = owner.split_whitespace().last().unwrap().to_string();
    let rest = demo.stdout_line("REST API: http://");
    let addr = rest
        .trim()
        .trim_start_matches("REST API: http://")
        .trim_end_matches("/v1")
        .parse()
        .unwrap();
    let api = Client { addr };
    let (seller, bank) = particulars(&data, &company);
    let buyer = |name: &str| -> Vec<String> {
        let found = api.get(
            &live,
            &format!("/v1/customers?search={}", name.replace(' ', "+")),
        );
        let c: &Value = &found.body["data"][0];
        vec![
            c["name"].as_str().unwrap().to_string(),
            c["street"].as_str().unwrap().to_string(),
            format!(
                "{} {}",
                c["postalCode"].as_str().unwrap(),
                c["city"].as_str().unwrap()
            ),
        ]
    };

    // The first invoice, to Müller Bau, and the correction of Café Rosa's.
    let invoices = api.get(&live, "/v1/invoices?size=100").body;
    let of = |credit: bool| -> (String, String) {
        let i = invoices["data"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| i["creditNote"] == credit && i["paymentState"] != "CANCELLED")
            .min_by_key(|i| i["number"].as_str().unwrap().to_string())
            .unwrap();
        (
            i["number"].as_str().unwrap().to_string(),
            i["customer"].as_str().unwrap_or_default().to_string(),
        )
    };
    let (invoice, _) = of(false);
    let (correction, _) = of(true);
    let all = |bank_too: bool, buyer: Vec<String>| -> Vec<String> {
        let mut all = seller.clone();
        if bank_too {
            all.extend(bank.clone());
        }
        all.extend(buyer);
        all
    };
    prints_whole(
        "demo-invoice",
        &document(&data, &company, &invoice),
        &all(true, buyer("Müller Bau")),
    );
    prints_whole(
        "demo-correction",
        &document(&data, &company, &correction),
        &all(false, buyer("Café Rosa")),
    );

    // The reminder of the overdue invoice, read as the owner reads it.
    mail(&data, &company);
    let sent = remind(&data, &company, None);
    let (id, number) = sent
        .iter()
        .find(|(_, n)| *n == invoice)
        .unwrap_or_else(|| panic!("{invoice} is reminded: {sent:?}"));
    assert_eq!(number, &invoice);
    let mut browser = Browser::at(addr);
    browser
        .login("inhaberin@nordlicht.example", &password)
        .redirects_to("/dashboard");
    prints_whole(
        "demo-reminder",
        &letter(&mut browser, id),
        &all(true, buyer("Müller Bau")),
    );
}

/// Particulars longer than any column or line: they wrap between words or
/// shrink, and none is cut.
const LONG: &[&str] = &[
    "--legal-name",
    "Nordlicht Werkstatt für Dach-, Fassaden- und Holzbau Hamburg-Altona GmbH & Co. KG",
    "--street",
    "Große Elbstraße am Altonaer Fischmarkt 275a, Aufgang B, Hinterhaus",
    "--postal-code",
    "22767",
    "--city",
    "Hamburg-Altona-Altstadt",
    "--registration",
    "HRA 123456, Amtsgericht Hamburg; persönlich haftende Gesellschafterin: Nordlicht Verwaltungsgesellschaft mbH, HRB 654321",
    "--contact-name",
    "Dr. Johanna Friederike von Petersen-Brandenburg",
    "--contact-phone",
    "+49 40 3861 2240 117",
    "--contact-email",
    "rechnungseingang.forderungen@nordlicht-werkstatt-altona.de",
    "--electronic-address",
    "EM:elektronische-rechnungen@nordlicht-werkstatt-altona.de",
    "--iban",
    "DE89 3704 0044 0532 0130 00",
    "--bic",
    "COBADEFFXXX",
    "--account-holder",
    "Nordlicht Werkstatt Dach-, Fassaden- und Holzbau GmbH & Co. KG",
    "--managing-directors",
    "Dr. Johanna Friederike von Petersen-Brandenburg, Ole-Christian Brandt-Sørensen, Maximiliane Oberhauser-Wittgenstein",
];

#[test]
fn long_particulars_wrap_between_words_or_shrink_and_none_is_cut() {
    let office = Office::new();
    let data = &office.data;
    let company = office.a.as_str();
    let mut args = vec!["company", "set", company];
    args.extend_from_slice(LONG);
    data.ok(&args);
    let (seller, bank) = particulars(data, company);
    // A buyer abroad with a long name and street.
    let api = office.api();
    let name =
        "Alpenländische Holzbau- und Zimmereigenossenschaft Tirol-Vorarlberg reg. Gen. m. b. H.";
    let customer = api.customer(&office.key_a, name);
    let id = customer["id"].as_str().unwrap();
    let (street, postal, city) = (
        "Innsbrucker Bundesstraße 127, Gewerbepark Süd, Halle 4",
        "6020",
        "Innsbruck-Amras",
    );
    data.ok(&[
        "customer",
        "set",
        id,
        "--street",
        street,
        "--postal-code",
        postal,
        "--city",
        city,
        "--country",
        "AT",
        "--invoice-email",
        "buchhaltung@alpenlaendische-holzbau-zimmerei.at",
    ]);
    let buyer = vec![
        name.to_string(),
        street.to_string(),
        format!("{postal} {city}"),
    ];
    let issue = |on: &str| {
        let draft = api.draft(&office.key_a, &customer);
        data.line(&draft, 250_000, "19", false);
        data.ok(&["draft", "issue", &draft, "--on", on])["number"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let reminded = issue("2026-03-02");
    let cancelled = issue("2026-03-03");
    let correction = data.ok(&[
        "invoice",
        "cancel",
        "--company",
        company,
        &cancelled,
        "--reason",
        "Doppelt gestellt",
        "--on",
        "2026-03-04",
    ]);
    let correction = correction["correction"]["number"]
        .as_str()
        .unwrap()
        .to_string();
    let mut all = seller.clone();
    all.extend(bank.clone());
    all.extend(buyer.clone());
    prints_whole("long-invoice", &document(data, company, &reminded), &all);
    let mut without_bank = seller.clone();
    without_bank.extend(buyer.clone());
    prints_whole(
        "long-correction",
        &document(data, company, &correction),
        &without_bank,
    );
    mail(data, company);
    let sent = remind(data, company, Some("2026-04-10"));
    assert_eq!(sent.len(), 1, "{sent:?}");
    let mut browser = office.signed_in("owner@alpha.de");
    prints_whole("long-reminder", &letter(&mut browser, &sent[0].0), &all);
}
