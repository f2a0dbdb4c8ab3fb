import Foundation
import NotepressAST

/// Writes a ``Document`` as a man page in the man(7) macro language (groff_man(7); the portable
/// subset mandoc(1) also reads), with tbl(1) tables.
///
/// Mapping:
/// - Title line: ``ManTitleResolver`` (`.TH NAME section date source manual`, name upper-cased).
/// - Headings: the shallowest heading level in the body becomes `.SH` (text upper-cased except code),
///   the next `.SS`, deeper ones a bold paragraph.
/// - NAME: the first paragraph of a NAME section is written `names \- description` (the form
///   whatis/apropos read; a ` - `, ` -- ` or ` — ` separator becomes `\-`); without a NAME section a
///   ronn description (`name(1) -- description`) is used to synthesise one.
/// - Paragraphs `.PP`; a paragraph whose first line is a bold/code option (`**--flag**`) followed
///   by more lines, or a pandoc definition (`term` / `: definition`), becomes `.TP`; so does a
///   one-line option paragraph followed by a paragraph.
/// - Lists `.IP` with `\(bu`, `N.` or `[ ]`/`[x]` tags; blocks after an item's first paragraph and
///   nested lists go inside `.RS`/`.RE`. Block quotes `.RS 4`/`.RE`. Code blocks `.EX`/`.EE`
///   (trailing blanks of code lines are dropped).
/// - Links `.UR`/`.UE` (`mailto:` → `.MT`/`.ME`); the word right after a link is the `.UE`
///   trailer so no space appears before punctuation. A link whose text is its URL is written as
///   the URL alone. In headings, tags and table cells links are `text <url>`.
/// - Tables: tbl with `allbox tab(@)`; `@` in cells becomes `\[at]`; long cells are text blocks.
/// - Fonts: strong, code and alert-coloured words bold (`\fB`); emphasis and script italic;
///   strong + emphasis `\f(BI`; strikethrough plain text (roff has no strike-out that both groff
///   and mandoc render on terminals).
/// - Raw HTML is dropped with a warning; HTML comments silently (they carry no text). Inline
///   `<br>` becomes `.br`; ronn's `<var>` placeholders (an unknown tag name) become italic `var`.
/// - Images: their alt text, then `<url>` unless inside a link. Footnotes: `[n]` in the text, the
///   notes numbered in a final NOTES section.
public struct ManEmitter: Sendable {
    public init() {}

    /// Renders `document`; warnings go to `diagnostics`. Output is ASCII and deterministic.
    public func render(_ document: Document, diagnostics: inout [Diagnostic]) -> String {
        var r = ManRenderer(file: document.metadata.sourcePath)
        let s = r.render(document)
        diagnostics += r.diagnostics
        return s
    }
}

/// A flattened inline item.
private enum InlineItem {
    case word([WordPart])
    case space
    case hardBreak
    case linkStart(Link)
    case linkEnd
}

/// How a link is written.
private enum LinkMode { case macro, textThenURL, urlOnly }

private let htmlElements: Set<String> = [
    "a", "abbr", "address", "area", "article", "aside", "audio", "b", "base", "bdi", "bdo", "blockquote", "body",
    "br", "button", "canvas", "caption", "center", "cite", "code", "col", "colgroup", "data", "dd", "del", "details",
    "dfn", "dialog", "div", "dl", "dt", "em", "embed", "fieldset", "figcaption", "figure", "font", "footer", "form",
    "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html", "i", "iframe", "img", "input", "ins", "kbd",
    "label", "legend", "li", "link", "main", "map", "mark", "meta", "nav", "noscript", "object", "ol", "optgroup",
    "option", "output", "p", "param", "picture", "pre", "progress", "q", "rp", "rt", "ruby", "s", "samp", "script",
    "section", "select", "small", "source", "span", "strike", "strong", "style", "sub", "summary", "sup", "table",
    "tbody", "td", "template", "textarea", "tfoot", "th", "thead", "time", "title", "tr", "track", "tt", "u", "ul",
    "var", "video", "wbr",
]

