import Foundation
import NotepressAST
import NotepressThemes

/// Renders a ``Document`` as RTF 1.9.1 (Microsoft "Rich Text Format (RTF) Specification",
/// version 1.9.1) styled by a ``ResolvedTheme`` (issues 4 and 16).
///
/// The output is streamed through ``RTFWriter`` as the document is walked (issue 19); text reaches
/// the output only through ``RTFSerializer/appendEscapedText(_:to:)``. Page: US Letter with 1-inch margins,
/// so the text width is 6.5 inches (9360 twips). Sizes: `\fs` in half-points, spacing and
/// indents in twips (1/20 point). Output is deterministic: same document and theme, same bytes.
///
/// Every script:
/// - Fonts: one font table entry per theme font (body and heading roles, code, script, East
///   Asian), named by ``FontFamily/portableFamily`` (the family of the theme's list that exists or
///   is mapped everywhere) with `\falt` the one before it, and the RTF family class of its generic
///   family (`\fswiss`, `\froman`, `\fmodern` + `\fprq1` for code, `\fscript`).
/// - Every paragraph and run states complex-script properties next to the Latin ones (RTF 1.9.1,
///   "Character Text": `\rtlch` then `\af`/`\afs`/`\ab`/`\ai`, `\ltrch` then `\f`/`\fs`/`\b`/`\i`,
///   and `\dbch\af` for the East Asian font), in that order: Word reads the associated properties
///   by the run's script, LibreOffice by the `\rtlch`/`\ltrch` state before each keyword, and the
///   order ends every group in the Latin state. Hebrew and Arabic thus keep the size, weight and
///   slant of the Latin text around them; CJK text takes the theme's East Asian font.
/// - Paragraph direction: each paragraph, and each line of a paragraph with line breaks (note
///   lines, Markdown hard breaks: every line is a paragraph of its own), is `\rtlpar\qr` when its
///   first strong character is right-to-left (``TextDirection/base(of:)``, UAX #9 P2–P3) and
///   `\ltrpar` otherwise. (`\qr`: LibreOffice reads `\ql`/`\qr` as physical sides; a bare
///   `\rtlpar` is left-aligned there.)
package enum RTFEmitter {
    /// The text width in twips: 8.5-inch paper minus two 1-inch margins.
    package static let textWidth = 9360
    /// Indent per block-quote depth, in twips (a quarter inch).
    package static let indentStep = 360
    /// The deepest left indent in twips (half the text width): deeper containers stay there.
    package static let maxIndent = textWidth / 2
    /// RTF lists have nine levels, `\ilvl0`…`\ilvl8` (RTF 1.9.1, "Lists"); deeper lists use the last.
    package static let maxListLevel = 8

    /// Indent per list level in twips: two ems of the body size (680 twips at 17 pt), so that
    /// the marker (`10.`) fits the hanging indent at every size category; an ordered list whose
    /// largest number has `digits` digits (and a period) gets 0.6 em per character and half an
    /// em of gap when that is more (3.5 em for `1000.`), so the text never jumps to the next tab.
    package static func listIndent(_ theme: ResolvedTheme, digits: Int = 0) -> Int {
        let size = theme.style(for: .body).size
        return twips(max(size * 2, size * (0.6 * Double(digits + 1) + 0.5)))
    }

    /// The whole document as RTF text. Warnings (unknown blocks) are appended to `diagnostics`.
    /// `unsafe` (`--unsafe`) keeps dangerous link destinations live (``URLSafety``).
    /// `tableOfContents` (`--toc`, made from this document) is written after the title and date
    /// with links to its headings (``RTFBuilder/writeTableOfContents(_:)``).
    package static func render(_ document: Document, theme: ResolvedTheme, unsafe: Bool = false,
                              tableOfContents: TableOfContents? = nil, diagnostics: inout [Diagnostic]) -> String {
        String(decoding: renderBytes(document, theme: theme, unsafe: unsafe, tableOfContents: tableOfContents,
                                     diagnostics: &diagnostics), as: UTF8.self)
    }

    /// ``render(_:theme:unsafe:tableOfContents:diagnostics:)`` as UTF-8 bytes: the document as one
    /// RTF group `{\rtf1 …}` (header: font table, colour table, list table, list override table,
    /// `\info`; page setup; then the body) and a final line feed.
    /// `markerContents` (the `--toc` table, made whether or not `--toc` is on) is written where
    /// a `[TOC]` marker is (``ContentsMarker``); `nil`: a marker is warned about and kept as text.
    /// `picture` gives the picture an image's destination names (a local PNG or JPEG file,
    /// ``RTFPicture``), embedded at the image's size in place of its link; `nil`: every image is
    /// a link to its destination with its description as text.
    package static func renderBytes(_ document: Document, theme: ResolvedTheme, unsafe: Bool = false,
                                   tableOfContents: TableOfContents? = nil, markerContents: TableOfContents? = nil,
                                   picture: ((String) -> RTFPicture?)? = nil, diagnostics: inout [Diagnostic]) -> [UInt8] {
        var builder = RTFBuilder(document: document, theme: theme)
        builder.unsafe = unsafe
        builder.picture = picture
        builder.tableOfContents = tableOfContents
        builder.markerContents = markerContents
        var out = builder.build()
        diagnostics += builder.diagnostics
        out.append(0x0A)
        return out
    }

    /// `29 November 2026`: day, English month name, year, in UTC, proleptic Gregorian
    /// (``CivilDateTime/longDate``).
    package static func badgeDate(_ date: Date) -> String { CivilDateTime(date).longDate }

    /// `\fs` value for a size in points: half-points, rounded.
    package static func halfPoints(_ points: Double) -> Int { Int((points * 2).rounded()) }
    /// Twips for a length in points, rounded.
    package static func twips(_ points: Double) -> Int { Int((points * 20).rounded()) }

    /// The RTF font family keyword of a generic family (RTF 1.9.1, "Font Table"): `fswiss` for
    /// sans-serif and system-ui, `froman` for serif, `fmodern` for monospace, `fscript` for cursive.
    package static func familyClass(_ generic: GenericFamily) -> String {
        switch generic {
        case .serif: "froman"
        case .monospace: "fmodern"
        case .cursive: "fscript"
        case .sansSerif, .systemUI: "fswiss"
        }
    }
}

