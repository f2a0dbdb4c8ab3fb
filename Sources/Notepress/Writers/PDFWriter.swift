import Foundation
import NotepressAST
import NotepressPDF
import NotepressRawHTML

/// `-t pdf`: PDF laid out with Pango and Cairo (``PDFEmitter``), in the theme's text styles at
/// its size category, on ``ConversionOptions/paperSize`` paper. The creation date is the
/// document's (`created`, which `SOURCE_DATE_EPOCH` caps), so the bytes are the same run after run.
package struct PDFWriter: DocumentWriter {
    package init() {}
    package var format: OutputFormat { .pdf }
    package var fileExtension: String { "pdf" }
    /// - Throws: ``NotepressError/outputRefused(file:message:)`` when Pango and Cairo (the PDF
    ///   shim) cannot be loaded or Cairo fails.
    package func write(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        var o = Self.pdfOptions(options)
        o.authors = BookPreparation.creators(of: document)
        o.contents = options.tableOfContents(of: document)
        o.markerContents = options.markerContents(of: document)
        do {
            return try PDFEmitter.render(Self.reading(document), options: o, diagnostics: &diagnostics)
        } catch {
            throw NotepressError.outputRefused(file: document.metadata.sourcePath ?? "-", message: "cannot write PDF: \(error)")
        }
    }

    /// What the PDF writer takes from `options` for every document (a book's too).
    package static func pdfOptions(_ options: ConversionOptions) -> PDFOptions {
        var o = PDFOptions(theme: options.theme)
        (o.pageWidth, o.pageHeight) = options.paperSize.points
        o.unsafe = options.unsafe
        return o
    }

    /// `document` as the PDF writer draws it: raw HTML read into the tree where it can be.
    package static func reading(_ document: Document) -> Document { RawHTMLReading.reading(document) }
}

/// The paper of PDF output (``ConversionOptions/paperSize``).
public enum PaperSize: String, Sendable, Equatable, Hashable, CaseIterable {
    /// ISO A4, 210 × 297 mm.
    case a4
    /// US Letter, 8.5 × 11 in.
    case letter

    /// Width and height in points (1/72 inch).
    public var points: (width: Double, height: Double) {
        switch self {
        case .a4: (595.28, 841.89)
        case .letter: (612, 792)
        }
    }

    /// The paper of a locale's environment: Letter where `LC_ALL`, else `LC_PAPER`, else `LANG`
    /// names the United States, Canada, Mexico, Chile, Colombia, Venezuela, the Philippines or
    /// Puerto Rico (glibc's `LC_PAPER` of those locales), else A4.
    public static func forLocale(_ environment: [String: String]) -> PaperSize {
        let locale = [environment["LC_ALL"], environment["LC_PAPER"], environment["LANG"]].compactMap { $0 }.first { !$0.isEmpty } ?? ""
        let region = locale.split(separator: ".").first.flatMap { $0.split(separator: "_").dropFirst().first }.map(String.init) ?? ""
        return ["US", "CA", "MX", "CL", "CO", "VE", "PH", "PR"].contains(region) ? .letter : .a4
    }
}