/// Words after which a period is not a sentence end (groff(7) "Sentences").
private let abbreviations: Set<String> = [
    "e.g.", "i.e.", "etc.", "vs.", "cf.", "al.", "mr.", "mrs.", "ms.", "dr.", "st.", "no.", "approx.", "fig.",
    "resp.", "viz.", "incl.", "ca.", "esp.", "eg.", "ie.",
]

private struct ManRenderer {
    let file: String?
    var w = RoffWriter()
    var diagnostics: [Diagnostic] = []
    var shLevel = 1
    var inNameSection = false
    var nameWritten = false
    var footnotes: [[Block]] = []

    init(file: String?) { self.file = file }

    mutating func warn(_ m: String, _ b: Block? = nil) {
        diagnostics.append(Diagnostic(.warning, "man: " + m, file: file, position: b?.position))
    }

    mutating func render(_ document: Document) -> String {
        let (title, body, titleDiagnostics) = ManTitleResolver.resolve(document)
        diagnostics += titleDiagnostics
        var hasTable = false
        var minLevel = Int.max
        var hasName = false
        Document(metadata: document.metadata, blocks: body).forEachBlock { b, _ in
            if case .table = b.kind { hasTable = true }
            if case .heading(let l, _) = b.kind { minLevel = min(minLevel, l) }
        }
        if minLevel == Int.max { minLevel = 1 }
        shLevel = minLevel
        for b in body {
            if case .heading(let l, let c) = b.kind, l == minLevel,
               c.plainText.trimmingCharacters(in: .whitespaces).uppercased() == "NAME" { hasName = true }
        }
        if hasTable { w.raw("'\\\" t\n") }
        var args = [title.name.uppercased(), title.section, title.date, title.source, title.manual]
        while args.count > 2, args.last!.isEmpty { args.removeLast() }
        w.macro("TH", escapedArgs: args.enumerated().map { i, a in
            "\"" + RoffEscaper.escape(a, context: .argument, minus: i == 0) + "\""
        })
        if !hasName {
            if let d = title.description {
                w.macro("SH", ["NAME"])
                writeNameLine(names: title.name, description: d)
            } else {
                warn("no NAME section and no description: whatis(1) and apropos(1) will not index this page")
            }
        }
        let before = w.out.count
        blocks(body)
        if w.out.count == before && !nameWritten {
            // mandoc warns "no document body" for a page of only `.TH`.
            w.macro("SH", ["NAME"])
            writeNameLine(names: title.name, description: "")
        }
        if !footnotes.isEmpty {
            w.macro("SH", ["NOTES"])
            for (i, note) in footnotes.enumerated() {
                item(tag: "[\(i + 1)]", indent: 5, note)
            }
        }
        w.endText()
        return w.out
    }

    // MARK: Blocks

    mutating func blocks(_ bs: [Block]) {
        var i = 0
        while i < bs.count {
            let b = bs[i]
            if case .paragraph(let c) = b.kind, !inNameSection, isOptionLine(c), i + 1 < bs.count,
               case .paragraph(let next) = bs[i + 1].kind, !isOptionLine(next) {
                w.macro("TP")
                tag(c)
                flow(next)
                i += 2
                continue
            }
            block(b)
            i += 1
        }
    }

