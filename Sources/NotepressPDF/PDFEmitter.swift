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
    /// The table written where a `[TOC]` marker is (``ContentsMarker``; `--toc`'s entries): a
    /// `Contents` caption and one linked paragraph per entry; `nil`: a marker is an unknown
    /// block, written as its text.
    package var markerContents: TableOfContents?

    /// Options of `theme` on an A4 page.
    package init(theme: ResolvedTheme) { self.theme = theme }
}

/// Renders a ``Document`` as PDF through Pango and Cairo (``PDFLibrary``, issue 49): each block's
/// inline content becomes attributed text (runs of font, size, weight, colour, link), which the
/// shim lays out with Pango and places down the pages. Headings are tagged `H1`…`H6`, are link
/// destinations (their ids) and outline entries; paragraphs `P`, lists `L`/`LI`, tables `Table`,
/// images `Figure`. A footnote of paragraphs is drawn at the foot of the page of its first
/// reference (the shim); the others after the body, under a rule; each is the link destination
/// of its references. Math is shown as its TeX source in the code font.
package final class PDFEmitter {
    let library: PDFLibrary
    let handle: OpaquePointer
    let strings = PDFStrings()
    let options: PDFOptions
    let document: Document
    var theme: ResolvedTheme { options.theme }
    var colors: ThemeColors { theme.colors }
    let codeFamily: String
    /// Ids of headings and paragraphs: the targets of `#id` links.
    var destinations = Set<String>()
    /// Numbers of the footnotes that have a definition.
    var footnoteNumbers = Set<Int>()
    /// Numbers of the footnotes given to the shim for the foot of the page (those of paragraphs
    /// only; the others, and those only tables refer to, are written after the body).
    var pageFootnotes = Set<Int>()
    /// Footnote definitions by number.
    var footnotes: [(number: Int, blocks: [Block])] = []
    var diagnostics: [Diagnostic] = []
    /// Images within text already warned about (one warning per image, not per run).
    var warnedInlineImages = Set<SourcePosition>()
    /// The text width in points.
    let textWidth: Double
    /// The page number of a heading level 1 already drawn (the title is drawn only without one).
    var hasLevelOneHeading = false

    /// The document as PDF bytes. Warnings (images not embedded, unknown blocks) are appended to
    /// `diagnostics`.
    /// - Throws: ``PDFLibraryUnavailable`` when Pango and Cairo cannot be loaded, or Cairo fails.
    package static func render(_ document: Document, options: PDFOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        let library = try PDFLibrary.shared.get()
        let margins = PDFEmitter.margins(options)
        let strings = PDFStrings()
        let title = document.metadata.title
        let date = (options.date ?? document.metadata.created).map { d -> String in
            let c = CivilDateTime(d)
            return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", c.year, c.month, c.day, c.hour, c.minute, c.second)
        }
        let header = options.theme.style(.caption1)
        var setup = np_pdf_setup()
        setup.width = options.pageWidth; setup.height = options.pageHeight
        setup.top = margins; setup.bottom = margins; setup.left = margins; setup.right = margins
        setup.title = title.map { UnsafePointer(strings.c($0)) }
        setup.author = document.metadata.fields["author"].map { UnsafePointer(strings.c($0)) }
        setup.keywords = document.metadata.tags.isEmpty ? nil : UnsafePointer(strings.c(document.metadata.tags.joined(separator: ", ")))
        setup.date = date.map { UnsafePointer(strings.c($0)) }
        setup.header_family = UnsafePointer(strings.c(PDFFonts.familyList(header.font)))
        setup.header_size = min(header.size, 14)
        setup.header_color = PDFFonts.rgb(options.theme.colors.secondary)
        guard let handle = library.open(&setup) else { throw PDFLibraryUnavailable(reason: "Cairo could not start a PDF document") }
        let emitter = PDFEmitter(library: library, handle: handle, options: options, document: document)
        emitter.writeDocument()
        diagnostics += emitter.diagnostics
        var bytes: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = library.finish(handle, &bytes, &length)
        defer { library.free(bytes) }
        let out = bytes.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? []
        if status != 0 { throw PDFLibraryUnavailable(reason: "Cairo could not write the PDF: " + String(decoding: out, as: UTF8.self)) }
        return out
    }

    /// The page margins: 2 cm (the running header and page number, at most 14 pt, sit in them).
    static func margins(_ options: PDFOptions) -> Double { 56.7 }

    private init(library: PDFLibrary, handle: OpaquePointer, options: PDFOptions, document: Document) {
        self.library = library
        self.handle = handle
        self.options = options
        self.document = document
        codeFamily = PDFFonts.familyList(options.theme.theme.codeFont)
        textWidth = options.pageWidth - 2 * Self.margins(options)
    }

    /// Collects link targets and footnotes, then writes the title, the body and the footnotes.
    func writeDocument() {
        document.forEachBlock { b, _ in
            switch b.kind {
            case .heading(let level, _):
                if let id = b.id { destinations.insert(id) }
                if level == 1 { hasLevelOneHeading = true }
            case .paragraph: if let id = b.id { destinations.insert(id) }
            case .footnoteDefinition: break
            default: break
            }
        }
        collectFootnotes(document.blocks)
        registerPageFootnotes()
        library.tagBegin(handle, "Document", nil)
        if let title = document.metadata.title, !hasLevelOneHeading {
            let s = theme.style(for: .noteTitle)
            var t = AttributedText()
            t.append(title, RunStyle(s, color: colors.text))
            paragraph(t, s, BlockContext(), tag: "H1", spaceAfter: s.size * 0.6) { p in
                p.keep_with_next = 1
                p.keep_extra = self.theme.style(for: .body).lineHeight * 2
            }
        }
        for b in document.blocks { writeBlock(b, BlockContext()) }
        writeFootnotes()
        library.tagEnd(handle, "Document")
    }

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
                b.withMemoryRebound(to: CChar.self) { library.footnote(handle, Int32(number), $0.baseAddress, $0.count, runs, runs.count) }
            }
            pageFootnotes.insert(number)
        }
    }

    /// The footnotes not drawn at the foot of a page, after a rule, each with its number and a
    /// destination for its references.
    private func writeFootnotes() {
        let rest = footnotes.filter { library.footnotePlaced(handle, Int32($0.number)) == 0 }
        guard !rest.isEmpty else { return }
        library.rule(handle, 0, textWidth * 2 / 3, PDFFonts.rgb(colors.secondary), 0.5)
        for (number, blocks) in rest {
            var ctx = BlockContext()
            ctx.role = .footnote
            ctx.left = listIndent()
            ctx.marker = "\(number)."
            ctx.dest = "fn-\(number)"
            for b in blocks {
                writeBlock(b, ctx)
                ctx.marker = nil
                ctx.dest = nil
            }
        }
    }

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
        if let rule = ctx.rule {
            p.has_rule = 1; p.rule = PDFFonts.rgb(rule); p.rule_x = ctx.ruleOffset; p.rule_width = 3
        }
        var markerRun = strings.runs({ var m = AttributedText(); m.append("x", RunStyle(theme.style(for: .listMarker), color: colors.text)); return m }())[0]
        if let marker = ctx.marker { p.marker = UnsafePointer(strings.c(marker)) }
        configure(&p)
        let runs = strings.runs(text)
        withUnsafePointer(to: &markerRun) { m in
            p.marker_run = m
            text.bytes.withUnsafeBufferPointer { b in
                b.withMemoryRebound(to: CChar.self) { chars in
                    _ = library.paragraph(handle, chars.baseAddress, chars.count, runs, runs.count, &p)
                }
            }
        }
    }
}

/// Where a block is drawn: its indent, the rule beside it, the text style role, and for the
/// block's first paragraph a marker (list number) and a link destination.
struct BlockContext {
    var left = 0.0
    var role: ThemeRole = .body
    var rule: RGBColor?
    var ruleOffset = 0.0
    var marker: String?
    var dest: String?
    var listDepth = 0
}
