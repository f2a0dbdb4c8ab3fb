import CLibXML2
import Foundation
import NotepressAST

/// Validates XML documents against a RELAX NG schema with libxml2, in process.
///
/// - Documents are parsed with `XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_HUGE` and
///   without `XML_PARSE_NOENT` or `XML_PARSE_DTDLOAD`: no network access and no entity
///   substitution. A document type declaration (`<!DOCTYPE …>`) is refused outright: the parser
///   is stopped at the declaration, so no entity it declares is ever read (no XXE, no
///   "billion laughs").
/// - Elements nested deeper than ``maxElementDepth`` are refused the same way (the parser stops
///   at the first such element, with an error at its position): `XML_PARSE_HUGE` lifts libxml2's
///   own depth limit, and validating a tree tens of thousands of elements deep would overflow
///   the stack in libxml2's recursive RELAX NG validator.
/// - Diagnostics carry libxml2's line and column (`xmlError.line`, `xmlError.int2`); libxml2
///   gives no column for validity errors, which are then reported at column 1. Validity errors
///   start with `element NAME: `, the element xmllint names; a repeated error is reported once.
/// - libxml2 is initialised once per process (`xmlInitParser`). One validator may be used from
///   several threads: validations against the same compiled schema are serialised.
package struct TEIValidator: Sendable {
    private let schema: SchemaBox

    /// The deepest element accepted: libxml2's own default (`xmlParserMaxDepth`, 256), which is
    /// what `xmllint` and other stock readers apply. Notepress's TEI output stays well under it.
    package static let maxElementDepth = 256

    /// Compiles the RELAX NG schema (XML syntax) in `schemaData`. `schemaOrigin` names it in
    /// messages (a path or `(built-in)/tei/notepress-tei.rng`).
    /// - Throws: ``ConversionFailure`` listing libxml2's messages when the schema is not valid.
    package init(schemaData: Data, schemaOrigin: String) throws {
        LibXML2.initialize()
        let collector = ErrorCollector(name: schemaOrigin)
        let box = Unmanaged.passUnretained(collector).toOpaque()
        let compiled: xmlRelaxNGPtr? = schemaData.withUnsafeBytes { raw -> xmlRelaxNGPtr? in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self),
                  let pctxt = xmlRelaxNGNewMemParserCtxt(base, Int32(raw.count)) else { return nil }
            defer { xmlRelaxNGFreeParserCtxt(pctxt) }
            xmlRelaxNGSetParserStructuredErrors(pctxt, collectStructuredError, box)
            return xmlRelaxNGParse(pctxt)
        }
        withExtendedLifetime(collector) {}
        guard let compiled else {
            var diags = collector.diagnostics
            if diags.isEmpty { diags = [Diagnostic(.error, "cannot compile RELAX NG schema", file: schemaOrigin)] }
            throw ConversionFailure(diagnostics: diags)
        }
        schema = SchemaBox(compiled)
    }

    /// Parses and validates `xml`; `name` is the file name used in diagnostics. Returns every
    /// error found (empty when the document is valid). Never reads external resources.
    package func validate(_ xml: Data, name: String) -> [Diagnostic] {
        let collector = ErrorCollector(name: name)
        let box = Unmanaged.passUnretained(collector).toOpaque()
        defer { withExtendedLifetime(collector) {} }
        guard let doc = Self.parse(xml, collector: collector, box: box) else {
            if collector.diagnostics.isEmpty {
                collector.diagnostics.append(Diagnostic(.error, "not well-formed XML", file: name, position: SourcePosition(line: 1, column: 1)))
            }
            return collector.diagnostics
        }
        defer { xmlFreeDoc(doc) }
        schema.lock.lock()
        defer { schema.lock.unlock() }
        guard let vctxt = xmlRelaxNGNewValidCtxt(schema.pointer) else {
            return [Diagnostic(.error, "out of memory creating a validation context", file: name)]
        }
        defer { xmlRelaxNGFreeValidCtxt(vctxt) }
        xmlRelaxNGSetValidStructuredErrors(vctxt, collectStructuredError, box)
        let rc = xmlRelaxNGValidateDoc(vctxt, doc)
        if rc != 0 && collector.diagnostics.isEmpty {
            collector.diagnostics.append(Diagnostic(.error, "document does not match the schema", file: name,
                                                    position: SourcePosition(line: 1, column: 1)))
        }
        return collector.diagnostics
    }

    /// Parses without DTDs, entity substitution or network access; `nil` when not well-formed
    /// or when it has a document type declaration.
    private static func parse(_ xml: Data, collector: ErrorCollector, box: UnsafeMutableRawPointer) -> xmlDocPtr? {
        // A trailing NUL keeps the pointer valid for empty input; only `xml.count` bytes are parsed.
        var bytes = [UInt8](xml)
        bytes.append(0)
        return bytes.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { buf -> xmlDocPtr? in
            guard let ctxt = xmlCreatePushParserCtxt(nil, nil, nil, 0, nil) else { return nil }
            defer { xmlFreeParserCtxt(ctxt) }
            let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue | XML_PARSE_HUGE.rawValue)
            _ = xmlCtxtUseOptions(ctxt, options)
            ctxt.pointee._private = box
            if let sax = ctxt.pointee.sax {
                sax.pointee.serror = collectParserError
                sax.pointee.internalSubset = refuseDoctype
                sax.pointee.externalSubset = refuseDoctype
                collector.startElement = sax.pointee.startElementNs
                collector.endElement = sax.pointee.endElementNs
                sax.pointee.startElementNs = startElementCheckingDepth
                sax.pointee.endElementNs = endElementCheckingDepth
            }
            _ = xmlParseChunk(ctxt, buf.baseAddress, Int32(xml.count), 1)
            let doc = ctxt.pointee.myDoc
            ctxt.pointee.myDoc = nil
            if ctxt.pointee.wellFormed == 0 || collector.refused {
                if let doc { xmlFreeDoc(doc) }
                return nil
            }
            return doc
        } }
    }
}

