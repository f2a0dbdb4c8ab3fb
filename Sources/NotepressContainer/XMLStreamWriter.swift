import CLibXML2

/// An XML document written element by element through libxml2's xmlTextWriter, which escapes
/// text and attribute values: the parts of DOCX, ODT and EPUB packages (no XML written by hand).
/// Not indented (whitespace would be text in WordprocessingML runs); UTF-8 with a declaration.
package final class XMLStreamWriter {
    private let buffer: xmlBufferPtr
    private let writer: xmlTextWriterPtr
    private var finished = false

    /// A writer of a new document, started with `<?xml version="1.0" encoding="UTF-8"
    /// standalone="yes"?>` when `standalone` (Office Open XML parts), else without the
    /// standalone declaration.
    package init(standalone: Bool = false) {
        buffer = xmlBufferCreate()
        writer = xmlNewTextWriterMemory(buffer, 0)
        xmlTextWriterStartDocument(writer, "1.0", "UTF-8", standalone ? "yes" : nil)
    }

    deinit {
        xmlFreeTextWriter(writer)
        xmlBufferFree(buffer)
    }

    /// Opens element `name` (a qualified name such as `w:p`), with `attributes` in order (values
    /// as ``attribute(_:_:)`` writes them).
    package func start(_ name: String, _ attributes: KeyValuePairs<String, String> = [:]) {
        xmlTextWriterStartElement(writer, name)
        for (k, v) in attributes { attribute(k, v) }
    }

    /// Opens element `name` with `attributes` given as an ordered array (built at run time).
    package func start(_ name: String, attributeList: [(String, String)]) {
        xmlTextWriterStartElement(writer, name)
        for (k, v) in attributeList { attribute(k, v) }
    }

    /// Adds one attribute to the element just opened: its value escaped, without the characters
    /// XML 1.0 cannot hold (as ``text(_:)``; libxml2's writer would write a control character as
    /// it is, and the part would not be well-formed: a link destination of `--unsafe` output).
    package func attribute(_ name: String, _ value: String) {
        xmlTextWriterWriteAttribute(writer, name, XMLStreamWriter.xmlSafe(value))
    }

    /// Closes the innermost open element (`<a/>` when it is empty).
    package func end() {
        xmlTextWriterEndElement(writer)
    }

    /// An element holding only `text` (escaped), with `attributes`.
    package func element(_ name: String, _ attributes: KeyValuePairs<String, String> = [:], text: String? = nil) {
        start(name, attributes)
        if let text { self.text(text) }
        end()
    }

    /// Escaped character data. Characters XML 1.0 cannot hold (C0 controls other than tab, line
    /// feed and carriage return; U+FFFE, U+FFFF) are left out.
    package func text(_ s: String) {
        xmlTextWriterWriteString(writer, XMLStreamWriter.xmlSafe(s))
    }

    /// Markup written as it is: for a caller's constant, well-formed fragment only.
    package func raw(_ markup: String) {
        xmlTextWriterWriteRaw(writer, markup)
    }

    /// The finished document's bytes (every open element closed).
    package func bytes() -> [UInt8] {
        if !finished {
            xmlTextWriterEndDocument(writer)
            xmlTextWriterFlush(writer)
            finished = true
        }
        guard let content = xmlBufferContent(buffer) else { return [] }
        return Array(UnsafeBufferPointer(start: content, count: Int(xmlBufferLength(buffer))))
    }

    /// `s` without the characters XML 1.0 cannot hold.
    package static func xmlSafe(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { !isXMLChar($0) }) else { return s }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: s.unicodeScalars.lazy.filter(isXMLChar))
        return String(out)
    }

    private static func isXMLChar(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }
}