/// A font table entry: family name, RTF font family keyword (`fswiss`, `froman`, `fmodern`,
/// `fscript`) and the alternative for readers that honour `\falt`.
struct RTFFont: Equatable {
    var name: String
    var family: String
    var alternative: String?

    init(_ font: FontFamily, family: String? = nil) {
        name = font.portableFamily
        self.family = family ?? RTFEmitter.familyClass(font.generic)
        alternative = font.alternativeFamily
    }
}

/// One `\list` of the list table: ordered (decimal) or bullet, levels 0…`levels-1` all of the
/// same kind, numbering starting at `start`, `indent` twips of hanging indent per level.
struct RTFList {
    var ordered: Bool
    var start: Int
    var levels: Int
    var indent: Int
}

/// Where a block is written: indentation and the list/quote/footnote/table it is in.
struct BlockContext {
    /// Left indent in twips.
    var indent = 0
    /// Nesting level of lists (0 outside lists and in a top-level list's items).
    var listLevel = 0
    /// Number of enclosing block quotes.
    var quoteDepth = 0
    var inFootnote = false
    /// Space after each paragraph in twips (0 in tight lists).
    var spaceAfter = 120
    /// The colour table index of the enclosing alert's bar, if any.
    var alertColor: Int?
}

/// Writes a document. One per document.
struct RTFBuilder {
    let document: Document
    let theme: ResolvedTheme
    /// Keep dangerous link destinations live (``URLSafety``).
    var unsafe = false
    /// `--toc`: the table written after the title, made from this document's top-level headings.
    var tableOfContents: TableOfContents?
    /// The table written where a `[TOC]` marker is (``ContentsMarker``): the same entries as
    /// `--toc`'s, so its links go to the same bookmarks.
    var markerContents: TableOfContents?
    /// The picture of an image's destination, if one is embedded (``RTFEmitter/renderBytes(_:theme:unsafe:tableOfContents:markerContents:picture:diagnostics:)``).
    var picture: ((String) -> RTFPicture?)?
    var diagnostics: [Diagnostic] = []
    /// The body, written as the blocks are walked.
    var out = RTFWriter()
    /// The character properties written for each style and font so far (``writeCharProps(_:font:)``):
    /// a handful of entries, compared with == (quick for the theme's own shared strings); `last`
    /// is the entry used last (-1 before the first).
    var charPropsCache: (styles: [ResolvedStyle], fonts: [Int?], bytes: [[UInt8]], last: Int) = ([], [], [], -1)

