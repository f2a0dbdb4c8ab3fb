import Foundation
import NotepressAST
import NotepressThemes

/// Options of the terminal emitter.
package struct ANSIOptions: Sendable {
    /// Output width in terminal columns (at least 1). No line is wider, code blocks included:
    /// their long lines are cut.
    package var width: Int
    /// How many colours SGR may use; `.none` writes no SGR at all.
    package var colorDepth: ColorDepth
    /// Write links as OSC 8 hyperlinks (`ESC ] 8 ; ; URL ESC \` … `ESC ] 8 ; ; ESC \`); otherwise
    /// the URL follows the link text in parentheses.
    package var hyperlinks: Bool
    /// ASCII only for drawing: `+-|` table borders, `|` quote bars, `[ ]`/`[x]` task boxes,
    /// `*`/`-` bullets.
    package var ascii: Bool
    /// The theme: colours at truecolor/256 depth, and the body weight (Bold Text).
    package var theme: ResolvedTheme
    /// Keep dangerous link and image destinations (`--unsafe`; ``URLSafety``): without it such a
    /// link is its text alone, with neither an OSC 8 link nor the URL after it.
    package var unsafe: Bool
    /// `--toc`: written after the title and date (see ``ANSIEmitter``); `nil` for none.
    package var tableOfContents: TableOfContents?
    /// The table written where a `[TOC]` marker is (``ContentsMarker``; `--toc`'s entries);
    /// `nil`: a marker is an unknown block, written as its text.
    package var markerContents: TableOfContents?
    /// The colours of highlighted code at 256 colours and truecolour (the theme's light or dark
    /// code palette, as the terminal's background is); `nil`: the theme's light one.
    package var codePalette: CodePalette?

    package init(width: Int = 80, colorDepth: ColorDepth = .none, hyperlinks: Bool = false,
                ascii: Bool = false, theme: ResolvedTheme = Theme.standard.resolved(), unsafe: Bool = false) {
        self.width = width; self.colorDepth = colorDepth; self.hyperlinks = hyperlinks
        self.ascii = ascii; self.theme = theme; self.unsafe = unsafe
    }
}

/// Renders a document for a terminal: SGR styles from ``TerminalStyleTable``, text wrapped at
/// ``ANSIOptions/width`` columns (``TerminalWidth``), all document text through
/// ``TerminalText/visible(_:tabs:)``.
///
/// Layout:
/// - The document title (metadata `title`) comes first, as letterpress: bold, with a dim shadow
///   line of `─` (`-` in ASCII) of the title's width under it; then the created date
///   (`YYYY-MM-DD`, UTC) in the caption style (dim). A heading or paragraph made entirely of
///   `.letterpress` runs gets the same shadow line; letterpress runs inside other text are bold.
/// - With a table of contents (``ANSIOptions/tableOfContents``), after the title and date:
///   `Contents` in the subheadline style (bold), then one line per entry, indented two columns
///   more than its parent (the outermost two; at most half the width), wrapped lines hanging at
///   the same indent.
/// - Headings start with `#` × level (dim), are bold, and hang their wrapped lines under the
///   text; a rule as wide as the text follows heading 1 (`━`, `=` in ASCII) and heading 2 (`─`,
///   `-`), so the levels read h1 > h2 > h3 (``TerminalRole``).
/// - Alerts (`[!NOTE]` …): a bar `┃ ` (`| `) in the kind's colour before every line, the title
///   (`Note`) bold in that colour first.
/// - Blocks are separated by one blank line (none between blocks of a tight list).
/// - Block quotes: each line starts with `│ ` (`| ` in ASCII).
/// - List items hang under their marker (`•`, `◦`, `▪` by depth; `*`, `-`, `+` in ASCII; `N.`
///   for ordered lists, bold); task items show `☐`/`☑` (`[ ]`/`[x]`).
/// - Code blocks are indented two columns, tabs expanded to 4-column stops, and never re-wrapped:
///   a line wider than the room left is cut and ends with `…`.
/// - Lines break where UAX #14 allows (``LineFiller``, ``LineBreaks``); a piece with no break
///   opportunity that is wider than the line is broken between grapheme clusters.
/// - Tables use box drawing (`+-|` in ASCII); columns keep their alignment and shrink (widest
///   first, never under 2 columns) until the table fits, cells wrapping inside. A table that
///   cannot fit even so is written as one `header: cell` line per cell, rows separated by blank lines.
/// - Footnote definitions are gathered at the end under a rule, as `[N] text`; references are `[N]`.
/// - Lines never end with spaces. Raw HTML is dropped.
package enum ANSIEmitter {
    /// The rendered document: lines joined by `"\n"`, ending with `"\n"`.
    package static func render(_ document: Document, options: ANSIOptions, diagnostics: inout [Diagnostic]) -> String {
        String(decoding: renderBytes(document, options: options, diagnostics: &diagnostics), as: UTF8.self)
    }

    /// ``render(_:options:diagnostics:)`` as UTF-8 bytes, written into one byte buffer.
    package static func renderBytes(_ document: Document, options: ANSIOptions, diagnostics: inout [Diagnostic]) -> [UInt8] {
        var r = Renderer(options: options, path: document.metadata.sourcePath)
        let out = r.document(document)
        diagnostics += r.diagnostics
        return out
    }
}

