import Foundation
import NotepressAST
import NotepressEPUB
import NotepressRawHTML

/// `-t epub`: an EPUB 3 book of one chapter (see ``EPUBEmitter``); a folder becomes one book of
/// many in the site engine (NotepressSite's `EPUBBook`), with the same preparation
/// (``BookPreparation``).
package struct EPUBWriter: DocumentWriter {
    package init() {}
    package var format: OutputFormat { .epub }
    package var fileExtension: String { "epub" }
    /// The stylesheet comes from the theme.
    package func usesTheme(fragment: Bool) -> Bool { true }
    /// - Throws: ``NotepressError`` when the zip library cannot be loaded.
    package func write(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        let resources = EPUBResources()
        let path = document.metadata.sourcePath
        let folder = (options.sourceFile ?? path).map(PathText.deletingLastComponent) ?? ""
        let missing = !options.missingImagesReported
        let prepared = BookPreparation.prepare(document, baseFolder: folder.isEmpty ? "." : folder, chapterFiles: nil,
                                               resources: resources, label: "epub", file: path, reportsMissing: missing, diagnostics: &diagnostics)
        let raw = BookPreparation.rawHTMLImages(document, folder: folder.isEmpty ? "." : folder, resources: resources, file: path,
                                                reportsMissing: missing, diagnostics: &diagnostics)
        let title = BookPreparation.title(of: document)
        var book = EPUBBookContent(title: title, language: BookPreparation.language(of: document),
                                   creators: BookPreparation.creators(of: document), date: document.metadata.created,
                                   chapters: [EPUBChapter(document: prepared, fileName: EPUBChapter.fileName(0), title: title, rawHTMLImages: raw)],
                                   resources: resources)
        book.direction = BookPreparation.direction(of: document)
        do {
            return try EPUBEmitter.render(book, options: Self.epubOptions(options), diagnostics: &diagnostics)
        } catch {
            throw NotepressError.failed(file: path ?? "-", position: nil, message: "epub: \(error)")
        }
    }

    /// What the EPUB writer takes from `options` (and `SOURCE_DATE_EPOCH`).
    package static func epubOptions(_ options: ConversionOptions) -> EPUBOptions {
        EPUBOptions(theme: options.theme, highlight: options.highlightsCode(in: .epub),
                    sourceDateEpoch: DocumentLoader.sourceDateEpoch(from: ProcessInfo.processInfo.environment),
                    tableOfContentsMaxLevel: min(options.tableOfContentsMaxLevel, 3))
    }
}