    mutating func block(_ b: Block) {
        switch b.kind {
        case .paragraph(let c): paragraph(c, b)
        case .heading(let l, let c): heading(l, c)
        case .blockQuote(let bs):
            if bs.isEmpty { return }
            w.paragraph()
            w.macro("RS", ["4"])
            blocks(bs)
            w.macro("RE")
        case .list(let l): list(l)
        case .codeBlock(_, let lit):
            w.paragraph()
            w.macro("RS", ["4"])
            w.macro("EX")
            // Without CR every LF is a Character of its own: splitting the bytes is the same.
            var lines = lit.utf8.contains(0x0D) ? lit.components(separatedBy: "\n")
                : lit.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(Substring($0)) }
            if lines.last == "" { lines.removeLast() }
            for line in lines {
                var l = Substring(line)
                while let last = l.last, last == " " || last == "\t" || last == "\r" { l = l.dropLast() }
                w.codeLine(String(l))
            }
            w.macro("EE")
            w.macro("RE")
        case .htmlBlock(let h):
            if !h.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("<!--") {
                warn("raw HTML block dropped", b)
            }
        case .thematicBreak:
            w.paragraph()
            w.word([WordPart(text: "*", font: .roman, literal: false)]); w.space()
            w.word([WordPart(text: "*", font: .roman, literal: false)]); w.space()
            w.word([WordPart(text: "*", font: .roman, literal: false)])
            w.endText()
        case .table(let t): table(t)
        case .footnoteDefinition(_, let bs): footnotes.append(bs)
        case .unknown(let name, let bs):
            warn("unknown block '\(name)' written as its content", b)
            blocks(bs)
        }
    }

    mutating func heading(_ level: Int, _ c: Inlines) {
        inNameSection = false
        let items = inlineItems(c, flow: false)
        if level <= shLevel + 1 {
            var text = ""
            for item in items {
                switch item {
                case .word(let parts):
                    let optionLike = parts.map(\.text).joined().hasPrefix("-")
                    for p in parts {
                        let t = (level == shLevel && !p.literal) ? p.text.uppercased() : p.text
                        text += RoffEscaper.escape(t, context: .argument, minus: p.literal || optionLike)
                    }
                case .space, .hardBreak: if !text.isEmpty && !text.hasSuffix(" ") { text += " " }
                case .linkStart, .linkEnd: break
                }
            }
            while text.hasSuffix(" ") { text.removeLast() }
            if text.isEmpty { text = "\\&" }
            w.macro(level == shLevel ? "SH" : "SS", escapedArgs: [text])
            if level == shLevel && c.plainText.trimmingCharacters(in: .whitespaces).uppercased() == "NAME" && !nameWritten {
                inNameSection = true
            }
        } else {
            w.paragraph()
            let bold = items.map { item -> InlineItem in
                guard case .word(let parts) = item else { return item }
                return .word(parts.map { p in
                    var q = p
                    q.font = (p.font == .italic || p.font == .boldItalic) ? .boldItalic : .bold
                    return q
                })
            }
            layout(bold)
            w.endText()
        }
    }

    mutating func paragraph(_ c: Inlines, _ b: Block) {
        if inNameSection {
            inNameSection = false
            nameWritten = true
            let text = c.plainText.replacingOccurrences(of: "\n", with: " ")
            for sep in [" \\- ", " -- ", " - ", " \u{2014} ", " \u{2013} "] {
                if let r = text.range(of: sep) {
                    writeNameLine(names: String(text[..<r.lowerBound]), description: String(text[r.upperBound...]))
                    return
                }
            }
            warn("the NAME section has no 'name - description' line", b)
        }
        // Definition-style paragraphs: split at the first line break.
        if let br = c.runs.firstIndex(where: { $0.content == .softBreak || $0.content == .hardBreak }) {
            let first = Inlines(Array(c.runs[..<br]))
            var rest = Array(c.runs[(br + 1)...])
            if case .text(let t)? = rest.first?.content, t.hasPrefix(": ") || t == ":" {
                rest[0].content = .text(String(t.dropFirst(t == ":" ? 1 : 2)))
                w.macro("TP")
                tag(first)
                flow(Inlines(rest))
                return
            }
            if isOptionLine(first) && !rest.isEmpty {
                w.macro("TP")
                tag(first)
                flow(Inlines(rest))
                return
            }
        }
        w.paragraph()
        flow(c)
    }

    /// A line that starts with a bold or code run whose text starts with `-` (go-md2man's
    /// `**--flag**` option lines), and has no line break.
    func isOptionLine(_ c: Inlines) -> Bool {
        guard let first = c.runs.first, case .text(let t) = first.content, t.hasPrefix("-") else { return false }
        let a = first.attributes
        guard a.strong || a.code else { return false }
        return !c.runs.contains { $0.content == .softBreak || $0.content == .hardBreak }
    }

    mutating func writeNameLine(names: String, description: String) {
        w.newline()
        let n = RoffEscaper.escape(names.trimmingCharacters(in: .whitespaces), context: .text, minus: true)
        let d = RoffEscaper.escape(description.trimmingCharacters(in: .whitespaces), context: .text, minus: false)
        w.raw(RoffWriter.guardLineStart(n) + (d.isEmpty ? "" : " \\- " + d) + "\n")
        nameWritten = true
    }

    mutating func list(_ l: ListBlock) {
        var number = l.start
        let width = String(l.start + l.items.count).count
        for it in l.items {
            if let n = it.number { number = n }
            var tag: String
            var indent: Int
            if let task = it.task {
                tag = task == .checked ? "[x]" : "[ ]"
                indent = 4
            } else if l.type == .bullet {
                tag = "\\(bu"
                indent = 2
            } else {
                tag = String(number) + (l.delimiter == .parenthesis ? ")" : ".")
                indent = width + 2
            }
            item(tag: tag, indent: indent, it.blocks, escaped: true)
            number += 1
        }
    }

    /// One list item or note: `.IP tag indent`, the first paragraph, the rest inside `.RS`.
    mutating func item(tag: String, indent: Int, _ bs: [Block], escaped: Bool = false) {
        let t = escaped ? tag : RoffEscaper.escape(tag, context: .argument, minus: false)
        w.macro("IP", escapedArgs: ["\"" + t + "\"", String(indent)])
        var rest = bs[...]
        if case .paragraph(let c)? = rest.first?.kind {
            flow(c)
            rest = rest.dropFirst()
        }
        if !rest.isEmpty {
            w.macro("RS", [String(indent)])
            blocks(Array(rest))
            w.macro("RE")
        }
    }

    // MARK: Tables

    /// Columns a table may take: the 78-column page less the 7-column indent and some room for
    /// list and quote indents.
    static let tableWidth = 64

    /// A tbl(1) table: `allbox tab(@)`, bold header row, one alignment per column.
    ///
    /// When the cells' natural widths fit in ``tableWidth`` every cell is written inline;
    /// otherwise each column gets a width (`lw(Nn)`): its natural width if that is within a fair
    /// share, else an equal part of what is left, and cells wider than their column become text
    /// blocks (`T{`…`T}`) whose long words may break (`\:`). That keeps tbl from warning "table
    /// wider than line width".
    mutating func table(_ t: Table) {
        let n = t.alignments.count
        guard n > 0 else { return }
        func letter(_ a: Table.Alignment) -> String {
            switch a { case .center: return "c"; case .right: return "r"; default: return "l" }
        }
        let rows = [t.header] + t.rows
        var natural = [Int](repeating: 1, count: n)
        let cellItems = rows.map { $0.prefix(n).map { inlineItems($0, flow: false) } }
        for row in cellItems {
            for (i, items) in row.enumerated() { natural[i] = max(natural[i], Self.width(items)) }
        }
        let budget = max(n * 6, Self.tableWidth - 3 * n - 1)
        var widths: [Int]? = nil
        if natural.reduce(0, +) > budget {
            var w = [Int](repeating: 0, count: n)
            var left = budget
            var open = Array(0..<n)
            // Columns narrower than a fair share keep their natural width.
            var changed = true
            while changed && !open.isEmpty {
                changed = false
                let share = left / open.count
                for i in open where natural[i] <= share {
                    w[i] = natural[i]; left -= natural[i]; changed = true
                }
                open.removeAll { w[$0] > 0 }
            }
            for i in open { w[i] = max(6, left / max(1, open.count)) }
            widths = w
        }
        func format(_ bold: Bool) -> String {
            (0..<n).map { i in
                letter(t.alignments[i]) + (bold ? "b" : "") + (widths.map { "w(\($0[i])n)" } ?? "")
            }.joined(separator: " ")
        }
        w.paragraph()
        w.control(".TS")
        w.control("allbox tab(@);")
        w.control(format(true))
        w.control(format(false) + ".")
        for row in cellItems {
            w.newline()
            for (i, items) in row.enumerated() {
                if i > 0 { w.raw("@") }
                tableCell(items, width: widths?[i])
            }
            w.raw("\n")
        }
        w.control(".TE")
    }

    /// A cell: inline when it fits its column (or the table has no widths), else a text block
    /// `T{`…`T}`. An inline cell that tbl would read as a rule (`_`, `=`), a control line (`.`,
    /// `'`) or a text-block start (ending `T{`) is guarded with `\&`.
    fileprivate mutating func tableCell(_ items: [InlineItem], width: Int?) {
        var sub = RoffWriter(width: Int.max)
        sub.layoutCell(items)
        sub.closeFont()
        var s = sub.out
        if s.isEmpty { return }
        if width == nil || Self.width(items) <= width! {
            if s.hasPrefix(".") || s.hasPrefix("'") || s == "_" || s == "=" || s.hasPrefix("\\^") { s = "\\&" + s }
            if s.hasSuffix("T{") { s += "\\&" }
            w.raw(s)
            return
        }
        w.raw("T{\n")
        w.control(".ad l")
        w.inTextBlock = true
        let saved = w.breakThreshold
        w.breakThreshold = max(1, width! - 1)
        layout(items, context: .cell)
        w.endText()
        w.breakThreshold = saved
        w.inTextBlock = false
        w.raw("T}")
    }

    // MARK: Inline content

    /// The columns `items` take on one line: words plus one per space.
    fileprivate static func width(_ items: [InlineItem]) -> Int {
        items.reduce(0) { sum, item in
            switch item {
            case .word(let p): return sum + p.reduce(0) { $0 + $1.text.unicodeScalars.count }
            case .space, .hardBreak: return sum + 1
            case .linkStart, .linkEnd: return sum
            }
        }
    }

    /// Writes a tag line (`.TP`): one line, never wrapped, links as text.
    mutating func tag(_ c: Inlines) {
        let items = inlineItems(c, flow: false)
        let saved = w.width
        w.width = Int.max
        layout(items)
        w.endText()
        w.width = saved
    }

    /// Writes filled text.
    ///
    /// A paragraph with `.UR`/`.MT` links, words longer than 30 columns (URLs, paths) or CJK text
    /// (written without spaces) is set ragged-right (`.ad l` … `.ad`, groff(7) "ad"): a URL on a line of
    /// its own leaves nothing to stretch, and justified text would make groff warn "cannot adjust
    /// line".
    mutating func flow(_ c: Inlines) {
        guard w.atCleanLineStart else { return flowWhole(c) }
        // Streamed: items are laid out as they are made, a few thousand at a time, into a fresh
        // output; whether the paragraph is ragged is known at its end, and `.ad l` goes before it
        // (what `w.control(".ad l")` writes at a clean line start, see ``RoffWriter/atCleanLineStart``).
        w.holdOutput()
        var ragged = false
        var warnings: [String] = []
        var pending: [InlineItem] = []
        var i = 0
        var mail = false
        Self.forEachInlineItem(c, flow: true, warn: { warnings.append($0) }) { item in
            if !ragged && Self.makesRagged(item) { ragged = true }
            pending.append(item)
            if pending.count >= 4096 {
                // Each item needs the two after it.
                while i + 2 < pending.count { i = layoutStep(pending, i, context: .text, lastLinkWasMail: &mail) }
                pending.removeFirst(i)
                i = 0
            }
        }
        while i < pending.count { i = layoutStep(pending, i, context: .text, lastLinkWasMail: &mail) }
        for m in warnings { warn(m) }
        w.releaseOutput(inserting: ragged ? ".ad l\n" : "")
        w.endText()
        if ragged { w.control(".ad") }
    }

    /// Whether `item` makes its paragraph ragged-right (see ``flow(_:)``).
    fileprivate static func makesRagged(_ item: InlineItem) -> Bool {
        switch item {
        case .linkStart: return true
        case .word(let p):
            var n = 0
            for part in p {
                if part.text.utf8.allSatisfy({ $0 < 0x80 }) {
                    n += part.text.utf8.count
                } else {
                    if part.text.unicodeScalars.contains(where: isCJK) { return true }
                    n += part.text.unicodeScalars.count
                }
            }
            return n > 30
        default: return false
        }
    }

    /// ``flow(_:)`` with the paragraph's items made first (when the writer is not at a clean line start).
    mutating func flowWhole(_ c: Inlines) {
        let items = inlineItems(c, flow: true)
        let ragged = items.contains(where: Self.makesRagged)
        if ragged { w.control(".ad l") }
        layout(items)
        w.endText()
        if ragged { w.control(".ad") }
    }

    mutating func layout(_ items: [InlineItem], context: RoffContext = .text) {
        var i = 0
        var mail = false
        while i < items.count { i = layoutStep(items, i, context: context, lastLinkWasMail: &mail) }
    }

    /// Writes `items[i]` (looking at most two items ahead) and returns the index of the next item
    /// to write. `lastLinkWasMail` is whether the last `.linkStart` seen was a `mailto:` link.
    fileprivate mutating func layoutStep(_ items: [InlineItem], _ i: Int, context: RoffContext, lastLinkWasMail mail: inout Bool) -> Int {
        var i = i
        switch items[i] {
        case .word(let parts):
            w.word(parts, context: context)
            if i + 1 < items.count, case .space = items[i + 1], endsWithPeriodLike(parts) {
                let plain = parts.count == 1 ? parts[0].text : parts.map(\.text).joined()
                var nextWord: String?
                if i + 2 < items.count, case .word(let np) = items[i + 2] { nextWord = np.map(\.text).joined() }
                let abbreviation = abbreviations.contains(plain.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "(\"'")))
                let nextLower = nextWord?.first?.isLowercase ?? false
                if (abbreviation && plain.lowercased() != "etc.") || nextLower || (plain.lowercased() == "etc." && nextLower) {
                    if plain.hasSuffix(".") { w.zeroWidth() }
                } else if nextWord != nil {
                    w.sentenceBreak()
                    return i + 2
                }
            }
        case .space: w.space()
        case .hardBreak: if w.lastMacro != "br" { w.macro("br") }
        case .linkStart(let l):
            mail = l.destination.lowercased().hasPrefix("mailto:")
            if mail {
                w.macro("MT", [String(l.destination.dropFirst(7))], minus: true)
            } else {
                w.macro("UR", escapedArgs: [Self.breakableURL(l.destination)])
            }
        case .linkEnd:
            if i + 1 < items.count, case .word(let parts) = items[i + 1],
               parts.allSatisfy({ $0.font == .roman && !$0.literal }),
               !parts.map(\.text).joined().contains("\"") {
                w.macro(mail ? "ME" : "UE", [parts.map(\.text).joined()])
                i += 2
                if i < items.count, case .space = items[i] { i += 1 }
                return i
            }
            w.macro(mail ? "ME" : "UE")
        }
        return i + 1
    }

    /// A URL escaped as a macro argument with `\:` (an optional break, groff(7)) after each `/`,
    /// `.`, `-`, `_`, `?`, `&`, `=`, `#` past the scheme, so that groff can break a URL longer than the line (groff_man(7), "UR").
    static func breakableURL(_ url: String) -> String {
        // The escaped URL is ASCII without CR, so its bytes are its Characters.
        let e = Array(RoffEscaper.escape(url, context: .argument, minus: true).utf8)
        let sep = Array("://".utf8)
        guard let at = e.indices.first(where: { $0 + 3 <= e.count && e[$0] == sep[0] && e[$0 + 1] == sep[1] && e[$0 + 2] == sep[2] })
        else { return String(decoding: e, as: UTF8.self) }
        var out = Array(e[..<(at + 3)])
        out.reserveCapacity(e.count * 2)
        for b in e[(at + 3)...] {
            out.append(b)
            switch b {
            case UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "?"),
                 UInt8(ascii: "&"), UInt8(ascii: "="), UInt8(ascii: "#"):
                out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: ":"))
            default: break
            }
        }
        return RoffWriter.quoteIfNeeded(String(decoding: out, as: UTF8.self))
    }

    /// Whether a word ends a sentence as roff sees it: `.`, `!` or `?`, possibly followed by
    /// closing `)`, `]`, `"`, `'`, `*` (groff(7) "Sentences").
    func endsWithPeriodLike(_ parts: [WordPart]) -> Bool {
        // The text is the parts joined; the last non-empty part ends it.
        var k = parts.count - 1
        while k >= 0 && parts[k].text.isEmpty { k -= 1 }
        guard k >= 0, let b = parts[k].text.utf8.last else { return false }
        // A last byte that is ASCII and none of `)]"'*.!?` ends in no such Character.
        switch b {
        case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "*"),
             UInt8(ascii: "."), UInt8(ascii: "!"), UInt8(ascii: "?"): break
        case 0..<0x80: return false
        default: break
        }
        return endsWithPeriodLike(parts.count == 1 ? parts[0].text : parts.map(\.text).joined())
    }

    func endsWithPeriodLike(_ s: String) -> Bool {
        var t = Substring(s)
        while let l = t.last, ")]\"'*\u{2019}\u{201D}".contains(l) { t = t.dropLast() }
        guard let l = t.last else { return false }
        return l == "." || l == "!" || l == "?"
    }

    /// The font of a run: bold for strong, code and alert colour; italic for emphasis and script.
    func font(_ a: InlineAttributes) -> RoffFont { Self.font(a) }

    static func font(_ a: InlineAttributes) -> RoffFont {
        let bold = a.strong || a.code || a.colorRole == .alert
        let italic = a.emphasis || a.script
        switch (bold, italic) {
        case (true, true): return .boldItalic
        case (true, false): return .bold
        case (false, true): return .italic
        case (false, false): return .roman
        }
    }

    /// Flattens runs into words, spaces, breaks and link boundaries. With `flow` false (headings,
    /// tags, cells) links become `text <url>` and hard breaks spaces.
    mutating func inlineItems(_ c: Inlines, flow: Bool) -> [InlineItem] {
        var out: [InlineItem] = []
        var warnings: [String] = []
        Self.forEachInlineItem(c, flow: flow, warn: { warnings.append($0) }) { out.append($0) }
        for m in warnings { warn(m) }
        return out
    }

    /// Calls `body` with each item of ``inlineItems(_:flow:)``, in order, as soon as it is made:
    /// no space first or last, never two spaces in a row.
    fileprivate static func forEachInlineItem(_ c: Inlines, flow: Bool, warn: (String) -> Void, _ body: (InlineItem) -> Void) {
        /// Something was given to `body`; a space is held back until an item follows it.
        var started = false
        var heldSpace = false
        func emit(_ item: InlineItem) {
            if case .space = item {
                if started { heldSpace = true }
                return
            }
            if heldSpace { body(.space); heldSpace = false }
            started = true
            body(item)
        }
        var pending: [WordPart] = []
        func flush() { if !pending.isEmpty { emit(.word(pending)); pending = [] } }
        func add(_ text: String, _ font: RoffFont, _ literal: Bool) {
            // ASCII: split at space bytes (the same pieces as splitting at space Characters).
            // No list of pieces: each is handed on as it is found.
            if text.utf8.allSatisfy({ $0 < 0x80 }) {
                let u = text.utf8
                var start = u.startIndex
                var i = start
                while i != u.endIndex {
                    if u[i] == 0x20 {
                        if start != i { pending.append(WordPart(text: String(Substring(u[start..<i])), font: font, literal: literal)) }
                        flush(); emit(.space)
                        start = u.index(after: i)
                    }
                    i = u.index(after: i)
                }
                if start != u.endIndex { pending.append(WordPart(text: String(Substring(u[start...])), font: font, literal: literal)) }
                return
            }
            var start = text.startIndex
            var i = start
            while i != text.endIndex {
                let next = text.index(after: i)
                if text[i] == " " {
                    if start != i { pending.append(WordPart(text: String(text[start..<i]), font: font, literal: literal)) }
                    flush(); emit(.space)
                    start = next
                }
                i = next
            }
            if start != text.endIndex { pending.append(WordPart(text: String(text[start...]), font: font, literal: literal)) }
        }
        func space() {
            flush()
            emit(.space)
        }
        func spanID(_ run: InlineRun?, link: Bool) -> (Int, Link)? {
            guard let run else { return nil }
            for s in run.spans.reversed() {
                if link, case .link(let l) = s.kind { return (s.id, l) }
                if !link, case .image(let l) = s.kind { return (s.id, l) }
            }
            return nil
        }
        let runs = c.runs
        /// The open link: span id, link, and how it is written.
        var openLink: (id: Int, link: Link, mode: LinkMode)?
        for (idx, run) in runs.enumerated() {
            let link = spanID(run, link: true)
            if let o = openLink, link?.0 != o.id {
                closeLink(o)
                openLink = nil
            }
            if let link, openLink == nil {
                // Text of the whole link.
                var text = ""
                for r in runs[idx...] {
                    guard spanID(r, link: true)?.0 == link.0 else { break }
                    if case .text(let t) = r.content { text += t }
                }
                let dest = link.1.destination
                let auto = text.isEmpty || text == dest || "mailto:" + text == dest
                if auto {
                    flush()
                    add(text.isEmpty ? dest : text, .roman, true)
                    openLink = (link.0, link.1, .urlOnly)
                    continue  // the link's runs are skipped: the URL is written once
                }
                if flow {
                    flush()
                    emit(.linkStart(link.1))
                }
                openLink = (link.0, link.1, flow ? .macro : .textThenURL)
            } else if let o = openLink, o.mode == .urlOnly {
                continue
            }
            let a = run.attributes
            let f = font(a)
            switch run.content {
            case .text(let t): add(t, f, a.code)
            case .softBreak: space()
            case .hardBreak:
                if flow { flush(); emit(.hardBreak) } else { space() }
            case .footnoteReference(_, let n, _): add("[\(n)]", .roman, false)
            case .rawHTML(let h): rawInline(h, flow: flow, warn: warn, add: add, hardBreak: { flush(); emit(.hardBreak) }, space: space)
            }
            // An image ends: add its URL unless inside a link.
            if let img = spanID(run, link: false), spanID(idx + 1 < runs.count ? runs[idx + 1] : nil, link: false)?.0 != img.0,
               link == nil {
                space()
                add("<" + img.1.destination + ">", .roman, true)
            }
        }
        if let o = openLink { closeLink(o) }
        flush()

        func closeLink(_ o: (id: Int, link: Link, mode: LinkMode)) {
            switch o.mode {
            case .macro:
                flush()
                emit(.linkEnd)
            case .textThenURL:
                space()
                add("<" + o.link.destination + ">", .roman, true)
            case .urlOnly:
                break
            }
        }
    }

    static func rawInline(_ h: String, flow: Bool, warn: (String) -> Void, add: (String, RoffFont, Bool) -> Void, hardBreak: () -> Void,
                          space: () -> Void) {
        let t = h.trimmingCharacters(in: .whitespaces)
        if t.hasPrefix("<!--") { return }
        var name = t.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }
        let closing = t.hasPrefix("</")
        if closing { name = t.dropFirst(2).prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." } }
        let lower = name.lowercased()
        if lower == "br" {
            if flow { hardBreak() } else { space() }
            return
        }
        if !name.isEmpty && !htmlElements.contains(lower) && t.hasSuffix(">") && !t.contains(" ") {
            // ronn-format(7): `<var>` is a placeholder, shown underlined (italic here).
            if !closing { add(String(name), .italic, false) }
            return
        }
        warn("raw HTML '\(t.prefix(40))' dropped")
    }
}

extension RoffWriter {
    /// Lays out a table cell's items on one line (no sentence breaks, no macros).
    fileprivate mutating func layoutCell(_ items: [InlineItem]) {
        for item in items {
            switch item {
            case .word(let p): word(p, context: .cell)
            case .space, .hardBreak: space()
            case .linkStart, .linkEnd: break
            }
        }
    }
}
