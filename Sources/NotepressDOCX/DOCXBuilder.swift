import Foundation
import NotepressAST
import NotepressContainer
import NotepressThemes

/// Where a block is written: indentation and the list, quote, footnote or callout it is in.
struct DOCXContext {
    /// Left indent in twips.
    var indent = 0
    /// Nesting level of lists (0 outside lists and in a top-level list's items).
    var listLevel = 0
    /// Number of enclosing block quotes.
    var quoteDepth = 0
    var inFootnote = false
    /// Space after each paragraph in twips (0 in tight lists).
    var spaceAfter = 120
    /// The list instance (`w:numId`) and abstract numbering of the enclosing list, if any: a
    /// nested list is a level of the same list, as Word and LibreOffice nest them.
    var list: (id: Int, abstract: Int)?
    /// The colour of the enclosing callout's border, if any.
    var calloutColor: RGBColor?
}

/// A paragraph's own properties (`w:pPr`), written in the schema's order.
struct DOCXParagraph {
    var style: String?
    var keepNext = false
    /// `w:numId` and `w:ilvl` of a list item's first paragraph.
    var numbering: (id: Int, level: Int)?
    /// A box in this colour (callouts) or a rule below (thematic breaks).
    var border: RGBColor?
    var ruleBelow: RGBColor?
    var shading: RGBColor?
    var rightToLeft = false
    var spaceAfter: Int?
    var indent = 0
    var hanging = 0
    /// `left`, `center`, `right` (table cells).
    var alignment: String?
}

/// A run's own properties (`w:rPr`), written in the schema's order.
struct DOCXRun {
    var style: String?
    var font: String?
    var bold = false
    var italic = false
    var strike = false
    var imprint = false
    var color: RGBColor?
    var size: Int?
    var highlight = false
    var underline = false
    /// `superscript` or `subscript`.
    var vertical: String?
    var rightToLeft = false

    var isPlain: Bool {
        style == nil && font == nil && !bold && !italic && !strike && !imprint && color == nil && size == nil
            && !highlight && !underline && vertical == nil && !rightToLeft
    }
}

/// Writes one document's body and footnotes (see ``DOCXEmitter``), walking the AST once.
final class DOCXBuilder {
    let document: Document
    /// The input file as read, where relative image paths start (a folder run's pages carry a
    /// ``DocumentMetadata/sourcePath`` below the input folder); `nil`: that path.
    var sourceFile: String?
    let theme: ResolvedTheme
    var unsafe = false
    var tableOfContents: TableOfContents?
    /// The table written where a `[TOC]` marker is (``ContentsMarker``): `--toc`'s entries, so
    /// its links go to the same bookmarks.
    var markerContents: TableOfContents?
    var diagnostics: [Diagnostic] = []
    let body = XMLStreamWriter(standalone: true)
    let notes = XMLStreamWriter(standalone: true)
    /// The part being written: ``body``, or ``notes`` inside a footnote.
    var x: XMLStreamWriter
    var relationships: [DOCXRelationship] = []
    var hyperlinkIDs: [String: String] = [:]
    var media: [DOCXMedia] = []
    /// Images read so far by resolved path: their relationship and header (`nil`: unusable).
    var imagesByPath: [String: (id: String, header: ImageHeader)?] = [:]
    var abstractLists: [DOCXAbstractList] = []
    var lists: [DOCXList] = []
    /// The numberings of task boxes (``taskNumbering(checked:)``): checked or not → `w:num` id.
    var taskLists: [Bool: Int] = [:]
    /// A site run's link report says which images are missing: not said again here.
    var missingImagesReported = false
    var footnotes: [String: [Block]] = [:]
    var footnoteOrder: [String] = []
    var writtenFootnotes: Set<String> = []
    var footnoteCount = 0
    var bookmarkCount = 0
    var drawingCount = 0
    /// What the next paragraph starts with: bookmarks, a footnote's mark, a task box.
    var pendingBookmarks: [String] = []
    var pendingFootnoteMark = false
    var pendingTask: ListItem.TaskState?
    var pendingNumbering: (id: Int, level: Int, hanging: Int)?
    var writtenBookmarks: Set<String> = []
    /// Raw HTML ids (``Block/anchors``) no block has, still to be bookmarked (as RTF).
    var rawBookmarks: Set<String>?

    init(document: Document, theme: ResolvedTheme) {
        self.document = document
        self.theme = theme
        x = body
    }

    var mediaKinds: [ImageHeader.Kind] { media.map(\.kind) }