    var fonts: [RTFFont] = []
    var lists: [RTFList] = []
    /// Footnote definitions by label.
    var footnotes: [String: [Block]] = [:]
    /// Footnote labels in document order.
    var footnoteOrder: [String] = []
    var writtenFootnotes: Set<String> = []
    /// List properties and content (list text, task box) the next paragraph starts with.
    var pendingPrefix: PendingPrefix?
    /// The bookmark of the next paragraph's block id (``RTFBlocks``), written after its prefix.
    var pendingBookmarks: [RTFNode] = []
    /// Raw HTML ids (``Block/anchors``) still to be bookmarked: those no heading or block anchor
    /// has (as in HTML, a link lands on the first), each written once; worked out at the first
    /// block that has any (``rawAnchorBookmarks(_:)``).
    var rawBookmarks: Set<String>?
    /// The colours past the fixed five, in the order of first use: alert kinds' and highlighted
    /// code roles' (``extraColor(_:)``).
    var extraColors: [RGBColor] = []

    // Colour table indices (entry 0 is "auto").
    static let colorText = 1, colorAlert = 2, colorLink = 3, colorSecondary = 4, colorCodeBackground = 5
    /// The first colour table index past the fixed five (alert kinds' and code roles' colours).
    static let colorAlertBase = 6

    /// ``font(of:)`` of every role's font, worked out once.
    let fontIndex: [(font: FontFamily, index: Int)]
    let bodyFont: Int, codeFont: Int, scriptFont: Int, eastAsianFont: Int

    init(document: Document, theme: ResolvedTheme) {
        self.document = document
        self.theme = theme
        let t = theme.theme
        var fonts = [RTFFont(theme.style(for: .body).font)]
        fonts.append(RTFFont(t.codeFont, family: "fmodern"))
        fonts.append(RTFFont(t.scriptFont))
        fonts.append(RTFFont(t.eastAsianFont))
        for role in ThemeRole.allCases where role != .code {
            let f = RTFFont(theme.style(for: role).font)
            if !fonts.contains(f) { fonts.append(f) }
        }
        self.fonts = fonts
        var index: [(font: FontFamily, index: Int)] = []
        for role in ThemeRole.allCases {
            let f = theme.style(for: role).font
            if !index.contains(where: { $0.font == f }) { index.append((f, fonts.firstIndex(of: RTFFont(f)) ?? 0)) }
        }
        fontIndex = index
        bodyFont = 0; codeFont = 1; scriptFont = 2; eastAsianFont = 3
    }

    /// The font table index of a text style's font.
    func font(of style: ResolvedStyle) -> Int {
        let font = style.font
        // A short list compared with ==, which is quick for the theme's own (shared) strings.
        for entry in fontIndex where entry.font == font { return entry.index }
        return fonts.firstIndex(of: RTFFont(font)) ?? bodyFont
    }

