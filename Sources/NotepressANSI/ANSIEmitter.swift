import Foundation
import NotepressAST
import NotepressThemes

/// Options of the terminal emitter.
public struct ANSIOptions: Sendable {
    /// Output width in terminal columns (at least 1). No line is wider, code blocks included:
    /// their long lines are cut.
    public var width: Int
    /// How many colours SGR may use; `.none` writes no SGR at all.
    public var colorDepth: TerminalColorDepth
    /// Write links as OSC 8 hyperlinks (`ESC ] 8 ; ; URL ESC \` … `ESC ] 8 ; ; ESC \`); otherwise
    /// the URL follows the link text in parentheses.
    public var hyperlinks: Bool
    /// ASCII only for drawing: `+-|` table borders, `|` quote bars, `[ ]`/`[x]` task boxes,
    /// `*`/`-` bullets.
    public var ascii: Bool
    /// The theme: colours at truecolor/256 depth, and the body weight (Bold Text).
    public var theme: ResolvedTheme

    public init(width: Int = 80, colorDepth: TerminalColorDepth = .none, hyperlinks: Bool = false,
                ascii: Bool = false, theme: ResolvedTheme = Theme.standard.resolved()) {
        self.width = width; self.colorDepth = colorDepth; self.hyperlinks = hyperlinks
        self.ascii = ascii; self.theme = theme
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
/// - Headings start with `#` × level (dim) and hang their wrapped lines under the text.
/// - Blocks are separated by one blank line (none between blocks of a tight list).
/// - Block quotes: each line starts with `│ ` (`| ` in ASCII).
/// - List items hang under their marker (`•`, `◦`, `▪` by depth; `*`, `-`, `+` in ASCII; `N.`
///   for ordered lists); task items show `☐`/`☑` (`[ ]`/`[x]`).
/// - Code blocks are indented two columns, tabs expanded to 4-column stops, and never re-wrapped:
///   a line wider than the room left is cut and ends with `…`.
/// - Words wider than the line are broken between grapheme clusters.
/// - Tables use box drawing (`+-|` in ASCII); columns keep their alignment and shrink (widest
///   first, never under 2 columns) until the table fits, cells wrapping inside. A table that
///   cannot fit even so is written as one `header: cell` line per cell, rows separated by blank lines.
/// - Footnote definitions are gathered at the end under a rule, as `[N] text`; references are `[N]`.
/// - Lines never end with spaces. Raw HTML is dropped.
public enum ANSIEmitter {
    /// The rendered document: lines joined by `"\n"`, ending with `"\n"`.
    public static func render(_ document: Document, options: ANSIOptions, diagnostics: inout [Diagnostic]) -> String {
        var r = Renderer(options: options, path: document.metadata.sourcePath)
        let out = r.document(document)
        diagnostics += r.diagnostics
        return out
    }
}

/// A styled piece of one output line.
struct Seg {
    var text: String
    var style: TerminalStyle
    /// The OSC 8 target (already made safe), if any.
    var link: String?
    var width: Int

    init(_ text: String, _ style: TerminalStyle = TerminalStyle(), link: String? = nil) {
        self.text = text; self.style = style; self.link = link
        self.width = TerminalWidth.columns(text)
    }
}

typealias Line = [Seg]

/// Greedy wrapping, fed one piece at a time: words separated by single spaces (a space takes the
/// style and link of the last space token before the word), a word wider than `width` broken
/// between grapheme clusters. No token list: the current word (its pieces merged by style and
/// link) and the current line are the only state besides the finished lines (one ``Seg`` per
/// style change each), which ``Renderer/document(_:)`` renders block by block. ASCII text is
/// split at space bytes and measured by its byte count. Adjacent pieces of a line with the same
/// style and link share one ``Seg`` (rendering is the same: SGR and OSC 8 are written only where
/// style or link change).
fileprivate struct LineFiller {
    let width: Int
    var lines: [Line] = []
    var cur: Line = []
    var curW = 0
    var pending: (TerminalStyle, String?)?
    /// The current word's pieces (kept allocated between words).
    var word: [Seg] = []
    var wordW = 0
    /// The width of the widest word placed so far.
    var widestWord = 0

    init(width: Int) { self.width = max(width, 1) }

    /// Appends `text` (no spaces in it) of `width` columns to the current word.
    mutating func appendPiece<S: StringProtocol>(_ text: S, width w: Int, _ style: TerminalStyle, _ link: String?) {
        if !word.isEmpty, word[word.count - 1].style == style, word[word.count - 1].link == link {
            word[word.count - 1].text.append(contentsOf: text)
            word[word.count - 1].width += w
        } else {
            var s = Seg("", style, link: link)
            s.text.append(contentsOf: text); s.width = w
            word.append(s)
        }
        wordW += w
    }

    /// Appends `text` to the current word as `Word.append(_:_:_:)` does: spaces are part of it.
    mutating func appendCharacters(_ text: String, _ style: TerminalStyle, _ link: String?) {
        appendPiece(text, width: TerminalWidth.columns(text), style, link)
    }

    /// Text that is already visible (``TerminalText/visible(_:tabs:)``): words split at space
    /// Characters, each a space token.
    mutating func appendText(_ text: String, _ style: TerminalStyle, _ link: String?) {
        var text = text
        let ascii: Bool? = text.withUTF8 { buf in
            var i = 0
            let n = buf.count
            while i < n {
                if buf[i] >= 0x80 { return false }
                i += 1
            }
            i = 0
            while i < n {
                if buf[i] == 0x20 {
                    endWord(); space(style, link)
                    i += 1
                    continue
                }
                let start = i
                while i < n && buf[i] != 0x20 { i += 1 }
                // After `visible`, every ASCII byte other than the space is printable: 1 column.
                appendPiece(String(decoding: UnsafeBufferPointer(rebasing: buf[start..<i]), as: UTF8.self),
                            width: i - start, style, link)
            }
            return true
        }
        if ascii == true { return }
        // Non-ASCII: split between grapheme clusters, as `Character` iteration does (a space
        // followed by a combining mark is no space).
        var start = text.startIndex
        var i = start
        while i < text.endIndex {
            let next = text.index(after: i)
            if text[i] == " " {
                if start < i { appendPiece(text[start..<i], width: TerminalWidth.columns(text[start..<i]), style, link) }
                endWord(); space(style, link)
                start = next
            }
            i = next
        }
        if start < text.endIndex {
            appendPiece(text[start...], width: TerminalWidth.columns(text[start...]), style, link)
        }
    }

    mutating func space(_ style: TerminalStyle, _ link: String?) {
        if !cur.isEmpty { pending = (style, link) }
    }

    mutating func hardBreak() {
        lines.append(cur); cur = []; curW = 0; pending = nil
    }

    /// Ends the current word (if any) and places it.
    mutating func endWord() {
        guard !word.isEmpty else { return }
        widestWord = max(widestWord, wordW)
        if cur.isEmpty {
            place()
        } else if curW + 1 + wordW <= width {
            let (s, l) = pending ?? (TerminalStyle(), nil)
            add(" ", width: 1, s, l); curW += 1
            place()
        } else {
            lines.append(cur); cur = []; curW = 0
            place()
        }
        pending = nil
        word.removeAll(keepingCapacity: true)
        wordW = 0
    }

    private mutating func add<S: StringProtocol>(_ text: S, width w: Int, _ style: TerminalStyle, _ link: String?) {
        if !cur.isEmpty, cur[cur.count - 1].style == style, cur[cur.count - 1].link == link {
            cur[cur.count - 1].text.append(contentsOf: text); cur[cur.count - 1].width += w
        } else {
            var s = Seg("", style, link: link)
            s.text.append(contentsOf: text); s.width = w
            cur.append(s)
        }
    }

    private mutating func place() {
        if curW + wordW <= width {
            for seg in word { add(seg.text, width: seg.width, seg.style, seg.link) }
            curW += wordW
            return
        }
        for seg in word {
            for c in seg.text {
                let cw = TerminalWidth.columns(c)
                if curW + cw > width && curW > 0 { lines.append(cur); cur = []; curW = 0 }
                if !cur.isEmpty, cur[cur.count - 1].style == seg.style, cur[cur.count - 1].link == seg.link {
                    cur[cur.count - 1].text.append(c); cur[cur.count - 1].width += cw
                } else {
                    var s = Seg("", seg.style, link: seg.link); s.text.append(c); s.width = cw
                    cur.append(s)
                }
                curW += cw
            }
        }
    }

    mutating func finish() -> [Line] {
        if !cur.isEmpty || lines.isEmpty { lines.append(cur) }
        return lines
    }
}

/// The sequences ``SGR/sequence(_:)`` made for one renderer (which runs on one thread).
final class SGRCache {
    private var made: [(TerminalStyle, String)] = []

    func sequence(_ style: TerminalStyle, _ sgr: SGR) -> String {
        for (s, q) in made where s == style { return q }
        let q = sgr.sequence(style)
        made.append((style, q))
        return q
    }
}

/// Runs of spaces up to 128, made once.
private let spaceRuns: [String] = (0...128).map { String(repeating: " ", count: $0) }

/// `n` spaces (`n` ≥ 0).
private func spaces(_ n: Int) -> String { n <= 128 ? spaceRuns[n] : String(repeating: " ", count: n) }

private func lineWidth(_ l: Line) -> Int { l.reduce(0) { $0 + $1.width } }

struct Renderer {
    let options: ANSIOptions
    let path: String?
    var diagnostics: [Diagnostic] = []
    var footnotes: [(label: String, blocks: [Block])] = []
    let sgr: SGR
    let body: TerminalStyle
    /// SGR sequences already made, by style (a document uses a handful of styles).
    let sgrCache = SGRCache()

    init(options: ANSIOptions, path: String?) {
        self.options = options
        self.path = path
        sgr = SGR(depth: options.colorDepth, colors: options.theme.colors)
        body = TerminalStyle(bold: options.theme.style(for: .body).weight.isBold)
    }

    var ascii: Bool { options.ascii }

    // MARK: Document

    mutating func document(_ d: Document) -> String {
        let width = max(options.width, 1)
        var lines: [Line] = []
        if let title = d.metadata.title, !title.isEmpty {
            let style = body.merged(TerminalStyleTable.style(.headline)).merged(TerminalStyleTable.style(.letterpress))
            lines += withShadow(textLines(title, style: style, width: width))
        }
        if let created = d.metadata.created {
            lines += textLines(Self.date(created), style: body.merged(TerminalStyleTable.style(.caption)), width: width)
        }
        // Each top-level block is rendered as soon as it is laid out, so only one block's lines
        // are held at a time; the text is what `blocks(d.blocks, …)` joined would give.
        var out = ""
        var separate = false
        write(lines, into: &out, separate: &separate)
        var wroteAny = !lines.isEmpty
        lines = []
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
            lines.append([Seg(String(repeating: ascii ? "-" : "─", count: min(width, 20)), TerminalStyleTable.style(.rule))])
            lines += notes
        }
        write(lines, into: &out, separate: &separate)
        out.append("\n")
        return out
    }

    /// Plain text (a title, a date) in one style, escaped and wrapped like a paragraph.
    func textLines(_ text: String, style: TerminalStyle, width: Int) -> [Line] {
        var f = LineFiller(width: width)
        f.appendText(TerminalText.visible(text), style, nil)
        f.endWord()
        return f.finish()
    }

    static func date(_ d: Date) -> String {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: "UTC")!
        let c = cal.dateComponents([.year, .month, .day], from: d)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(c.year ?? 0)-\(two(c.month ?? 1))-\(two(c.day ?? 1))"
    }

