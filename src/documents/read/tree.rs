//! A received XML file read into a small tree of elements, hostile until
//! read: UTF-8 only, no document type declaration (so no DTD and no entity
//! of its own, internal or external, is ever expanded), only the five
//! predefined entities and character references, at most `MAX_DEPTH`
//! levels, `MAX_ELEMENTS` elements and `MAX_ATTRIBUTES` attributes on one
//! element. Elements are named by their local names; the root's namespace
//! is kept so the readers can tell the syntaxes apart. Anything else is a
//! `Refusal`: a sentence naming what is wrong.

use quick_xml::events::{BytesStart, Event};
use quick_xml::name::ResolveResult;
use quick_xml::reader::NsReader;
use quick_xml::XmlVersion;

/// How deep elements may nest (CII and UBL invoices need about a dozen).
pub const MAX_DEPTH: usize = 64;
/// How many elements a file may hold (an invoice of a thousand lines has
/// some fifty thousand).
pub const MAX_ELEMENTS: usize = 250_000;
/// How many attributes one element may carry.
pub const MAX_ATTRIBUTES: usize = 32;

/// Why a received file is not read: a sentence for a person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal(pub String);

impl Refusal {
    pub fn new(sentence: impl Into<String>) -> Refusal {
        Refusal(sentence.into())
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// One element: its local name, attributes (local names), its own text
/// and its child elements in order.
#[derive(Debug, Clone, Default)]
pub struct Node {
    pub name: String,
    attributes: Vec<(String, String)>,
    text: String,
    pub children: Vec<Node>,
}

impl Node {
    /// The first child named `name`.
    pub fn child(&self, name: &str) -> Option<&Node> {
        self.children.iter().find(|c| c.name == name)
    }

    /// The first child named any of `names` (a term that two versions of a
    /// syntax name differently).
    pub fn child_of(&self, names: &[&str]) -> Option<&Node> {
        self.children
            .iter()
            .find(|c| names.contains(&c.name.as_str()))
    }

    /// Every child named `name`, in order.
    pub fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Node> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// The first element down `path`, each step the first child so named.
    pub fn at(&self, path: &[&str]) -> Option<&Node> {
        path.iter().try_fold(self, |node, name| node.child(name))
    }

    /// The element's text with white space around it removed; `None` when
    /// that leaves nothing.
    pub fn value(&self) -> Option<&str> {
        Some(self.text.trim()).filter(|t| !t.is_empty())
    }

    /// The text of the first element down `path`.
    pub fn text_at(&self, path: &[&str]) -> Option<&str> {
        self.at(path).and_then(Node::value)
    }

    /// The text down `path` as an owned string.
    pub fn string_at(&self, path: &[&str]) -> Option<String> {
        self.text_at(path).map(str::to_string)
    }

    /// An attribute by its local name, trimmed; `None` when empty.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.trim())
            .filter(|v| !v.is_empty())
    }
}

/// A parsed file: its root element and the root's namespace.
#[derive(Debug)]
pub struct Tree {
    pub root: Node,
    pub namespace: Option<String>,
}

/// Reads `bytes` as an XML document into a tree.
///
/// Fails with a `Refusal` for anything but well-formed UTF-8 XML without a
/// document type declaration, within the bounds above.
pub fn parse(bytes: &[u8]) -> Result<Tree, Refusal> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if bytes.starts_with(b"\xFE\xFF") || bytes.starts_with(b"\xFF\xFE") {
        return Err(Refusal::new(
            "The XML is encoded in UTF-16; e-invoices are UTF-8, and kontor reads no other encoding.",
        ));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        Refusal::new(format!(
            "The file is not UTF-8 text (an invalid byte at position {}), so it is no XML e-invoice.",
            e.valid_up_to()
        ))
    })?;
    let mut reader = NsReader::from_str(text);
    let config = reader.config_mut();
    config.expand_empty_elements = false;
    config.check_end_names = true;
    let mut stack: Vec<Node> = Vec::new();
    let mut root: Option<Node> = None;
    let mut namespace = None;
    let mut elements = 0usize;
    let position = |reader: &NsReader<&[u8]>| line_of(text, reader.buffer_position() as usize);
    loop {
        let (resolved, event) = match reader.read_resolved_event() {
            Ok(pair) => pair,
            Err(e) => {
                return Err(Refusal::new(format!(
                    "The file is not well-formed XML (line {}: {e}).",
                    position(&reader)
                )))
            }
        };
        let ns = match &resolved {
            ResolveResult::Bound(ns) => Some(ns.0.to_string()),
            _ => None,
        };
        match event {
            Event::DocType(_) => {
                return Err(Refusal::new(
                    "The XML declares a document type (<!DOCTYPE …>); an e-invoice never does, and kontor reads no DTD and expands no entity.",
                ))
            }
            Event::Decl(decl) => {
                if let Some(Ok(encoding)) = decl.encoding() {
                    let lower = encoding.to_ascii_lowercase();
                    if lower != "utf-8" && lower != "utf8" {
                        return Err(Refusal::new(format!(
                            "The XML declares the encoding {encoding}; e-invoices are UTF-8, and kontor reads no other encoding."
                        )));
                    }
                }
            }
            Event::Start(_) | Event::Empty(_) if root.is_some() => {
                return Err(Refusal::new(format!(
                    "The XML has a second root element (line {}).",
                    position(&reader)
                )));
            }
            Event::Start(start) => {
                elements += 1;
                if elements > MAX_ELEMENTS || stack.len() >= MAX_DEPTH {
                    return Err(too_big(stack.len(), elements));
                }
                if stack.is_empty() {
                    namespace = ns;
                }
                stack.push(element(&start)?);
            }
            Event::Empty(start) => {
                elements += 1;
                if elements > MAX_ELEMENTS || stack.len() >= MAX_DEPTH {
                    return Err(too_big(stack.len(), elements));
                }
                let node = element(&start)?;
                match stack.last_mut() {
                    Some(parent) => parent.children.push(node),
                    None => {
                        namespace = ns;
                        root = Some(node);
                    }
                }
            }
            Event::End(_) => {
                let Some(node) = stack.pop() else {
                    return Err(Refusal::new("The XML closes an element it never opened."));
                };
                match stack.last_mut() {
                    Some(parent) => parent.children.push(node),
                    None => root = Some(node),
                }
            }
            Event::Text(t) => {
                if let Some(node) = stack.last_mut() {
                    node.text.push_str(&t.xml10_content());
                } else if !t.xml10_content().trim().is_empty() {
                    return Err(Refusal::new("The XML has text outside its root element."));
                }
            }
            Event::CData(t) => {
                if let Some(node) = stack.last_mut() {
                    node.text.push_str(&t.xml10_content());
                }
            }
            Event::GeneralRef(r) => {
                let resolved = match r.resolve_char_ref() {
                    Ok(Some(c)) => c,
                    Ok(None) => match predefined(&r.xml10_content()) {
                        Some(c) => c,
                        None => {
                            return Err(Refusal::new(format!(
                                "The XML uses the entity &{}; which no e-invoice defines; kontor expands only the five of XML itself.",
                                r.xml10_content()
                            )))
                        }
                    },
                    Err(_) => {
                        return Err(Refusal::new(format!(
                            "The XML has an invalid character reference &{}; (line {}).",
                            r.xml10_content(),
                            position(&reader)
                        )))
                    }
                };
                if let Some(node) = stack.last_mut() {
                    node.text.push(resolved);
                }
            }
            Event::Comment(_) | Event::PI(_) => {}
            Event::Eof => break,
        }
    }
    if !stack.is_empty() {
        return Err(Refusal::new(
            "The XML ends before its elements are closed: the file is cut off.",
        ));
    }
    match root {
        Some(root) => Ok(Tree { root, namespace }),
        None => Err(Refusal::new("The file holds no XML element at all.")),
    }
}

