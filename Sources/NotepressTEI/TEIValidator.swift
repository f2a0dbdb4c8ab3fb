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
/// - Diagnostics carry libxml2's line and column (`xmlError.line`, `xmlError.int2`); libxml2
///   gives no column for validity errors, which are then reported at column 1. Validity errors
///   start with `element NAME: `, the element xmllint names; a repeated error is reported once.
/// - libxml2 is initialised once per process (`xmlInitParser`). One validator may be used from
///   several threads: validations against the same compiled schema are serialised.
public struct TEIValidator: Sendable {
    private let schema: SchemaBox

    /// Compiles the RELAX NG schema (XML syntax) in `schemaData`. `schemaOrigin` names it in
    /// messages (a path or `(built-in)/tei/notepress-tei.rng`).
    /// - Throws: ``ConversionFailure`` listing libxml2's messages when the schema is not valid.
    public init(schemaData: Data, schemaOrigin: String) throws {
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
    public func validate(_ xml: Data, name: String) -> [Diagnostic] {
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
public struct ConversionFailure: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]
    public init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
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
    /// Set when a DOCTYPE was refused.
    var refused = false
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