    /// Lines followed by the letterpress shadow: `─` as wide as the widest line.
    func withShadow(_ lines: [Line]) -> [Line] {
        let w = lines.map(lineWidth).max() ?? 0
        guard w > 0 else { return lines }
        return lines + [[Seg(String(repeating: ascii ? "-" : "─", count: w), TerminalStyleTable.style(.letterpressShadow))]]
    }

    // MARK: Blocks

    mutating func blocks(_ bs: [Block], width: Int, tight: Bool) -> [Line] {
        var out: [Line] = []
        for b in bs {
            let lines = block(b, width: width)
            if lines.isEmpty { continue }
            if !out.isEmpty && !tight { out.append([]) }
            out += lines
        }
        return out
    }

    mutating func block(_ b: Block, width: Int) -> [Line] {
        switch b.kind {
        case .paragraph(let c):
            let lines = inlineLines(c, width: width, base: body)
            return isLetterpress(c) ? withShadow(lines) : lines
        case .heading(let level, let c):
            let base = body.merged(TerminalStyleTable.style(level <= 2 ? .headline : .subheadline))
            let marker = String(repeating: "#", count: min(max(level, 1), 6)) + " "
            let lines: [Line]
            if width - marker.count >= min(10, width) {
                lines = hang(inlineLines(c, width: width - marker.count, base: base),
                             marker: [Seg(marker, TerminalStyleTable.style(.marker))], width: width)
            } else {
                lines = inlineLines(c, width: width, base: base)
            }
            return isLetterpress(c) ? withShadow(lines) : lines
        case .blockQuote(let children):
            let bar = ascii ? "|" : "│"
            guard width - 2 >= min(10, width) else { return blocks(children, width: width, tight: false) }
            return blocks(children, width: width - 2, tight: false).map {
                [Seg(bar + " ", TerminalStyleTable.style(.quoteBar))] + $0
            }
        case .list(let l):
            return list(l, width: width, depth: 0)
        case .codeBlock(_, let literal):
            return codeBlock(literal, width: width)
        case .htmlBlock:
            return []
        case .thematicBreak:
            return [[Seg(String(repeating: ascii ? "-" : "─", count: width), TerminalStyleTable.style(.rule))]]
        case .table(let t):
            return table(t, width: width)
        case .footnoteDefinition(let label, let bs):
            footnotes.append((label, bs))
            return []
        case .unknown(let name, let bs):
            diagnostics.append(Diagnostic(.warning, "unknown block '\(name)' written as its content", file: path, position: b.position))
            return blocks(bs, width: width, tight: false)
        }
    }