    /// `word/document.xml`: the title and date, the table of contents, the blocks, footnote
    /// definitions never referenced, the section's page setup.
    func buildDocument() -> [UInt8] {
        collectFootnotes(document.blocks)
        notes.start("w:footnotes", ["xmlns:w": DOCXParts.w, "xmlns:r": DOCXParts.officeRelationships,
                                    "xmlns:wp": Self.wpNS, "xmlns:a": Self.drawingNS, "xmlns:pic": Self.pictureNS])
        for (id, type) in [("-1", "separator"), ("0", "continuationSeparator")] {
            notes.start("w:footnote", ["w:type": type, "w:id": id])
            notes.start("w:p"); notes.start("w:pPr"); notes.element("w:spacing", ["w:after": "0", "w:line": "240", "w:lineRule": "auto"])
            notes.end(); notes.start("w:r"); notes.element("w:" + type); notes.end(); notes.end()
            notes.end()
        }
        body.start("w:document", ["xmlns:w": DOCXParts.w, "xmlns:r": DOCXParts.officeRelationships,
                                  "xmlns:wp": Self.wpNS, "xmlns:a": Self.drawingNS, "xmlns:pic": Self.pictureNS])
        body.start("w:body")
        titleAndDate()
        let entries = (tableOfContents ?? markerContents)?.entries ?? []
        if let toc = tableOfContents { writeTableOfContents(toc) }
        let carried = !entries.isEmpty && document.carriedHeadingIDs.contains { $0 != nil }
        var next = 0
        let ctx = DOCXContext()
        for block in document.blocks {
            if case .footnoteDefinition = block.kind { continue }
            if case .heading(let level, _) = block.kind, next < entries.count, entries[next].level == level,
               !carried || block.id == entries[next].id {
                pendingBookmarks.append(Self.tocBookmark(next))
                next += 1
            }
            writeBlock(block, ctx)
        }
        // Definitions never referenced are written at the end so that no text is lost.
        for label in footnoteOrder where !writtenFootnotes.contains(label) {
            guard let blocks = footnotes[label] else { continue }
            writtenFootnotes.insert(label)
            beginParagraph(DOCXParagraph(style: "FootnoteText"), DOCXContext())
            run(label, DOCXRun(style: "FootnoteReference"))
            endParagraph()
            for b in blocks { writeBlock(b, ctx) }
        }
        body.start("w:sectPr")
        body.element("w:pgSz", ["w:w": "12240", "w:h": "15840"])
        body.element("w:pgMar", ["w:top": "1440", "w:right": "1440", "w:bottom": "1440", "w:left": "1440",
                                 "w:header": "720", "w:footer": "720", "w:gutter": "0"])
        body.end()
        body.end()
        body.end()
        return body.bytes()
    }

    /// `word/footnotes.xml`, after ``buildDocument()``.
    func finishFootnotes() -> [UInt8] {
        notes.end()
        return notes.bytes()
    }

    static let wpNS = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
    static let drawingNS = "http://schemas.openxmlformats.org/drawingml/2006/main"
    static let pictureNS = "http://schemas.openxmlformats.org/drawingml/2006/picture"

    /// The title (unless it is the body's first heading) in the Title style, then the
    /// document's date in the Date style.
    func titleAndDate() {
        let m = document.metadata
        if let title = m.title, m.titleSource != .firstHeading {
            var p = DOCXParagraph(style: "Title")
            p.rightToLeft = TextDirection.base(of: title) == .rightToLeft
            beginParagraph(p, DOCXContext())
            run(title, DOCXRun())
            endParagraph()
        }
        if let created = m.created {
            beginParagraph(DOCXParagraph(style: "Date"), DOCXContext())
            run(CivilDateTime(created).longDate, DOCXRun())
            endParagraph()
        }
    }

    // MARK: Paragraphs and runs

    /// Opens a paragraph: its properties (the context's indent and callout box merged in), then
    /// what is pending (a list item's numbering, bookmarks, a footnote's mark, a task box).
    func beginParagraph(_ paragraph: DOCXParagraph, _ ctx: DOCXContext) {
        var p = paragraph
        if p.indent == 0 { p.indent = min(ctx.indent, DOCXEmitter.maxIndent) }
        if p.spaceAfter == nil { p.spaceAfter = ctx.spaceAfter }
        if p.border == nil { p.border = ctx.calloutColor }
        if let n = pendingNumbering {
            p.numbering = (n.id, n.level)
            p.hanging = n.hanging
            pendingNumbering = nil
        }
        x.start("w:p")
        writeParagraphProperties(p)
        for name in pendingBookmarks where writtenBookmarks.insert(name).inserted {
            let id = String(bookmarkCount)
            bookmarkCount += 1
            x.element("w:bookmarkStart", ["w:id": id, "w:name": name])
            x.element("w:bookmarkEnd", ["w:id": id])
        }
        pendingBookmarks.removeAll()
        if pendingFootnoteMark {
            pendingFootnoteMark = false
            x.start("w:r"); x.start("w:rPr"); x.element("w:rStyle", ["w:val": "FootnoteReference"]); x.end()
            x.element("w:footnoteRef"); x.end()
            run(" ", DOCXRun())
        }
        if let task = pendingTask {
            pendingTask = nil
            run(task == .checked ? "\u{2612} " : "\u{2610} ", DOCXRun())
        }
    }

