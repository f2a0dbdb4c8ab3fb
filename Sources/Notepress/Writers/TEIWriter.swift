import Foundation
import NotepressAST
import NotepressRawHTML
import NotepressResources
import NotepressTEI

/// `-t tei`: TEI P5 XML (see ``TEIEmitter`` for the element mapping), validated against
/// `tei/notepress-tei.rng` (from the template store, so `--data-dir` can replace it) before it
/// is returned, unless ``ConversionOptions/validate`` is off.
package struct TEIWriter: DocumentWriter {
    package init() {}
    package var format: OutputFormat { .tei }
    package var fileExtension: String { "xml" }
    /// The output has no typography to take from a theme.
    package func usesTheme(fragment: Bool) -> Bool { false }

    /// The validator type (NotepressTEI's), for clients that import only `Notepress`.
    package typealias Validator = TEIValidator

    /// Path of the schema inside the template store.
    package static let schemaPath = "tei/notepress-tei.rng"

    /// The built-in schema, compiled once per process (`nil` if it failed to compile, which the
    /// tests rule out).
    static let builtInValidator: TEIValidator? = {
        guard let data = TemplateStore.embedded(schemaPath) else { return nil }
        return try? TEIValidator(schemaData: data, schemaOrigin: "(built-in)/" + schemaPath)
    }()

    /// A validator for the schema at `schemaFile` (a path), or else the store's
    /// `tei/notepress-tei.rng` (a `--data-dir` copy first, then the built-in one).
    /// - Throws: ``NotepressError/invalidSchema(file:position:message:)`` when the schema cannot be
    ///   read or compiled.
    package static func validator(schemaFile: String? = nil, templates: TemplateStore = TemplateStore()) throws -> TEIValidator {
        let data: Data
        let origin: String
        if let schemaFile {
            guard let d = FileManager.default.contents(atPath: schemaFile) else {
                throw NotepressError.invalidSchema(file: schemaFile, position: nil, message: "cannot read schema")
            }
            (data, origin) = (d, schemaFile)
        } else {
            do { (data, origin) = try templates.data(schemaPath) } catch {
                throw NotepressError.invalidSchema(file: nil, position: nil, message: "\(error)")
            }
            if origin.hasPrefix("(built-in)/"), let v = builtInValidator { return v }
        }
        do {
            return try TEIValidator(schemaData: data, schemaOrigin: origin)
        } catch let failure as ConversionFailure {
            let first = failure.diagnostics.first
            throw NotepressError.invalidSchema(file: origin, position: first?.position,
                                               message: "invalid RELAX NG schema: " + (first?.message ?? "cannot compile"))
        }
    }

    /// The TEI bytes of `document`. The XML tree is freed before the output is validated, or left
    /// to the process exit (``ConversionOptions/leavesTreesToExit``).
    private static func render(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic]) -> [UInt8] {
        var emitter = TEIEmitter(unsafe: options.unsafe,
                                 tableOfContentsMaxLevel: options.tableOfContents ? options.tableOfContentsMaxLevel : nil)
        emitter.markerContents = options.markerContents(of: document)
        let (bytes, tree) = emitter.renderBytesAndTree(RawHTMLReading.reading(document), diagnostics: &diagnostics)
        if options.leavesTreesToExit { LeftToExit.leave(tree) }
        return bytes
    }

    /// Renders and (unless `options.validate` is false) validates.
    /// - Throws: ``NotepressError/schemaViolation(file:position:message:)`` whose `position` is the
    ///   line and column in the generated XML and whose message is libxml2's, when the output does
    ///   not match the schema.
    package func write(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        let bytes = Self.render(document, options: options, diagnostics: &diagnostics)
        guard options.validate else { return bytes }
        let validator = try Self.validator(templates: options.templates)
        let errors = validator.validate(Data(bytes), name: "TEI output").filter { $0.severity == .error }
        if let first = errors.first {
            throw NotepressError.schemaViolation(file: document.metadata.sourcePath, position: first.position, message: first.message)
        }
        return bytes
    }
}