    func isLetterpress(_ c: Inlines) -> Bool {
        !c.runs.isEmpty && c.runs.allSatisfy { $0.attributes.letterpress }
    }

    /// `lines` with `marker` before the first and its width of spaces before the others (a hanging
    /// indent). An empty item gives the marker alone.
    func hang(_ lines: [Line], marker: Line, width: Int) -> [Line] {
        let mw = lineWidth(marker)
        guard !lines.isEmpty else { return [marker] }
        return lines.enumerated().map { i, l in
            if i == 0 { return marker + l }
            return l.isEmpty ? l : [Seg(spaces(mw))] + l
        }
    }

    var listDepth = 0

    mutating func list(_ l: ListBlock, width: Int, depth: Int) -> [Line] {
        let bullets = ascii ? ["*", "-", "+"] : ["•", "◦", "▪"]
        var numbers: [Int] = []
        var prev = l.start - 1
        for item in l.items { let n = item.number ?? (prev + 1); numbers.append(n); prev = n }
        let numberWidth = numbers.map { String($0).count }.max() ?? 1
        var out: [Line] = []
        listDepth += 1
        defer { listDepth -= 1 }
        for (i, item) in l.items.enumerated() {
            var marker: String
            if l.type == .ordered {
                let n = String(numbers[i])
                let d = l.delimiter == .parenthesis ? ")" : "."
                marker = String(repeating: " ", count: numberWidth - n.count) + n + d + " "
            } else {
                marker = item.task == nil ? bullets[(listDepth - 1) % 3] + " " : ""
            }
            if let task = item.task {
                marker += ascii ? (task == .checked ? "[x] " : "[ ] ") : (task == .checked ? "☑ " : "☐ ")
            }
            let mw = TerminalWidth.columns(marker)
            let markerLine: Line = [Seg(marker, body.merged(TerminalStyleTable.style(.listMarker)))]
            let lines: [Line]
            if width - mw >= min(10, width) {
                lines = hang(blocks(item.blocks, width: width - mw, tight: l.tight), marker: markerLine, width: width)
            } else {
                lines = [markerLine] + blocks(item.blocks, width: width, tight: l.tight)
            }
            if !out.isEmpty && !l.tight { out.append([]) }
            out += lines
        }
        return out
    }

