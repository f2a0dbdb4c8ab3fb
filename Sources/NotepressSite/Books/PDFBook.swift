import Foundation
import Notepress
import NotepressAST
import NotepressEPUB
import NotepressPDF

/// A folder as one PDF book (`notepress convert book/ -o book.pdf`, issue 49): a title page, a
/// contents page with page numbers, then the chapters, each from a new page
/// (``PDFBookContent``).
///
/// - Chapters, their order and the links between them: ``SiteBook`` (shared with
///   ``EPUBBook``); a link to another note is a link inside the PDF, to the heading it names,
///   else to the chapter's start.
/// - The contents: the sidebar's tree, as the EPUB book's table of contents.
/// - Images: found from the book's root (the site made their paths relative to it).
/// - Metadata: the site's title, the first chapter's author, the newest chapter date or
///   `SOURCE_DATE_EPOCH`.
package enum PDFBook {
    /// Writes the book of `request`'s inputs to `request.output` (a file), atomically.
    /// Diagnostics and the link report go to `observer`.
    /// - Throws: ``NotepressError`` when the inputs cannot be walked or the PDF written.
    package static func run(_ request: SiteBuildRequest, observer: (any SiteBuildObserver)? = nil) throws -> SiteBook.Report {
        let found = try SiteBook.chapters(request, writer: PDFWriter(), observer: observer) { document, chapterFiles, root, file, diagnostics in
            BookPreparation.prepare(document, baseFolder: root, chapterFiles: chapterFiles, resources: nil, label: "PDF",
                                    file: file, diagnostics: &diagnostics)
        }
        var report = SiteBook.Report()
        report.failures = found.failures
        guard report.failures.isEmpty else { return report }
        let chapters = found.chapters.map {
            PDFBookContent.Chapter(document: PDFWriter.reading($0.document), name: $0.name, title: $0.title, imageFolder: $0.imageFolder)
        }
        var contents: [PDFBookContent.Entry] = []
        func add(_ entries: [EPUBNavEntry], depth: Int) {
            for e in entries {
                contents.append(PDFBookContent.Entry(title: e.title, chapter: e.href, depth: depth))
                add(e.children, depth: depth + 1)
            }
        }
        // Several files: the chapters in the command line's order.
        add(found.fromFolder ? found.contents : found.chapters.map { EPUBNavEntry(title: $0.title, href: $0.name) }, depth: 0)
        let first = chapters.first?.document
        let book = PDFBookContent(title: found.title, authors: first.map(BookPreparation.creators(of:)) ?? [],
                                  date: chapters.compactMap(\.document.metadata.created).max(), chapters: chapters, contents: contents)
        var diagnostics: [Diagnostic] = []
        let bytes: [UInt8]
        do {
            bytes = try PDFEmitter.renderBook(book, options: PDFWriter.pdfOptions(request.options), diagnostics: &diagnostics)
        } catch {
            throw NotepressError.outputRefused(file: request.output, message: "cannot write PDF: \(error)")
        }
        for d in diagnostics { observer?.tell(.note(d.description)) }
        try AtomicFile.write(bytes, to: request.output)
        report.chapters = chapters.count
        return report
    }
}