    /// The whole document `{\rtf1 …}`. The body is written first, into ``out`` (it decides the
    /// list and colour tables), then the header, then the body is appended to it.
    mutating func build() -> [UInt8] {
        collectFootnotes(document.blocks)
        // The header before the body ends with a control word (`\ftnnar`).
        out.pendingDelimiter = true
        titleAndBadge()
        let ctx = BlockContext()
        // The table lists the top-level headings of its levels in order: entry `next` is the
        // next top-level heading of its level.
        let entries = (tableOfContents ?? markerContents)?.entries ?? []
        if let toc = tableOfContents { writeTableOfContents(toc) }
        // A page whose headings carry their ids (a site page) lists those: a heading without one
        // came with an embedded note and is not in the table (it took the next entry's bookmark).
        let carried = !entries.isEmpty && document.carriedHeadingIDs.contains { $0 != nil }
        var next = 0
        for block in document.blocks {
            if case .footnoteDefinition = block.kind { continue }
            var marks: [RTFNode] = []
            if case .heading(let level, _) = block.kind, next < entries.count, entries[next].level == level,
               !carried || block.id == entries[next].id {
                marks += Self.bookmark(next)
                next += 1
            }
            if !marks.isEmpty { pendingPrefix = .content(marks) }
            writeBlock(block, ctx)
            // No list is open between top-level blocks.
            out.forgetZeroSpaceAfter()
        }
        // Definitions never referenced are written at the end so that no text is lost.
        for label in footnoteOrder where !writtenFootnotes.contains(label) {
            if let blocks = footnotes[label] {
                writtenFootnotes.insert(label)
                var c = ctx
                c.spaceAfter = 120
                pendingPrefix = .content([.group([.word("super"), .text(label)]), .text(" ")])
                for b in blocks { writeBlock(b, c) }
                if pendingPrefix != nil { paragraph(props: [], content: []) }
                out.forgetZeroSpaceAfter()
            }
        }
        out.newline()
        var header = RTFWriter()
        header.open()
        header.write([.word("rtf", 1), .word("ansi"), .word("ansicpg", 1252), .word("deff", 0), .word("uc", 1), .newline,
                      fontTable(), .newline, colorTable()])
        if !lists.isEmpty {
            header.newline()
            writeListTables(into: &header)
        }
        header.write([.newline, info(), .newline, .word("paperw", 12240), .word("paperh", 15840), .word("margl", 1440),
                      .word("margr", 1440), .word("margt", 1440), .word("margb", 1440), .word("ftnbj"), .word("ftnnar")])
        header.bytes.reserveCapacity(header.bytes.count + out.bytes.count + 2)
        header.bytes += out.bytes
        header.bytes.append(UInt8(ascii: "}"))
        return header.bytes
    }

    // MARK: Header

    /// `{\fonttbl …}`: per font `\fN`, family class, pitch (`\fprq1` fixed for `fmodern`, else
    /// `\fprq2` variable), `\fcharset0`, the name, and `{\*\falt NAME}` when there is one.
    func fontTable() -> RTFNode {
        var entries: [RTFNode] = [.word("fonttbl")]
        for (i, f) in fonts.enumerated() {
            // A `;` would end the entry early; font names never need one.
            let name = f.name.replacingOccurrences(of: ";", with: "")
            var entry: [RTFNode] = [.word("f", i), .word(f.family), .word("fprq", f.family == "fmodern" ? 1 : 2),
                                    .word("fcharset", 0), .text(name)]
            if let alt = f.alternative?.replacingOccurrences(of: ";", with: "") {
                entry.append(.group([.symbol("*"), .word("falt"), .text(alt)]))
            }
            entries.append(.group(entry + [.semicolon]))
        }
        return .group(entries)
    }

    func colorTable() -> RTFNode {
        let c = theme.colors
        var nodes: [RTFNode] = [.word("colortbl"), .semicolon]
        for color in [c.text, c.alert, c.link, c.secondary, c.codeBackground] + extraColors {
            nodes += [.word("red", Int(color.red)), .word("green", Int(color.green)), .word("blue", Int(color.blue)),
                      .semicolon]
        }
        return .group(nodes)
    }