    func codeBlock(_ literal: String, width: Int) -> [Line] {
        var text = literal
        if text.hasSuffix("\n") { text.removeLast() }
        let indent = width > 4 ? 2 : 0
        let room = width - indent
        let style = body.merged(TerminalStyleTable.style(.code))
        var out: [Line] = []
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = TerminalText.visible(String(raw), tabs: .expand(4))
            while line.last == " " { line.removeLast() }
            if line.isEmpty { out.append([]); continue }
            if TerminalWidth.columns(line) > room {
                var cut = ""
                var w = 0
                for c in line {
                    let cw = TerminalWidth.columns(c)
                    if w + cw > room - 1 { break }
                    cut.append(c); w += cw
                }
                line = cut + "…"
            }
            out.append((indent > 0 ? [Seg(spaces(indent))] : []) + [Seg(line, style)])
        }
        return out
    }

    // MARK: Tables

    mutating func table(_ t: Table, width: Int) -> [Line] {
        let n = t.alignments.count
        guard n > 0 else { return [] }
        let headerStyle = body.merged(TerminalStyleTable.style(.tableHeader))
        let rows: [[Inlines]] = [t.header] + t.rows
        var natural = [Int](repeating: 1, count: n)
        var longestWord = [Int](repeating: 1, count: n)
        // Each cell's lines when nothing makes them wrap: they are its lines in any column at least
        // as wide as its widest line (greedy filling then takes the same decisions).
        var unwrapped: [[[Line]]] = []
        unwrapped.reserveCapacity(rows.count)
        for (ri, row) in rows.enumerated() {
            var cells: [[Line]] = []
            cells.reserveCapacity(min(n, row.count))
            for c in 0..<n where c < row.count {
                var f = fill(row[c], width: Int.max / 4, base: ri == 0 ? headerStyle : body)
                let lines = f.finish()
                let w = lines.map(lineWidth).max() ?? 0
                natural[c] = max(natural[c], w)
                longestWord[c] = max(longestWord[c], f.widestWord)
                cells.append(lines)
            }
            unwrapped.append(cells)
        }
        let room = width - (3 * n + 1)
        if room < 2 * n { return tableAsRecords(t, width: width) }
        // Shrink the column with the most room above its longest word first (words stay whole);
        // when every column is at its longest word, shrink the widest (words break), never under 2.
        var widths = natural
        while widths.reduce(0, +) > room {
            let slack = (0..<n).map { widths[$0] - min(longestWord[$0], natural[$0]) }
            if let best = slack.max(), best > 0 {
                widths[slack.firstIndex(of: best)!] -= 1
            } else {
                let m = widths.max()!
                guard m > 2 else { break }
                widths[widths.firstIndex(of: m)!] -= 1
            }
        }
        let b = TerminalStyleTable.style(.tableBorder)
        let (h, v) = ascii ? ("-", "|") : ("─", "│")
        func rule(_ l: String, _ m: String, _ r: String) -> Line {
            let parts = widths.map { String(repeating: h, count: $0 + 2) }
            return [Seg((ascii ? "+" : l) + parts.joined(separator: ascii ? "+" : m) + (ascii ? "+" : r), b)]
        }
        var out: [Line] = [rule("┌", "┬", "┐")]
        for (ri, row) in rows.enumerated() {
            let cells: [[Line]] = (0..<n).map { c in
                guard c < row.count else { return [[]] }
                if widths[c] >= natural[c] { return unwrapped[ri][c] }
                return inlineLines(row[c], width: widths[c], base: ri == 0 ? headerStyle : body)
            }
            let height = cells.map(\.count).max() ?? 1
            for li in 0..<height {
                var line: Line = [Seg(v, b)]
                for c in 0..<n {
                    let cl = li < cells[c].count ? cells[c][li] : []
                    let pad = widths[c] - lineWidth(cl)
                    let left: Int
                    switch t.alignments[c] {
                    case .right: left = pad
                    case .center: left = pad / 2
                    default: left = 0
                    }
                    line.append(Seg(spaces(left + 1)))
                    line += cl
                    line.append(Seg(spaces(pad - left + 1)))
                    line.append(Seg(v, b))
                }
                out.append(line)
            }
            if ri == 0 { out.append(rule("├", "┼", "┤")) }
        }
        out.append(rule("└", "┴", "┘"))
        return out
    }

    /// A table too wide for any grid: each body row as `header: cell` lines.
    mutating func tableAsRecords(_ t: Table, width: Int) -> [Line] {
        let headerStyle = body.merged(TerminalStyleTable.style(.tableHeader))
        var out: [Line] = []
        for row in (t.rows.isEmpty ? [t.header] : t.rows) {
            if !out.isEmpty { out.append([]) }
            for (c, cell) in row.enumerated() {
                var runs = c < t.header.count ? t.header[c].runs : []
                runs = runs.map { r in var r = r; r.spans.insert(InlineSpan(id: -1, kind: .strong), at: 0); return r }
                runs.append(InlineRun(.text(": ")))
                if !t.rows.isEmpty { runs += cell.runs }
                out += inlineLines(Inlines(runs), width: width, base: t.rows.isEmpty ? headerStyle : body)
            }
        }
        return out
    }

    // MARK: Inlines

    func style(for a: InlineAttributes, base: TerminalStyle) -> TerminalStyle {
        var s = base
        for role in TerminalRole.allCases {
            let on: Bool
            switch role {
            case .strong: on = a.strong
            case .emphasis: on = a.emphasis
            case .script: on = a.script
            case .strikethrough: on = a.strikethrough
            case .code: on = a.code
            case .link: on = a.link != nil
            case .alert: on = a.colorRole == .alert
            case .image: on = a.image != nil
            case .letterpress: on = a.letterpress
            case .marker: on = a.marker
            case .headline: on = a.textStyle == .headline
            case .subheadline: on = a.textStyle == .subheadline
            case .caption: on = a.textStyle == .caption1 || a.textStyle == .caption2
            default: on = false
            }
            if on { s = s.merged(TerminalStyleTable.style(role)) }
        }
        return s
    }

    /// The innermost link or image span of a run.
    func target(_ run: InlineRun) -> (id: Int, link: Link)? {
        for span in run.spans.reversed() {
            switch span.kind {
            case .link(let l), .image(let l): return (span.id, l)
            default: continue
            }
        }
        return nil
    }

    /// The wrapped lines of `inlines` (``LineFiller``), made in one pass: each word goes into the
    /// current line as soon as it ends.
    func inlineLines(_ inlines: Inlines, width: Int, base: TerminalStyle) -> [Line] {
        var f = fill(inlines, width: width, base: base)
        return f.finish()
    }

    /// ``inlineLines(_:width:base:)`` before ``LineFiller/finish()``: also knows the widest word.
    fileprivate func fill(_ inlines: Inlines, width: Int, base: TerminalStyle) -> LineFiller {
        var f = LineFiller(width: width)
        var open: (id: Int, link: Link, text: String)?
        func close() {
            guard let o = open else { return }
            open = nil
            let url = o.link.destination
            guard !options.hyperlinks, !url.isEmpty, url != o.text, url != "mailto:" + o.text else { return }
            f.endWord()
            f.space(base, nil)
            f.appendCharacters("(" + TerminalText.visible(url) + ")", base.merged(TerminalStyleTable.style(.linkURL)), nil)
        }
        for run in inlines.runs {
            let t = target(run)
            if let o = open, t?.id != o.id { close() }
            if let t, open == nil { open = (t.id, t.link, "") }
            let style = style(for: run.attributes, base: base)
            let link = options.hyperlinks ? t.map { TerminalText.osc8URL($0.link.destination) } : nil
            switch run.content {
            case .text(let text):
                if open != nil { open!.text += text }
                f.appendText(TerminalText.visible(text), style, link)
            case .softBreak:
                if open != nil { open!.text += " " }
                f.endWord(); f.space(style, link)
            case .hardBreak:
                f.endWord(); f.hardBreak()
            case .footnoteReference(_, let number, _):
                f.appendCharacters("[\(number)]", style.merged(TerminalStyleTable.style(.footnoteReference)), link)
            case .rawHTML:
                break
            }
        }
        close()
        f.endWord()
        return f
    }

    // MARK: Output

    /// Writes `lines` joined by `"\n"` into `out`, a `"\n"` before the first one when
    /// `separate` (the previous lines' last line ended without one).
    func write(_ lines: [Line], into out: inout String, separate: inout Bool) {
        for l in lines {
            if separate { out.append("\n") }
            render(l, into: &out)
            separate = true
        }
    }

    /// One line as text: SGR only where the style changes, OSC 8 opened and closed within the
    /// line, a reset at the end, no trailing spaces.
    func render(_ line: Line) -> String {
        var out = ""
        render(line, into: &out)
        return out
    }

    /// ``render(_:)`` appending to `out`.
    func render(_ line: Line, into out: inout String) {
        var segs = line
        while let last = segs.last {
            // A last byte other than a space: no trailing space Character (fast path).
            if let b = last.text.utf8.last, b != 0x20 { break }
            let trimmed = String(last.text.reversed().drop { $0 == " " }.reversed())
            if trimmed.isEmpty { segs.removeLast(); continue }
            if trimmed.count != last.text.count { segs[segs.count - 1] = Seg(trimmed, last.style, link: last.link) }
            break
        }
        var style = TerminalStyle()
        var link: String?
        let osc = options.hyperlinks
        for s in segs {
            if osc && s.link != link {
                if link != nil { out += "\u{1B}]8;;\u{1B}\\" }
                if let l = s.link { out += "\u{1B}]8;;" + l + "\u{1B}\\" }
                link = s.link
            }
            if s.style != style {
                out += s.style.isPlain ? sgr.reset : sgrCache.sequence(s.style, sgr)
                style = s.style
            }
            out += s.text
        }
        if !style.isPlain { out += sgr.reset }
        if osc && link != nil { out += "\u{1B}]8;;\u{1B}\\" }
    }
}