fn too_big(depth: usize, elements: usize) -> Refusal {
    if depth >= MAX_DEPTH {
        Refusal::new(format!(
            "The XML nests elements more than {MAX_DEPTH} deep; no e-invoice does, and kontor reads no deeper."
        ))
    } else {
        Refusal::new(format!(
            "The XML holds more than {} elements ({elements} counted so far); kontor reads at most that many.",
            MAX_ELEMENTS
        ))
    }
}

/// An element with its attributes (namespace declarations left out).
fn element(start: &BytesStart<'_>) -> Result<Node, Refusal> {
    let mut node = Node {
        name: start.local_name().as_ref().to_string(),
        ..Node::default()
    };
    for attribute in start.attributes() {
        let attribute = attribute.map_err(|e| {
            Refusal::new(format!(
                "The XML element {} has an unreadable attribute ({e}).",
                node.name
            ))
        })?;
        let key = attribute.key;
        if key.as_namespace_binding().is_some() {
            continue;
        }
        if node.attributes.len() >= MAX_ATTRIBUTES {
            return Err(Refusal::new(format!(
                "The XML element {} carries more than {MAX_ATTRIBUTES} attributes.",
                node.name
            )));
        }
        let value = attribute.normalized_value(XmlVersion::Implicit1_0).map_err(|e| {
            Refusal::new(format!(
                "The XML element {} has an attribute kontor cannot read ({e}); only the entities of XML itself are expanded.",
                node.name
            ))
        })?;
        node.attributes
            .push((key.local_name().as_ref().to_string(), value.into_owned()));
    }
    Ok(node)
}

