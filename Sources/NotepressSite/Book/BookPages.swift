import Foundation
import Notepress
import NotepressAST

/// One input read for a site (``BatchConverter/loadPage(_:bytes:modified:)``).
struct LoadedPage {
    /// The prepared document.
    var document: Document
    /// Its warnings (reader, directives, `SUMMARY.md`).
    var diagnostics: [Diagnostic]
    /// The files its directives included (``BookDirectives``), as the command line reaches them.
    var includes: [String]
    /// The included files' hashes in one string (``BookPages/digest(_:)``), `nil` without directives.
    var includesSHA256: String?

    /// The four values, for a destructuring `let`.
    var parts: (Document, [Diagnostic], [String], String?) { (document, diagnostics, includes, includesSHA256) }
}

/// How a site run reads a book's chapters (``BookFolder``, ``BookDirectives``): the directives
/// of a Markdown input are carried out before it is parsed, when the run is a book's.
enum BookPages {
    /// The chapter's expanded text and a loader that maps its lines back; `nil` when the run is
    /// not a book's, the input is not Markdown, or it holds no directive.
    static func expand(_ batch: BatchConverter, _ input: InputFile, bytes: [UInt8])
        -> (loader: DocumentLoader, expansion: BookDirectives.Expansion)? {
        guard let book = batch.book, let syntax = book.directives, !DocumentLoader.isTiddler(input.path) else { return nil }
        let format = batch.loader.format ?? DocumentLoader.format(forPath: input.relative)
        guard format == .gfm || format == .commonmark else { return nil }
        guard let e = BookDirectives.expand(bytes, file: input.path, name: input.relative, book: book,
                                            limited: batch.loader.inputLimits != nil, syntax: syntax) else { return nil }
        var loader = batch.loader
        loader.lineMap = e.lineMap
        return (loader, e)
    }

    /// The directives' warnings and `{{#title}}` applied to the chapter as read.
    static func apply(_ e: BookDirectives.Expansion, to read: inout ReadResult) {
        read.diagnostics = e.diagnostics + read.diagnostics
        if let title = e.title {
            read.document.metadata.title = title
            read.document.metadata.titleSource = .frontMatter
        }
    }

    /// One string naming every included file and its hash, in order (what the chapter's input
    /// hash adds to its own bytes' hash).
    static func digest(_ e: BookDirectives.Expansion) -> String {
        zip(e.includes, e.includeHashes).map { "\n" + $0 + "\t" + $1 }.joined()
    }
}