/// A failure with libxml2's diagnostics (schema compilation).
package struct ConversionFailure: Error, Sendable, CustomStringConvertible {
    package var diagnostics: [Diagnostic]
    package init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
    package var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// One-time libxml2 set-up.
enum LibXML2 {
    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    /// Calls `xmlInitParser()` once per process (thread-safe: Swift runs static initialisers once).
    static func initialize() { _ = initialized }
}

/// Owns a compiled schema; libxml2 objects are freed with it.
private final class SchemaBox: @unchecked Sendable {
    let pointer: xmlRelaxNGPtr
    let lock = NSLock()
    init(_ p: xmlRelaxNGPtr) { pointer = p }
    deinit { xmlRelaxNGFree(pointer) }
}

/// Collects the errors of one parse or validation. Used from one thread at a time.
private final class ErrorCollector {
    let name: String
    var diagnostics: [Diagnostic] = []
    /// Set when the parser was stopped: a DOCTYPE was refused or the document is too deep.
    var refused = false
    /// libxml2's own element handlers (the tree builder), called by the depth-checking ones.
    var startElement: startElementNsSAX2Func?
    var endElement: endElementNsSAX2Func?
    /// Elements open now.
    var depth = 0
    init(name: String) { self.name = name }

    /// Every diagnostic added so far, to drop repeats: libxml2 may report one problem through
    /// more than one path (the same line and text), and each should be printed once.
    private var seen: Set<String> = []

    /// Adds libxml2's error as a diagnostic. Validity errors name the element as xmllint does
    /// (`element para: Did not expect element para there`): the name of `xmlError.node` when it
    /// is an element.
    func add(_ error: UnsafePointer<xmlError>) {
        let e = error.pointee
        var message = e.message.map { String(cString: $0) } ?? "unknown libxml2 error"
        message = message.trimmingCharacters(in: .whitespacesAndNewlines)
        if let node = e.node?.assumingMemoryBound(to: xmlNode.self), node.pointee.type == XML_ELEMENT_NODE,
           let elementName = node.pointee.name {
            message = "element \(String(cString: elementName)): " + message
        }
        let line = Int(e.line)
        let column = Int(e.int2)
        let position = line > 0 ? SourcePosition(line: line, column: column > 0 ? column : 1) : nil
        let severity: Diagnostic.Severity = e.level == XML_ERR_WARNING ? .warning : .error
        let d = Diagnostic(severity, message, file: name, position: position)
        if seen.insert(d.description).inserted { diagnostics.append(d) }
    }
}

/// Structured error handler for RELAX NG parser and validation contexts; `userData` is the collector.
private func collectStructuredError(_ userData: UnsafeMutableRawPointer?, _ error: xmlErrorPtr?) {
    guard let userData, let error else { return }
    Unmanaged<ErrorCollector>.fromOpaque(userData).takeUnretainedValue().add(error)
}

/// Structured error handler of the document parser; `userData` is the parser context, whose
/// `_private` is the collector.
private func collectParserError(_ userData: UnsafeMutableRawPointer?, _ error: xmlErrorPtr?) {
    guard let userData, let error else { return }
    let ctxt = userData.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let box = ctxt.pointee._private else { return }
    let collector = Unmanaged<ErrorCollector>.fromOpaque(box).takeUnretainedValue()
    if collector.refused { return }  // errors caused by stopping the parser
    collector.add(error)
}

/// SAX `internalSubset`/`externalSubset`: refuses the document type declaration and stops the
/// parser before any declaration in it is read.
private func refuseDoctype(_ ctx: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?,
                           _ externalID: UnsafePointer<xmlChar>?, _ systemID: UnsafePointer<xmlChar>?) {
    guard let ctx else { return }
    let ctxt = ctx.assumingMemoryBound(to: xmlParserCtxt.self)
    if let box = ctxt.pointee._private {
        let collector = Unmanaged<ErrorCollector>.fromOpaque(box).takeUnretainedValue()
        if !collector.refused {
            let line = Int(xmlSAX2GetLineNumber(ctx))
            let column = Int(xmlSAX2GetColumnNumber(ctx))
            collector.diagnostics.append(Diagnostic(
                .error, "document type declarations (DTDs) and entity declarations are not allowed; the DOCTYPE was refused and no entity was read",
                file: collector.name, position: SourcePosition(line: max(line, 1), column: max(column, 1))))
            collector.refused = true
        }
    }
    xmlStopParser(ctxt)
}

/// SAX `startElementNs`: builds the element (libxml2's handler), then stops the parser with an
/// error when it is nested deeper than ``TEIValidator/maxElementDepth``.
private func startElementCheckingDepth(
    _ ctx: UnsafeMutableRawPointer?, _ localname: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?,
    _ uri: UnsafePointer<xmlChar>?, _ nbNamespaces: Int32, _ namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
    _ nbAttributes: Int32, _ nbDefaulted: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
) {
    guard let ctx else { return }
    let ctxt = ctx.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let box = ctxt.pointee._private else { return }
    let collector = Unmanaged<ErrorCollector>.fromOpaque(box).takeUnretainedValue()
    if collector.refused { return }
    collector.depth += 1
    if collector.depth > TEIValidator.maxElementDepth {
        let line = Int(xmlSAX2GetLineNumber(ctx))
        let column = Int(xmlSAX2GetColumnNumber(ctx))
        collector.diagnostics.append(Diagnostic(
            .error, "elements nested deeper than \(TEIValidator.maxElementDepth) levels (libxml2's default limit); the document was not read further",
            file: collector.name, position: SourcePosition(line: max(line, 1), column: max(column, 1))))
        collector.refused = true
        xmlStopParser(ctxt)
        return
    }
    collector.startElement?(ctx, localname, prefix, uri, nbNamespaces, namespaces, nbAttributes, nbDefaulted, attributes)
}

/// SAX `endElementNs`: libxml2's handler, and one level less.
private func endElementCheckingDepth(_ ctx: UnsafeMutableRawPointer?, _ localname: UnsafePointer<xmlChar>?,
                                     _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?) {
    guard let ctx else { return }
    let ctxt = ctx.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let box = ctxt.pointee._private else { return }
    let collector = Unmanaged<ErrorCollector>.fromOpaque(box).takeUnretainedValue()
    if collector.refused { return }
    collector.depth -= 1
    collector.endElement?(ctx, localname, prefix, uri)
}