    func endParagraph() { x.end() }

    /// A paragraph of its own for what is pending (an empty list item, a list item that starts
    /// with a table or a list).
    func flushPending(_ ctx: DOCXContext) {
        guard pendingNumbering != nil || pendingTask != nil || pendingFootnoteMark || !pendingBookmarks.isEmpty else { return }
        var p = DOCXParagraph()
        p.spaceAfter = 0
        beginParagraph(p, ctx)
        endParagraph()
    }

    func writeParagraphProperties(_ p: DOCXParagraph) {
        x.start("w:pPr")
        if let s = p.style { x.element("w:pStyle", ["w:val": s]) }
        if p.keepNext { x.element("w:keepNext") }
        if let n = p.numbering {
            x.start("w:numPr")
            x.element("w:ilvl", ["w:val": String(n.level)])
            x.element("w:numId", ["w:val": String(n.id)])
            x.end()
        }
        if p.border != nil || p.ruleBelow != nil {
            x.start("w:pBdr")
            if let c = p.border {
                for side in ["top", "left", "bottom", "right"] {
                    x.element("w:" + side, ["w:val": "single", "w:sz": side == "left" ? "24" : "8", "w:space": "4",
                                            "w:color": DOCXEmitter.hex(c)])
                }
            } else if let c = p.ruleBelow {
                x.element("w:bottom", ["w:val": "single", "w:sz": "6", "w:space": "1", "w:color": DOCXEmitter.hex(c)])
            }
            x.end()
        }
        if let c = p.shading { x.element("w:shd", ["w:val": "clear", "w:color": "auto", "w:fill": DOCXEmitter.hex(c)]) }
        if p.rightToLeft { x.element("w:bidi") }
        if let after = p.spaceAfter { x.element("w:spacing", ["w:after": String(after)]) }
        if p.indent > 0 || p.hanging > 0 {
            x.start("w:ind", ["w:left": String(p.indent)])
            if p.hanging > 0 { x.attribute("w:hanging", String(p.hanging)) }
            x.end()
        }
        if let a = p.alignment { x.element("w:jc", ["w:val": a]) }
        x.end()
    }

    /// One run of `text` (tabs as `w:tab`, every space kept).
    func run(_ text: String, _ r: DOCXRun) {
        x.start("w:r")
        if !r.isPlain { writeRunProperties(r) }
        var first = true
        for piece in text.split(separator: "\t", omittingEmptySubsequences: false) {
            if !first { x.element("w:tab") }
            first = false
            if !piece.isEmpty { x.element("w:t", ["xml:space": "preserve"], text: String(piece)) }
        }
        x.end()
    }

    func writeRunProperties(_ r: DOCXRun) {
        x.start("w:rPr")
        if let s = r.style { x.element("w:rStyle", ["w:val": s]) }
        if let f = r.font { x.element("w:rFonts", ["w:ascii": f, "w:hAnsi": f, "w:cs": f]) }
        if r.bold { x.element("w:b"); x.element("w:bCs") }
        if r.italic { x.element("w:i"); x.element("w:iCs") }
        if r.strike { x.element("w:strike") }
        if r.imprint { x.element("w:imprint") }
        if let c = r.color { x.element("w:color", ["w:val": DOCXEmitter.hex(c)]) }
        if let s = r.size { x.element("w:sz", ["w:val": String(s)]); x.element("w:szCs", ["w:val": String(s)]) }
        if r.highlight { x.element("w:highlight", ["w:val": "yellow"]) }
        if r.underline { x.element("w:u", ["w:val": "single"]) }
        if let v = r.vertical { x.element("w:vertAlign", ["w:val": v]) }
        if r.rightToLeft { x.element("w:rtl") }
        x.end()
    }

    /// A warning about this document at `position`.
    func warn(_ message: String, at position: SourcePosition?) {
        diagnostics.append(Diagnostic(.warning, "DOCX: " + message, file: document.metadata.sourcePath, position: position))
    }
}
