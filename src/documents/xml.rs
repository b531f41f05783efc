//! A small element writer over `quick-xml`, which escapes text and
//! attribute values; documents are written indented, UTF-8, with their
//! declaration.

use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use quick_xml::Writer;

pub struct Xml {
    writer: Writer<Vec<u8>>,
    /// The first write error (none are expected writing into memory).
    failed: Option<std::io::Error>,
}

impl Xml {
    pub fn new() -> Xml {
        let mut xml = Xml {
            writer: Writer::new_with_indent(Vec::new(), b' ', 2),
            failed: None,
        };
        xml.event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)));
        xml
    }

    fn event(&mut self, event: Event<'_>) {
        if self.failed.is_none() {
            if let Err(e) = self.writer.write_event(event) {
                self.failed = Some(e);
            }
        }
    }

    /// Opens `name` with `attributes`; close it with `close`.
    pub fn open(&mut self, name: &str, attributes: &[(&str, &str)]) {
        let mut start = BytesStart::new(name);
        for attribute in attributes {
            start.push_attribute(*attribute);
        }
        self.event(Event::Start(start));
    }

    pub fn close(&mut self, name: &str) {
        self.event(Event::End(BytesEnd::new(name)));
    }

    /// `<name attributes…>text</name>`.
    pub fn text_with(&mut self, name: &str, attributes: &[(&str, &str)], text: &str) {
        self.open(name, attributes);
        self.event(Event::Text(BytesText::new(text)));
        self.close(name);
    }

    pub fn text(&mut self, name: &str, text: &str) {
        self.text_with(name, &[], text);
    }

    /// `text` when there is one, nothing otherwise.
    pub fn optional(&mut self, name: &str, text: Option<&str>) {
        if let Some(text) = text {
            self.text(name, text);
        }
    }

    /// `<name/>`.
    pub fn empty(&mut self, name: &str) {
        self.event(Event::Empty(BytesStart::new(name)));
    }

    /// `<!DOCTYPE text>`, after the declaration and before the root.
    pub fn doctype(&mut self, text: &str) {
        self.event(Event::DocType(BytesText::from_escaped(text)));
    }

    /// `<name>escaped</name>` with `escaped` written as it is: for character
    /// references a reader must see as such (`&#13;&#10;`).
    pub fn escaped(&mut self, name: &str, escaped: &str) {
        self.open(name, &[]);
        self.event(Event::Text(BytesText::from_escaped(escaped)));
        self.close(name);
    }

    /// The document's bytes.
    pub fn finish(self) -> std::io::Result<Vec<u8>> {
        match self.failed {
            Some(e) => Err(e),
            None => Ok(self.writer.into_inner()),
        }
    }
}