/// The five entities XML itself defines.
fn predefined(name: &str) -> Option<char> {
    match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        _ => None,
    }
}

/// The line number of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    text.as_bytes()[..end]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

#[cfg(test)]
mod tests {
    use crate::documents::read::tree::*;

    fn refused(xml: &str) -> String {
        parse(xml.as_bytes()).unwrap_err().0
    }

    #[test]
    fn a_document_reads_into_its_tree() {
        let tree = parse(
            "\u{feff}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<r:Root xmlns:r=\"urn:x\" xmlns:a=\"urn:a\"><a:Item a:code=\"7\">A &amp; B &#x263A;<![CDATA[<c>]]></a:Item><a:Empty/><!-- note --></r:Root>"
                .as_bytes(),
        )
        .unwrap();
        assert_eq!(tree.namespace.as_deref(), Some("urn:x"));
        assert_eq!(tree.root.name, "Root");
        let item = tree.root.child("Item").unwrap();
        assert_eq!(item.value(), Some("A & B ☺<c>"));
        assert_eq!(item.attribute("code"), Some("7"));
        assert_eq!(tree.root.all("Empty").count(), 1);
        assert_eq!(tree.root.text_at(&["Empty"]), None);
    }

    #[test]
    fn hostile_and_broken_files_are_refused_with_a_sentence() {
        let bomb = "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\"><!ENTITY lol2 \"&lol;&lol;\">]><lolz>&lol2;</lolz>";
        assert!(refused(bomb).contains("document type"), "{}", refused(bomb));
        let external = "<!DOCTYPE r SYSTEM \"file:///etc/passwd\"><r/>";
        assert!(refused(external).contains("document type"));
        assert!(refused("<r>&xxe;</r>").contains("entity &xxe;"));
        let deep = format!("{}{}", "<a>".repeat(100), "</a>".repeat(100));
        assert!(refused(&deep).contains("64 deep"));
        assert!(refused("<a><b></a>").contains("well-formed"));
        assert!(refused("<a>").contains("cut off"));
        assert!(refused("<a/><b/>").contains("second root"));
        assert!(
            refused("plain text").contains("no XML element")
                || refused("plain text").contains("outside")
        );
        assert!(parse(b"<a>\xff</a>").unwrap_err().0.contains("not UTF-8"));
        assert!(
            refused("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>").contains("ISO-8859-1")
        );
        let wide = format!(
            "<a {}/>",
            (0..40)
                .map(|n| format!("x{n}=\"1\""))
                .collect::<Vec<_>>()
                .join(" ")
        );
        assert!(refused(&wide).contains("attributes"));
        let many = format!("<a>{}</a>", "<b/>".repeat(MAX_ELEMENTS + 1));
        assert!(refused(&many).contains("elements"));
    }
}
