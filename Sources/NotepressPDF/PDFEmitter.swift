import CNotepressPDF
import Foundation
import NotepressAST
import NotepressThemes

/// The page and the document facts of a PDF (``PDFEmitter``).
package struct PDFOptions: Sendable {
    /// The theme at its size category: the six text styles, colours, fonts.
    package var theme: ResolvedTheme
    /// The page in points: A4 (595.28 × 841.89) unless given.
    package var pageWidth = 595.28, pageHeight = 841.89
    /// Keep dangerous link destinations live (`--unsafe`).
    package var unsafe = false
    /// The document's date (creation and modification date of the PDF); `nil`: the document's
    /// `created`, else none.
    package var date: Date?
    /// The document's authors (front matter `author` or `authors`): the title block and the
    /// PDF's Author.
    package var authors: [String] = []
    /// `--toc`: the contents after the title block, each entry with its page number and a link.
    package var contents: TableOfContents?
    /// The table written where a `[TOC]` marker is (``ContentsMarker``; `--toc`'s entries): a
    /// `Contents` caption and one linked paragraph per entry; `nil`: a marker is an unknown
    /// block, written as its text.
    package var markerContents: TableOfContents?

    /// Options of `theme` on an A4 page.
    package init(theme: ResolvedTheme) { self.theme = theme }
}

/// A folder as one book (`convert book/ -o book.pdf`, NotepressSite's `PDFBook`): a title page,
/// a contents page with page numbers, then the chapters, each from a new page.
package struct PDFBookContent: Sendable {
    /// One chapter: a document whose links into the book name chapters (`ch002.xhtml#id`,
    /// NotepressSite's book preparation), its images relative to `imageFolder`.
    package struct Chapter: Sendable {
        package var document: Document
        /// The chapter's name, which links to it use (`ch002.xhtml`).
        package var name: String
        /// Written at the chapter's top unless its first heading is its title.
        package var title: String
        /// Where the images' relative paths start (the book's root).
        package var imageFolder: String?

        package init(document: Document, name: String, title: String, imageFolder: String?) {
            self.document = document
            self.name = name
            self.title = title
            self.imageFolder = imageFolder
        }
    }

    /// A line of the contents page: a chapter (`chapter`: its name) or a group of them (`nil`).
    package struct Entry: Sendable {
        package var title: String
        package var chapter: String?
        package var depth: Int

        package init(title: String, chapter: String?, depth: Int) {
            self.title = title
            self.chapter = chapter
            self.depth = depth
        }
    }

    package var title: String
    package var authors: [String]
    /// The PDF's creation date.
    package var date: Date?
    package var chapters: [Chapter]
    package var contents: [Entry]

    package init(title: String, authors: [String], date: Date?, chapters: [Chapter], contents: [Entry]) {
        self.title = title
        self.authors = authors
        self.date = date
        self.chapters = chapters
        self.contents = contents
    }
}

