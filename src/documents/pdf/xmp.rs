//! The PDF's XMP packet as kontor writes it: krilla's, without the
//! Paged-Text page count, and for a Factur-X with the Factur-X PDF/A
//! extension schema and the fx: properties (Factur-X 1.0, profile
//! EN 16931), which krilla cannot write; lopdf puts the packet into the
//! written PDF.

/// The name the embedded CII carries, as Factur-X requires.
pub const XML_NAME: &str = "factur-x.xml";
/// The namespace of the Factur-X XMP properties (Factur-X 1.0).
const FX_NAMESPACE: &str = "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#";
/// `fx:ConformanceLevel` of an EN 16931 (comfort) Factur-X.
const FX_CONFORMANCE: &str = "EN 16931";

/// The PDF/A extension schema declaring the fx: properties (Factur-X 1.0).
fn fx_schema() -> String {
    let property = |name: &str, description: &str| {
        format!(
            "<rdf:li rdf:parseType=\"Resource\">\
             <pdfaProperty:name>{name}</pdfaProperty:name>\
             <pdfaProperty:valueType>Text</pdfaProperty:valueType>\
             <pdfaProperty:category>external</pdfaProperty:category>\
             <pdfaProperty:description>{description}</pdfaProperty:description>\
             </rdf:li>"
        )
    };
    format!(
        "<rdf:li rdf:parseType=\"Resource\" \
         xmlns:pdfaSchema=\"http://www.aiim.org/pdfa/ns/schema#\" \
         xmlns:pdfaProperty=\"http://www.aiim.org/pdfa/ns/property#\">\
         <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>\
         <pdfaSchema:namespaceURI>{FX_NAMESPACE}</pdfaSchema:namespaceURI>\
         <pdfaSchema:prefix>fx</pdfaSchema:prefix>\
         <pdfaSchema:property><rdf:Seq>{}{}{}{}</rdf:Seq></pdfaSchema:property>\
         </rdf:li>",
        property("DocumentFileName", "The name of the embedded XML document"),
        property(
            "DocumentType",
            "The type of the hybrid document in capital letters, e.g. INVOICE or ORDER"
        ),
        property(
            "Version",
            "The actual version of the standard applying to the embedded XML document"
        ),
        property(
            "ConformanceLevel",
            "The conformance level of the embedded XML document"
        ),
    )
}

/// The fx: properties of this document.
fn fx_description() -> String {
    format!(
        "<rdf:Description rdf:about=\"\" xmlns:fx=\"{FX_NAMESPACE}\">\
         <fx:DocumentType>INVOICE</fx:DocumentType>\
         <fx:DocumentFileName>{XML_NAME}</fx:DocumentFileName>\
         <fx:Version>1.0</fx:Version>\
         <fx:ConformanceLevel>{FX_CONFORMANCE}</fx:ConformanceLevel>\
         </rdf:Description>"
    )
}

/// krilla's XMP packet as kontor writes it: without the Paged-Text page
/// count (optional, and unknown to pikepdf's PDF/A check) and, for a
/// Factur-X, with the Factur-X schema added to its PDF/A extension schemas
/// and the fx: properties beside its own; `None` when the packet does not
/// have the shape krilla writes.
fn xmp_packet(xmp: &str, facturx: bool) -> Option<String> {
    let mut out = xmp.replacen(" xmlns:xmpTPg=\"http://ns.adobe.com/xap/1.0/t/pg/\"", "", 1);
    if let (Some(start), Some(end)) = (out.find("<xmpTPg:NPages>"), out.find("</xmpTPg:NPages>")) {
        if start < end {
            out.replace_range(start..end + "</xmpTPg:NPages>".len(), "");
        }
    }
    if !facturx {
        return Some(out);
    }
    let schemas_end = out.find("</pdfaExtension:schemas>")?;
    let bag_end = out[..schemas_end].rfind("</rdf:Bag>")?;
    out.insert_str(bag_end, &fx_schema());
    let rdf_end = out.rfind("</rdf:RDF>")?;
    out.insert_str(rdf_end, &fx_description());
    Some(out)
}

/// Replaces the catalog's /Metadata stream of krilla's PDF with kontor's
/// packet (`xmp_packet`).
pub(super) fn with_xmp(pdf: &[u8], facturx: bool) -> std::io::Result<Vec<u8>> {
    let bad = |what: &str| std::io::Error::other(format!("XMP: {what}"));
    let mut document =
        lopdf::Document::load_mem(pdf).map_err(|e| bad(&format!("reading the PDF: {e}")))?;
    let meta_id = document
        .catalog()
        .and_then(|c| c.get(b"Metadata"))
        .and_then(|m| m.as_reference())
        .map_err(|e| bad(&format!("no metadata: {e}")))?;
    let stream = document
        .get_object_mut(meta_id)
        .and_then(|o| o.as_stream_mut())
        .map_err(|e| bad(&format!("no metadata stream: {e}")))?;
    let xmp = std::str::from_utf8(&stream.content).map_err(|_| bad("not UTF-8"))?;
    let xmp = xmp_packet(xmp, facturx).ok_or_else(|| bad("unexpected packet"))?;
    stream.set_content(xmp.into_bytes());
    let mut out = Vec::with_capacity(pdf.len() + 4096);
    document
        .save_to(&mut out)
        .map_err(|e| bad(&format!("writing the PDF: {e}")))?;
    Ok(out)
}
