//! The data a German company hands to a tax audit on a medium
//! (*Datenträgerüberlassung*, GoBD "Z3"): tables as CSV files and an
//! `index.xml` describing them in the GDPdU description standard (the
//! federal finance ministry's DTD `gdpdu-01-09-2004.dtd`, which the
//! auditors' IDEA software reads). Every CSV is UTF-8, `;`-separated, text
//! in double quotes (a quote doubled), CRLF, its first line the column
//! names (declared to the reader with `<Range><From>2</From></Range>`),
//! numbers with a decimal comma and no grouping, dates `DD.MM.YYYY`.
//! Written from a model the books fill; nothing here reads storage.

use jiff::civil::Date;

use crate::documents::xml::Xml;
use crate::rules::money::minor_text;

/// The DTD file the index names, written beside it.
pub const DTD_FILE: &str = "gdpdu-01-09-2004.dtd";

/// The element declarations of the GDPdU description standard, version
/// 01-09-2004, as the finance ministry publishes them.
pub const DTD: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<!-- GDPdU description standard, DTD version 01-09-2004 -->
<!ENTITY % file-format "(ANSI | Macintosh | OEM | UTF16 | UTF7 | UTF8)">
<!ENTITY % data-type "(Numeric | (AlphaNumeric, MaxLength?) | Date)">
<!ELEMENT DataSet (Version, DataSupplier?, Command*, Media+, Command*)>
<!ELEMENT Version (#PCDATA)>
<!ELEMENT DataSupplier (Name, Location, Comment)>
<!ELEMENT Location (#PCDATA)>
<!ELEMENT Comment (#PCDATA)>
<!ELEMENT Command (#PCDATA)>
<!ELEMENT Media (Name, Command*, Table+, Command*)>
<!ELEMENT Table (URL, Name?, Description?, Validity?, %file-format;?, (DecimalSymbol, DigitGroupingSymbol)?, SkipNumBytes?, Range?, Epoch?, (VariableLength | FixedLength))>
<!ELEMENT URL (#PCDATA)>
<!ELEMENT Name (#PCDATA)>
<!ELEMENT Description (#PCDATA)>
<!ELEMENT Validity (Range, Format?)>
<!ELEMENT Range (From, (To | Length)?)>
<!ELEMENT From (#PCDATA)>
<!ELEMENT To (#PCDATA)>
<!ELEMENT Length (#PCDATA)>
<!ELEMENT Format (#PCDATA)>
<!ELEMENT ANSI EMPTY>
<!ELEMENT Macintosh EMPTY>
<!ELEMENT OEM EMPTY>
<!ELEMENT UTF16 EMPTY>
<!ELEMENT UTF7 EMPTY>
<!ELEMENT UTF8 EMPTY>
<!ELEMENT DecimalSymbol (#PCDATA)>
<!ELEMENT DigitGroupingSymbol (#PCDATA)>
<!ELEMENT SkipNumBytes (#PCDATA)>
<!ELEMENT Epoch (#PCDATA)>
<!ELEMENT VariableLength (ColumnDelimiter?, RecordDelimiter?, TextEncapsulator?, ((VariablePrimaryKey+, VariableColumn*) | (VariableColumn+)), ForeignKey*)>
<!ELEMENT ColumnDelimiter (#PCDATA)>
<!ELEMENT RecordDelimiter (#PCDATA)>
<!ELEMENT TextEncapsulator (#PCDATA)>
<!ELEMENT VariablePrimaryKey (Name, Description?, %data-type;, Map*)>
<!ELEMENT VariableColumn (Name, Description?, %data-type;, Map*)>
<!ELEMENT FixedLength ((Length | RecordDelimiter)?, ((FixedPrimaryKey+, FixedColumn*) | (FixedColumn+)), ForeignKey*)>
<!ELEMENT FixedPrimaryKey (Name, Description?, %data-type;, Map*, FixedRange)>
<!ELEMENT FixedColumn (Name, Description?, %data-type;, Map*, FixedRange)>
<!ELEMENT FixedRange (From, (To | Length))>
<!ELEMENT ForeignKey (Name+, References)>
<!ELEMENT References (#PCDATA)>
<!ELEMENT Map (Description?, From, To)>
<!ELEMENT Numeric ((ImpliedAccuracy | Accuracy)?)>
<!ELEMENT ImpliedAccuracy (#PCDATA)>
<!ELEMENT Accuracy (#PCDATA)>
<!ELEMENT AlphaNumeric EMPTY>
<!ELEMENT MaxLength (#PCDATA)>
<!ELEMENT Date (Format?)>
"#;

/// What a column holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnKind {
    Text,
    /// A number with this many decimals.
    Number(u8),
    Date,
}

#[derive(Debug, Clone, Copy)]
pub struct Column {
    pub name: &'static str,
    pub description: &'static str,
    pub kind: ColumnKind,
}

/// One cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Text(String),
    /// An amount in minor units with this many decimals.
    Amount(i64, u8),
    Int(i64),
    Date(Date),
    /// Nothing (a date or number that is not there).
    Empty,
}

/// A table: its file, its columns (the first `keys` of them its primary
/// key) and its rows.
#[derive(Debug, Clone)]
pub struct Table {
    /// The CSV file's name, relative to the index.
    pub file: String,
    pub name: String,
    pub description: String,
    pub columns: Vec<Column>,
    pub keys: usize,
    pub rows: Vec<Vec<Value>>,
}

/// Who supplies the data (*DataSupplier*).
#[derive(Debug, Clone)]
pub struct Supplier {
    pub name: String,
    pub location: String,
    pub comment: String,
}

fn quoted(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\"\""),
            '\r' | '\n' => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The table's CSV file: the column names, then one line per row.
pub fn csv(table: &Table) -> Vec<u8> {
    let mut out = String::with_capacity(64 + table.rows.len() * 96);
    let names: Vec<String> = table
        .columns
        .iter()
        .map(|c| {
            let mut s = String::new();
            quoted(c.name, &mut s);
            s
        })
        .collect();
    out.push_str(&names.join(";"));
    out.push_str("\r\n");
    for row in &table.rows {
        for (i, value) in row.iter().enumerate() {
            if i > 0 {
                out.push(';');
            }
            match value {
                Value::Text(t) => quoted(t, &mut out),
                Value::Amount(minor, decimals) => out.push_str(&minor_text(*minor, *decimals, ',')),
                Value::Int(n) => out.push_str(&n.to_string()),
                Value::Date(d) => out.push_str(&d.strftime("%d.%m.%Y").to_string()),
                Value::Empty => {}
            }
        }
        out.push_str("\r\n");
    }
    out.into_bytes()
}

/// The `index.xml` describing `tables`, valid over `from..=to`.
///
/// Fails only if writing into memory fails.
pub fn index(
    supplier: &Supplier,
    from: Date,
    to: Date,
    tables: &[&Table],
) -> std::io::Result<Vec<u8>> {
    let mut xml = Xml::new();
    xml.doctype(&format!("DataSet SYSTEM \"{DTD_FILE}\""));
    xml.open("DataSet", &[]);
    xml.text("Version", "1.0");
    xml.open("DataSupplier", &[]);
    xml.text("Name", &supplier.name);
    xml.text("Location", &supplier.location);
    xml.text("Comment", &supplier.comment);
    xml.close("DataSupplier");
    xml.open("Media", &[]);
    xml.text("Name", "Datenträger 1");
    for table in tables {
        xml.open("Table", &[]);
        xml.text("URL", &table.file);
        xml.text("Name", &table.name);
        xml.text("Description", &table.description);
        xml.open("Validity", &[]);
        xml.open("Range", &[]);
        xml.text("From", &from.strftime("%d.%m.%Y").to_string());
        xml.text("To", &to.strftime("%d.%m.%Y").to_string());
        xml.close("Range");
        xml.text("Format", "DD.MM.YYYY");
        xml.close("Validity");
        xml.empty("UTF8");
        xml.text("DecimalSymbol", ",");
        xml.text("DigitGroupingSymbol", ".");
        // The first line holds the column names: the data start at line 2.
        xml.open("Range", &[]);
        xml.text("From", "2");
        xml.close("Range");
        xml.open("VariableLength", &[]);
        xml.text("ColumnDelimiter", ";");
        xml.escaped("RecordDelimiter", "&#13;&#10;");
        xml.text("TextEncapsulator", "\"");
        for (i, column) in table.columns.iter().enumerate() {
            let element = if i < table.keys {
                "VariablePrimaryKey"
            } else {
                "VariableColumn"
            };
            xml.open(element, &[]);
            xml.text("Name", column.name);
            xml.text("Description", column.description);
            match column.kind {
                ColumnKind::Text => xml.empty("AlphaNumeric"),
                ColumnKind::Number(decimals) => {
                    xml.open("Numeric", &[]);
                    xml.text("Accuracy", &decimals.to_string());
                    xml.close("Numeric");
                }
                ColumnKind::Date => {
                    xml.open("Date", &[]);
                    xml.text("Format", "DD.MM.YYYY");
                    xml.close("Date");
                }
            }
            xml.close(element);
        }
        xml.close("VariableLength");
        xml.close("Table");
    }
    xml.close("Media");
    xml.close("DataSet");
    xml.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Table {
        Table {
            file: "journal.csv".into(),
            name: "Journal".into(),
            description: "Buchungen".into(),
            columns: vec![
                Column {
                    name: "entry",
                    description: "Beleg",
                    kind: ColumnKind::Text,
                },
                Column {
                    name: "posted_on",
                    description: "Datum",
                    kind: ColumnKind::Date,
                },
                Column {
                    name: "debit",
                    description: "Soll",
                    kind: ColumnKind::Number(2),
                },
            ],
            keys: 1,
            rows: vec![
                vec![
                    Value::Text("inv_\"1\"".into()),
                    Value::Date(Date::constant(2026, 3, 4)),
                    Value::Amount(-123_456, 2),
                ],
                vec![
                    Value::Text("Müller;GmbH".into()),
                    Value::Empty,
                    Value::Amount(5, 2),
                ],
            ],
        }
    }

    #[test]
    fn the_csv_has_the_names_first_then_quoted_text_and_decimal_commas() {
        let text = String::from_utf8(csv(&table())).unwrap();
        assert_eq!(
            text,
            "\"entry\";\"posted_on\";\"debit\"\r\n\"inv_\"\"1\"\"\";04.03.2026;-1234,56\r\n\"Müller;GmbH\";;0,05\r\n"
        );
    }

    #[test]
    fn an_empty_table_is_its_header_row() {
        let mut t = table();
        t.rows.clear();
        assert_eq!(csv(&t), b"\"entry\";\"posted_on\";\"debit\"\r\n");
    }

    #[test]
    fn the_index_declares_each_file_its_columns_and_the_header_row() {
        let t = table();
        let supplier = Supplier {
            name: "Muster GmbH".into(),
            location: "Berlin".into(),
            comment: "kontor".into(),
        };
        let xml = String::from_utf8(
            index(
                &supplier,
                Date::constant(2026, 1, 1),
                Date::constant(2026, 12, 31),
                &[&t],
            )
            .unwrap(),
        )
        .unwrap();
        assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
        assert!(xml.contains("<!DOCTYPE DataSet SYSTEM \"gdpdu-01-09-2004.dtd\">"));
        assert!(xml.contains("<URL>journal.csv</URL>"));
        assert!(
            xml.contains("<Range>\n        <From>2</From>\n      </Range>"),
            "{xml}"
        );
        assert!(xml.contains("<VariablePrimaryKey>\n          <Name>entry</Name>"));
        assert!(xml.contains("<Numeric>\n            <Accuracy>2</Accuracy>"));
        assert!(xml.contains("<RecordDelimiter>&#13;&#10;</RecordDelimiter>"));
        assert!(
            xml.contains("<TextEncapsulator>&quot;</TextEncapsulator>")
                || xml.contains("<TextEncapsulator>\"</TextEncapsulator>")
        );
    }

    #[test]
    fn decimals_of_any_accuracy() {
        assert_eq!(minor_text(1, 3, ','), "0,001");
        assert_eq!(minor_text(-100, 2, ','), "-1,00");
        assert_eq!(minor_text(42, 0, ','), "42");
    }
}