    /// The colour table index of an alert kind's colour (added on first use).
    mutating func alertColor(_ kind: Alert.Kind) -> Int {
        extraColor(AlertPalette.color(kind))
    }

    /// The colour table index of `color` past the fixed five (added on first use).
    mutating func extraColor(_ color: RGBColor) -> Int {
        if let i = extraColors.firstIndex(of: color) { return Self.colorAlertBase + i }
        extraColors.append(color)
        return Self.colorAlertBase + extraColors.count - 1
    }

    /// Writes `\listtable` and `\listoverridetable` (RTF 1.9.1, "Lists"). List `i` has
    /// `\listid(i+1)` and is used through override `\ls(i+1)`. Each level carries the marker's
    /// own character formatting (the list-marker style's font and size; numbers bold, bullets
    /// not; never italic or struck), so that a number never takes the formatting of its item's text.
    func writeListTables(into w: inout RTFWriter) {
        let marker = theme.style(for: .listMarker)
        let f = font(of: marker), size = RTFEmitter.halfPoints(marker.size)
        w.open(); w.symbol("*"); w.word("listtable")
        for (i, list) in lists.enumerated() {
            w.open(); w.word("list"); w.word("listtemplateid", i + 1); w.word("listsimple", 0)
            for level in 0..<list.levels {
                w.open()
                w.word("listlevel"); w.word("levelnfc", list.ordered ? 0 : 23); w.word("levelnfcn", list.ordered ? 0 : 23)
                w.word("leveljc", 0); w.word("leveljcn", 0); w.word("levelfollow", 0)
                w.word("levelstartat", list.ordered ? list.start : 1); w.word("levelspace", 0); w.word("levelindent", 0)
                if list.ordered {
                    // Level text: length 2, the placeholder for this level, then a period.
                    w.open(); w.word("leveltext"); w.hex(2); w.hex(UInt8(level)); w.text("."); w.semicolon(); w.close()
                    w.open(); w.word("levelnumbers"); w.hex(1); w.semicolon(); w.close()
                } else {
                    w.open(); w.word("leveltext"); w.hex(1); w.text(Self.bullet(level)); w.semicolon(); w.close()
                    w.open(); w.word("levelnumbers"); w.semicolon(); w.close()
                }
                // Complex-script properties too: a right-to-left item's number is drawn with them.
                w.word("rtlch"); w.word("af", f); w.word("afs", size)
                if list.ordered { w.word("ab") } else { w.word("ab", 0) }
                w.word("ai", 0); w.word("ltrch"); w.word("f", f); w.word("fs", size)
                if list.ordered { w.word("b") } else { w.word("b", 0) }
                w.word("i", 0); w.word("strike", 0)
                let step = list.indent
                w.word("fi", -step); w.word("li", step * (level + 1)); w.word("lin", step * (level + 1))
                w.close()
            }
            w.word("listid", i + 1)
            w.close()
        }
        w.close()
        w.newline()
        w.open(); w.symbol("*"); w.word("listoverridetable")
        for i in lists.indices {
            w.open(); w.word("listoverride"); w.word("listid", i + 1); w.word("listoverridecount", 0); w.word("ls", i + 1)
            w.close()
        }
        w.close()
    }

    /// The bullet of a list level: •, ◦, ▪ in turn.
    static func bullet(_ level: Int) -> String {
        switch level % 3 {
        case 0: "\u{2022}"
        case 1: "\u{25E6}"
        default: "\u{25AA}"
        }
    }

    func info() -> RTFNode {
        var nodes: [RTFNode] = [.word("info")]
        if let title = document.metadata.title { nodes.append(.group([.word("title"), .text(title)])) }
        if let created = document.metadata.created {
            let c = CivilDateTime(created)
            nodes.append(.group([.word("creatim"), .word("yr", c.year), .word("mo", c.month), .word("dy", c.day),
                                 .word("hr", c.hour), .word("min", c.minute)]))
        }
        return .group(nodes)
    }
}