struct Renderer {
    let options: ANSIOptions
    let path: String?
    var diagnostics: [Diagnostic] = []
    var footnotes: [(label: String, blocks: [Block])] = []
    let sgr: SGR
    let body: TerminalStyle
    /// SGR sequences already made, by style (a document uses a handful of styles).
    let sgrCache = SGRCache()
    /// The inline roles' styles in this theme (``style(for:base:)``).
    let roleStyles: InlineRoleStyles
    var listDepth = 0

    init(options: ANSIOptions, path: String?) {
        self.options = options
        self.path = path
        sgr = SGR(depth: options.colorDepth, colors: options.theme.colors)
        body = TerminalStyle(bold: options.theme.style(for: .body).weight.isBold)
        roleStyles = InlineRoleStyles(theme: options.theme.theme)
    }

    var ascii: Bool { options.ascii }

    // MARK: Document

    mutating func document(_ d: Document) -> [UInt8] {
        let width = max(options.width, 1)
        var lines: [Line] = []
        // A title taken from the body's first heading is shown there, not twice.
        if let title = d.metadata.title, !title.isEmpty, d.metadata.titleSource != .firstHeading {
            let style = body.merged(TerminalStyleTable.style(.headline)).merged(TerminalStyleTable.style(.letterpress))
            lines += withShadow(textLines(title, style: style, width: width))
        }
        if let created = d.metadata.created {
            lines += textLines(Self.date(created), style: body.merged(TerminalStyleTable.style(.caption)), width: width)
        }
        // Each top-level block is rendered as soon as it is laid out, so only one block's lines
        // are held at a time; the text is what `blocks(d.blocks, …)` joined would give.
        var out = OutputBytes()
        var separate = false
        write(lines, into: &out, separate: &separate)
        var wroteAny = !lines.isEmpty
        lines = []
        if let toc = options.tableOfContents, !toc.isEmpty {
            if wroteAny { write([[]], into: &out, separate: &separate) }
            write(tableOfContents(toc, width: width), into: &out, separate: &separate)
            wroteAny = true
        }
        for b in d.blocks {
            let bl = block(b, width: width)
            if bl.isEmpty { continue }
            if wroteAny { write([[]], into: &out, separate: &separate) }
            write(bl, into: &out, separate: &separate)
            wroteAny = true
        }
        if !footnotes.isEmpty {
            var notes: [Line] = []
            var i = 0
            while i < footnotes.count {  // a footnote may define more footnotes
                let (_, bs) = footnotes[i]
                i += 1
                let marker = "[\(i)] "
                notes += hang(blocks(bs, width: width - marker.count, tight: false), marker: [Seg(marker, body.merged(TerminalStyleTable.style(.footnoteReference)))],
                              width: width)
            }
            if wroteAny { lines.append([]) }
            lines.append([Seg(repeating: ascii ? "-" : "─", count: min(width, 20), TerminalStyleTable.style(.rule))])
            lines += notes
        }
        write(lines, into: &out, separate: &separate)
        out.append(0x0A)
        return out.finish()
    }

    /// The table of contents: caption and indented entries (see ``ANSIEmitter``).
    func tableOfContents(_ toc: TableOfContents, width: Int) -> [Line] {
        var lines = textLines("Contents", style: body.merged(TerminalStyleTable.style(.subheadline)), width: width)
        for e in toc.entries {
            let indent = min(2 * (e.depth + 1), width / 2)
            for l in textLines(e.text, style: body, width: max(width - indent, 1)) {
                lines.append(indent > 0 && !l.isEmpty ? [Seg(spaces(indent))] + l : l)
            }
        }
        return lines
    }

    /// Plain text (a title, a date) in one style, escaped and wrapped like a paragraph.
    func textLines(_ text: String, style: TerminalStyle, width: Int) -> [Line] {
        var f = LineFiller(width: width)
        f.appendText(TerminalText.visible(text), style, nil)
        f.endWord()
        return f.finish()
    }

    /// `YYYY-MM-DD` of `d` in UTC (``CivilDateTime``, proleptic Gregorian).
    static func date(_ d: Date) -> String { CivilDateTime(d).isoDate }

    /// Lines followed by the letterpress shadow: `─` as wide as the widest line.
    func withShadow(_ lines: [Line]) -> [Line] {
        let w = lines.map(lineWidth).max() ?? 0
        guard w > 0 else { return lines }
        return lines + [[Seg(repeating: ascii ? "-" : "─", count: w, TerminalStyleTable.style(.letterpressShadow))]]
    }
}
