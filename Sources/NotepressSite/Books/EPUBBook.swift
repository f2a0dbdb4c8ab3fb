import Foundation
import Notepress
import NotepressAST
import NotepressEPUB

/// A folder (or several files) as one EPUB book (`notepress convert book/ -o book.epub`): the site engine's walk,
/// table and links, written as chapters of one package instead of pages of a site.
///
/// - Chapters, their order and the links between them: ``SiteBook`` (shared with ``PDFBook``).
///   The table of contents is the sidebar's tree.
/// - Images: each file packaged once, whichever chapters use it (``EPUBResources``).
/// - Metadata: the site's title (`--site-title`, `book.toml`'s, the root index page's), the first
///   chapter's language and author, the newest chapter date or `SOURCE_DATE_EPOCH`.
package enum EPUBBook {
    /// Writes the book of `request`'s inputs to `request.output` (a file), atomically.
    /// Diagnostics and the link report go to `observer`.
    /// - Throws: ``NotepressError`` when the inputs cannot be walked or the package written.
    package static func run(_ request: SiteBuildRequest, observer: (any SiteBuildObserver)? = nil) throws -> SiteBook.Report {
        let resources = EPUBResources()
        var rawImages: [String: [String: String]] = [:]
        // A missing image is the link report's warning (reportsMissing: false): one, not two.
        let found = try SiteBook.chapters(request, writer: EPUBWriter(), observer: observer) { document, chapterFiles, root, file, diagnostics in
            let prepared = BookPreparation.prepare(document, baseFolder: root, chapterFiles: chapterFiles, resources: resources, label: "epub",
                                                   file: file, reportsMissing: false, diagnostics: &diagnostics)
            // Raw HTML is not rewritten by the site: its images are read from the note's own folder.
            let folder = PathText.deletingLastComponent(file)
            rawImages[file] = BookPreparation.rawHTMLImages(prepared, folder: folder.isEmpty ? "." : folder, resources: resources, file: file,
                                                            reportsMissing: false, diagnostics: &diagnostics)
            return prepared
        }
        var report = SiteBook.Report()
        report.failures = found.failures
        guard report.failures.isEmpty else { return report }
        let chapters = found.chapters.map {
            EPUBChapter(document: $0.document, fileName: $0.name, title: $0.title, rawHTMLImages: rawImages[$0.file] ?? [:])
        }
        let first = chapters.first?.document
        let dates = chapters.compactMap(\.document.metadata.created)
        var book = EPUBBookContent(title: found.title, language: first.map(BookPreparation.language(of:)) ?? "en",
                                   creators: first.map(BookPreparation.creators(of:)) ?? [], date: dates.max(),
                                   chapters: chapters, resources: resources, toc: found.fromFolder ? found.contents : nil)
        book.direction = first.map(BookPreparation.direction(of:)) ?? .leftToRight
        var diagnostics: [Diagnostic] = []
        let bytes: [UInt8]
        do {
            bytes = try EPUBEmitter.render(book, options: EPUBWriter.epubOptions(request.options), diagnostics: &diagnostics)
        } catch {
            throw NotepressError.failed(file: request.output, position: nil, message: "epub: \(error)")
        }
        for d in diagnostics { observer?.tell(.note(d.description)) }
        try AtomicFile.write(bytes, to: request.output)
        report.chapters = chapters.count
        report.images = resources.images.count
        return report
    }
}
