//! The screens for the tax adviser: the DATEV settings and account numbers
//! (Settings → DATEV), the DATEV export's download (Books → Export), and
//! the VAT return's figures (Books → VAT return), each final or
//! preliminary as the books stand, each act in the audit, the owner's
//! settings refused to the accountant.

use std::io::Read;

use crate::support::extf;
use crate::support::screens::{invoice, people_audit, Office};

#[test]
fn the_owner_sets_datev_an_accountant_downloads_the_export_and_the_vat_return_says_preliminary_then_final(
) {
    let office = Office::new();
    let number = invoice(&office, &office.a, "Kunde Müller KG", 10_000, "2026-10-05");
    let mut owner = office.signed_in("owner@alpha.de");
    let mut accountant = office.signed_in("accountant@alpha.de");

    // Without the adviser's numbers the export is refused beside the form.
    let refused = accountant.act(
        "/books/export",
        "/books/export/datev",
        &[("from", "2026-10-01"), ("to", "2026-10-31")],
    );
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(
        refused.body.contains("DATEV adviser number")
            && refused.body.contains("DATEV client number"),
        "{}",
        refused.body
    );

    // The accountant may not change the settings; the owner does.
    let page = accountant.get("/settings/datev");
    assert_eq!(page.status, 200);
    assert!(!page.body.contains("action=\"/settings/datev\""));
    let page = owner.get("/settings/datev");
    assert!(
        page.body.contains("action=\"/settings/datev\""),
        "{}",
        page.body
    );
    let bad = owner.act(
        "/settings/datev",
        "/settings/datev",
        &[
            ("chart", "skr04"),
            ("datevAdviser", "12"),
            ("datevClient", "7"),
            ("fiscalYearStart", "02-30"),
        ],
    );
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert!(
        bad.body.contains("value=\"12\"") && bad.body.contains("field-fiscalYearStart-error"),
        "{}",
        bad.body
    );
    owner
        .act(
            "/settings/datev",
            "/settings/datev",
            &[
                ("chart", "skr04"),
                ("datevAdviser", "29098"),
                ("datevClient", "55003"),
                ("fiscalYearStart", "01-01"),
            ],
        )
        .redirects_to("/settings/datev?saved=settings");
    // A number given before the first export, by the partner's number.
    let customer_number: String = office
        .db()
        .query_row(
            "SELECT number FROM customers WHERE company_id = ?1 AND name = 'Kunde Müller KG'",
            [&office.a],
            |r| r.get(0),
        )
        .unwrap();
    owner
        .act(
            "/settings/datev",
            "/settings/datev/number",
            &[
                ("partner", &customer_number),
                ("side", "customer"),
                ("number", "20000"),
            ],
        )
        .redirects_to("/settings/datev?saved=number");
    let unknown = owner.act(
        "/settings/datev",
        "/settings/datev/number",
        &[
            ("partner", "K99999"),
            ("side", "customer"),
            ("number", "20001"),
        ],
    );
    assert_eq!(unknown.status, 400);
    assert!(
        unknown.body.contains("field-partner-error"),
        "{}",
        unknown.body
    );

    // The export downloads as a ZIP, preliminary while the books are open.
    let page = accountant.get("/books/export");
    assert!(
        page.body.contains("vorläufig") || page.body.contains("preliminary"),
        "{}",
        page.body
    );
    let zip = accountant.act(
        "/books/export",
        "/books/export/datev",
        &[
            ("from", "2026-10-01"),
            ("to", "2026-10-31"),
            ("documents", "yes"),
        ],
    );
    assert_eq!(zip.status, 200, "{}", zip.body);
    assert_eq!(zip.header("content-type"), Some("application/zip"));
    assert!(zip
        .header("content-disposition")
        .unwrap()
        .contains("DATEV_55003_20261001_20261031_vorlaeufig.zip"));
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(zip.raw.clone())).unwrap();
    let names: Vec<String> = archive
        .file_names()
        .map(|n| n.unwrap().to_string())
        .collect();
    assert!(
        names
            .iter()
            .any(|n| n == &format!("Belege/{}.pdf", number.replace('/', "-"))),
        "{names:?}"
    );
    let stapel = names
        .iter()
        .find(|n| n.starts_with("EXTF_Buchungsstapel_"))
        .unwrap()
        .clone();
    let mut bytes = Vec::new();
    archive
        .by_name(&stapel)
        .unwrap()
        .read_to_end(&mut bytes)
        .unwrap();
    let read = extf::read(&bytes, &extf::booking_headings());
    assert_eq!(
        (read.header[20].as_str(), read.header[26].as_str()),
        ("0", "04")
    );
    let b = extf::bookings(&read);
    assert_eq!(
        b.iter()
            .map(|b| (b.account, b.contra, b.amount))
            .collect::<Vec<_>>(),
        vec![(20000, 4400, 11_900)]
    );
    // The export is listed; the numbers are kept from now on.
    let page = accountant.get("/books/export");
    assert!(
        page.body.contains("DATEV") && page.body.contains("preliminary"),
        "{}",
        page.body
    );
    let page = owner.get("/settings/datev");
    assert!(
        page.body.contains("The numbers are kept") && !page.body.contains("/settings/datev/number"),
        "{}",
        page.body
    );

    // The VAT return: preliminary, then final once the books are closed.
    let vat = accountant.get("/books/vat?period=2026-10");
    assert_eq!(vat.status, 200);
    assert!(
        vat.body.contains("Preliminary") && vat.body.contains("Taxable supplies at 19 %"),
        "{}",
        vat.body
    );
    assert!(
        vat.body.contains(">100<"),
        "Kz 81 in whole euros: {}",
        vat.body
    );
    assert!(vat.body.contains(">19.00<"), "Kz 83: {}", vat.body);
    let bad = accountant.get("/books/vat?period=2026-13");
    assert_eq!(bad.status, 400);
    office.data.ok(&[
        "books",
        "close",
        "--company",
        &office.a,
        "--through",
        "2026-10-31",
    ]);
    let vat = accountant.get("/books/vat?period=2026-10");
    assert!(vat.body.contains("Final"), "{}", vat.body);
    // The quarter is not closed through its end: still preliminary.
    let vat = accountant.get("/books/vat?period=2026-Q4");
    assert!(vat.body.contains("Preliminary"), "{}", vat.body);
    let zip = accountant.act(
        "/books/export",
        "/books/export/datev",
        &[("from", "2026-10-01"), ("to", "2026-10-31")],
    );
    assert!(zip
        .header("content-disposition")
        .unwrap()
        .contains("DATEV_55003_20261001_20261031.zip"));
    // The closed month's ZIP is final in its header and in the list.
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(zip.raw.clone())).unwrap();
    let mut bytes = Vec::new();
    archive
        .by_name(&stapel)
        .unwrap()
        .read_to_end(&mut bytes)
        .unwrap();
    let read = extf::read(&bytes, &extf::booking_headings());
    assert_eq!(read.header[20], "1", "Festschreibung of a closed month");
    assert!(!read.header[16].contains("vorläufig"), "{:?}", read.header);
    let page = accountant.get("/books/export");
    assert!(
        page.body.contains(">final</strong>") && page.body.contains(">preliminary</strong>"),
        "both exports listed: {}",
        page.body
    );

    // Each act is the person's in the audit.
    let acts: Vec<String> = people_audit(&office, &office.a)
        .into_iter()
        .map(|(_, act)| act)
        .collect();
    for act in [
        "company.datev_changed",
        "account_number.changed",
        "export.datev",
    ] {
        assert!(acts.iter().any(|a| a == act), "{act} in {acts:?}");
    }
    // A viewer sees the figures but cannot export.
    let mut viewer = office.signed_in("viewer@alpha.de");
    assert_eq!(viewer.get("/books/vat").status, 200);
    let page = viewer.get("/books/export");
    assert!(!page.body.contains("action=\"/books/export/datev\""));
}