/// Renders a ``Document`` as PDF through Pango and Cairo (``PDFLibrary``, issue 49): each block's
/// inline content becomes attributed text (runs of font, size, weight, colour, link), which the
/// shim lays out with Pango and places down the pages. Headings are tagged `H1`…`H6`, are link
/// destinations (their ids) and outline entries; paragraphs `P`, lists `L`/`LI`, tables `Table`,
/// images `Figure` (a narrow one at a paragraph's start floats, the lines flowing around it:
/// ``floatingImage(_:_:)``). A footnote of paragraphs is drawn at the foot of the page of its first
/// reference (the shim); the others after the body, under a rule; each is the link destination
/// of its references. Math is shown as its TeX source in the code font.
///
/// The title block (title, authors, `date`, centred, as pandoc's LaTeX writes it) comes first,
/// then with `--toc` the contents. Page numbers of contents entries are known only once the
/// pages are laid out: a document with contents is laid out twice, the first time to learn
/// them (the entries take the same room either way: their numbers sit in the right margin's
/// column). A book (``renderBook(_:options:diagnostics:)``) is its chapters in one such run,
/// each chapter's destinations named after it (`ch002.xhtml#id`).
package final class PDFEmitter {
    let library: PDFLibrary
    let handle: OpaquePointer
    let strings = PDFStrings()
    let options: PDFOptions
    /// The chapters: one, named `""`, for a document on its own.
    let chapters: [PDFBookContent.Chapter]
    /// The book, or `nil` for a document on its own.
    let book: PDFBookContent?
    /// The chapter being written.
    var document: Document
    /// Its name (`""` outside a book), which prefixes its destinations.
    var chapterName = ""
    /// Where its images' relative paths start, when not its own folder.
    var imageFolder: String?
    var theme: ResolvedTheme { options.theme }
    var colors: ThemeColors { theme.colors }
    let codeFamily: String
    /// Destinations: ids of headings and paragraphs (``destination(_:)``), chapter names.
    var destinations = Set<String>()
    /// Page numbers of the contents' destinations, from the first layout (empty in it).
    var pages: [String: Int] = [:]
    /// The destinations the contents show, whose pages the first layout asks the shim for.
    var contentsDestinations: [String] = []
    /// Numbers of the footnotes that have a definition.
    var footnoteNumbers = Set<Int>()
    /// Numbers of the footnotes given to the shim for the foot of the page (those of paragraphs
    /// only; the others, and those only tables refer to, are written after the body).
    var pageFootnotes = Set<Int>()
    /// Footnote definitions by number.
    var footnotes: [(number: Int, blocks: [Block])] = []
    /// Added to a chapter's footnote numbers where the shim and destinations see them (a book's
    /// chapters each count from 1).
    var footnoteBase = 0
    var diagnostics: [Diagnostic] = []
    /// Images within text already warned about (one warning per image, not per run).
    var warnedInlineImages = Set<SourcePosition>()
    /// Where the block being written starts: warnings about its text give it.
    var blockPosition: SourcePosition?
    /// The text width in points.
    let textWidth: Double

    /// The document as PDF bytes. Warnings (images not embedded, unknown blocks) are appended to
    /// `diagnostics`.
    /// - Throws: ``PDFLibraryUnavailable`` when Pango and Cairo cannot be loaded, or Cairo fails.
    package static func render(_ document: Document, options: PDFOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        let chapter = PDFBookContent.Chapter(document: document, name: "", title: document.metadata.title ?? "", imageFolder: nil)
        let date = options.date ?? document.metadata.created
        let author = options.authors.isEmpty ? nil : options.authors.joined(separator: ", ")
        return try render([chapter], book: nil, options: options, facts: (document.metadata.title, author, document.metadata.tags, date),
                          diagnostics: &diagnostics)
    }

    /// A book as PDF bytes (see ``PDFBookContent``).
    /// - Throws: as ``render(_:options:diagnostics:)``.
    package static func renderBook(_ book: PDFBookContent, options: PDFOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        let author = book.authors.isEmpty ? nil : book.authors.joined(separator: ", ")
        return try render(book.chapters, book: book, options: options, facts: (book.title, author, [], options.date ?? book.date),
                          diagnostics: &diagnostics)
    }

    /// Lays the chapters out, twice when there are contents (the first time for their pages).
    private static func render(_ chapters: [PDFBookContent.Chapter], book: PDFBookContent?, options: PDFOptions,
                               facts: (title: String?, author: String?, keywords: [String], date: Date?),
                               diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        let library = try PDFLibrary.shared.get()
        var pages: [String: Int]?
        while true {
            let strings = PDFStrings()
            var setup = setup(options, strings: strings, facts: facts)
            guard let handle = library.open(&setup) else { throw PDFLibraryUnavailable(reason: "Cairo could not start a PDF document") }
            let emitter = PDFEmitter(library: library, handle: handle, options: options, chapters: chapters, book: book)
            emitter.pages = pages ?? [:]
            emitter.writeDocument()
            var found: [String: Int] = [:]
            for d in emitter.contentsDestinations { found[d] = Int(library.destPage(handle, strings.c(d))) }
            var bytes: UnsafeMutablePointer<UInt8>?
            var length = 0
            let status = library.finish(handle, &bytes, &length)
            defer { library.free(bytes) }
            let out = bytes.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? []
            if status != 0 { throw PDFLibraryUnavailable(reason: "Cairo could not write the PDF: " + String(decoding: out, as: UTF8.self)) }
            if pages == nil && !emitter.contentsDestinations.isEmpty {
                pages = found
                continue
            }
            diagnostics += emitter.diagnostics
            return out
        }
    }

    /// The shim's page and document facts (its strings from `strings`).
    private static func setup(_ options: PDFOptions, strings: PDFStrings,
                              facts: (title: String?, author: String?, keywords: [String], date: Date?)) -> np_pdf_setup {
        let margins = PDFEmitter.margins(options)
        let date = facts.date.map { d -> String in
            let c = CivilDateTime(d)
            return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", c.year, c.month, c.day, c.hour, c.minute, c.second)
        }
        let header = options.theme.style(.caption1)
        var setup = np_pdf_setup()
        setup.width = options.pageWidth; setup.height = options.pageHeight
        setup.top = margins; setup.bottom = margins; setup.left = margins; setup.right = margins
        setup.title = facts.title.map { UnsafePointer(strings.c(AttributedText.layoutText($0))) }
        setup.author = facts.author.map { UnsafePointer(strings.c(AttributedText.layoutText($0))) }
        setup.keywords = facts.keywords.isEmpty ? nil : UnsafePointer(strings.c(AttributedText.layoutText(facts.keywords.joined(separator: ", "))))
        setup.date = date.map { UnsafePointer(strings.c($0)) }
        setup.header_family = UnsafePointer(strings.c(PDFFonts.familyList(header.font)))
        setup.header_size = min(header.size, 14)
        setup.header_color = PDFFonts.rgb(options.theme.colors.secondary)
        return setup
    }

    /// The page margins: 2 cm (the running header and page number, at most 14 pt, sit in them).
    static func margins(_ options: PDFOptions) -> Double { 56.7 }

    private init(library: PDFLibrary, handle: OpaquePointer, options: PDFOptions, chapters: [PDFBookContent.Chapter], book: PDFBookContent?) {
        self.library = library
        self.handle = handle
        self.options = options
        self.chapters = chapters
        self.book = book
        document = chapters.first?.document ?? Document(metadata: DocumentMetadata(sourceFormat: .gfm), blocks: [])
        codeFamily = PDFFonts.familyList(options.theme.theme.codeFont)
        textWidth = options.pageWidth - 2 * Self.margins(options)
    }

    /// Collects link targets, then writes the title block (or a book's title and contents
    /// pages), the contents, and each chapter: its body and its footnotes.
    func writeDocument() {
        for c in chapters {
            chapterName = c.name
            if !c.name.isEmpty { destinations.insert(c.name) }
            c.document.forEachBlock { b, _ in
                switch b.kind {
                case .heading, .paragraph: if let id = b.id { destinations.insert(destination(id)) }
                default: break
                }
            }
        }
        library.tagBegin(handle, "Document", nil)
        if let book {
            writeTitlePage(book)
        } else {
            writeTitleBlock()
            if let toc = options.contents, !toc.isEmpty {
                writeContents(toc.entries.map { ($0.text, destination($0.id), $0.depth) }, title: "Contents", level: 2)
            }
        }
        for c in chapters {
            document = c.document
            chapterName = c.name
            imageFolder = c.imageFolder
            footnotes = []; footnoteNumbers = []; pageFootnotes = []; warnedInlineImages = []
            collectFootnotes(document.blocks)
            registerPageFootnotes()
            if book != nil { writeChapterStart(c) }
            for b in document.blocks { writeBlock(b, BlockContext()) }
            writeFootnotes()
            footnoteBase += (footnotes.map(\.number).max() ?? 0)
        }
        library.tagEnd(handle, "Document")
    }

    /// The destination name of `id` in the chapter being written (`ch002.xhtml#id` in a book).
    func destination(_ id: String) -> String { chapterName.isEmpty ? id : chapterName + "#" + id }

    /// Footnote definitions by the numbers their references carry.
    private func collectFootnotes(_ blocks: [Block]) {
        var numbers: [String: Int] = [:]
        document.forEachBlock { b, _ in
            var inlines: [Inlines] = []
            switch b.kind {
            case .paragraph(let i), .heading(_, let i): inlines = [i]
            case .table(let t): inlines = t.header + t.rows.flatMap { $0 }
            default: break
            }
            for i in inlines {
                for r in i.runs {
                    if case .footnoteReference(let label, let n, _) = r.content, numbers[label] == nil { numbers[label] = n }
                }
            }
        }
        document.forEachBlock { b, _ in
            if case .footnoteDefinition(let label, let blocks) = b.kind, let n = numbers[label], !footnoteNumbers.contains(n) {
                footnoteNumbers.insert(n)
                footnotes.append((n, blocks))
            }
        }
        footnotes.sort { $0.number < $1.number }
    }

    /// Gives the shim each footnote of paragraphs only, as one text (`N. ` and its paragraphs),
    /// to draw at the foot of the page that refers to it.
    private func registerPageFootnotes() {
        let s = theme.style(for: .footnote)
        for (number, blocks) in footnotes {
            var text = AttributedText()
            text.append("\(number). ", RunStyle(s, color: colors.text))
            for (i, b) in blocks.enumerated() {
                guard case .paragraph(let inl) = b.kind else { text = AttributedText(); break }
                if i > 0 { text.append("\u{2028}", RunStyle(s, color: colors.text)) }
                var part = attributed(inl, s)
                part.runs = part.runs.map { ($0.range.lowerBound + text.bytes.count..<$0.range.upperBound + text.bytes.count, $0.style) }
                text.bytes += part.bytes
                text.runs += part.runs
            }
            guard !text.isEmpty else { continue }
            let runs = strings.runs(text)
            text.bytes.withUnsafeBufferPointer { b in
                b.withMemoryRebound(to: CChar.self) {
                    library.footnote(handle, Int32(footnoteBase + number), $0.baseAddress, $0.count, runs, runs.count)
                }
            }
            pageFootnotes.insert(number)
        }
    }

    /// The footnotes not drawn at the foot of a page, after a rule, each with its number and a
    /// destination for its references.
    private func writeFootnotes() {
        let rest = footnotes.filter { library.footnotePlaced(handle, Int32(footnoteBase + $0.number)) == 0 }
        guard !rest.isEmpty else { return }
        library.rule(handle, 0, textWidth * 2 / 3, PDFFonts.rgb(colors.secondary), 0.5)
        for (number, blocks) in rest {
            var ctx = BlockContext()
            ctx.role = .footnote
            ctx.left = listIndent()
            ctx.marker = "\(number)."
            ctx.dest = footnoteDestination(number)
            for b in blocks {
                writeBlock(b, ctx)
                ctx.marker = nil
                ctx.dest = nil
            }
        }
    }

    /// The destination of footnote `number` of the chapter being written (the shim names those
    /// at the foot of a page the same way).
    func footnoteDestination(_ number: Int) -> String { "fn-\(footnoteBase + number)" }

    /// The context's left indent, at most half the text width (deeper containers stay there).
    func indent(_ ctx: BlockContext) -> Double { min(ctx.left, textWidth / 2) }

    /// The hanging indent of a list level: two ems of body text, more for long numbers.
    func listIndent(digits: Int = 0) -> Double {
        let size = theme.style(for: .body).size
        return max(size * 2, size * (0.6 * Double(digits + 1) + 0.5))
    }

    /// Draws one paragraph of `text` in style `s` (its line height) at the context's indent,
    /// with the context's marker, destination, rule and the tag; `configure` sets the rest.
    func paragraph(_ text: AttributedText, _ s: ResolvedStyle, _ ctx: BlockContext, tag: String?, spaceBefore: Double = 0,
                   spaceAfter: Double, configure: (inout np_pdf_paragraph_style) -> Void = { _ in }) {
        var text = text
        text.trimTrailingBreak()
        var p = np_pdf_paragraph_style()
        p.left = indent(ctx)
        p.space_before = spaceBefore
        p.space_after = spaceAfter
        p.line_height = s.lineHeight
        p.tag = tag.map { UnsafePointer(strings.c($0)) }
        p.dest = ctx.dest.map { UnsafePointer(strings.c($0)) }
        var markerRun = strings.runs({ var m = AttributedText(); m.append("x", RunStyle(theme.style(for: .listMarker), color: colors.text)); return m }())[0]
        if let marker = ctx.marker { p.marker = UnsafePointer(strings.c(marker)) }
        configure(&p)
        let runs = strings.runs(text)
        let bars = ctx.bars.map { np_pdf_bar(x: $0.x, width: 3, color: PDFFonts.rgb($0.color)) }
        withUnsafePointer(to: &markerRun) { m in
            p.marker_run = m
            bars.withUnsafeBufferPointer { bars in
                p.bars = bars.baseAddress
                p.bar_count = bars.count
                text.bytes.withUnsafeBufferPointer { b in
                    b.withMemoryRebound(to: CChar.self) { chars in
                        _ = library.paragraph(handle, chars.baseAddress, chars.count, runs, runs.count, &p)
                    }
                }
            }
        }
    }
}

/// Where a block is drawn: its indent, the rules beside it, the text style role, and for the
/// block's first paragraph a marker (list number) and a link destination.
struct BlockContext {
    var left = 0.0
    var role: ThemeRole = .body
    /// The rules of the block quotes and callouts it is in, outermost first: each at `x` points
    /// from the left margin (the quote's, not the block's: a list in a quote keeps the rule
    /// where the quote's paragraphs have it).
    var bars: [(x: Double, color: RGBColor)] = []
    var marker: String?
    var dest: String?
    var listDepth = 0
}
