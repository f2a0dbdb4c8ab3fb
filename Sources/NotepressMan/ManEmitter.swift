import Foundation
import NotepressAST

/// Writes a ``Document`` as a man page in the man(7) macro language (groff_man(7); the portable
/// subset mandoc(1) also reads), with tbl(1) tables.
///
/// Mapping:
/// - Title line: ``ManTitleResolver`` (`.TH NAME section date source manual`, name upper-cased).
///   A note goes in section 7 of a "Notes" manual unless its front matter says otherwise, and a
///   title too long for the header line is shortened there (``ManTitleResolver/headerName(_:note:)``)
///   and written whole, bold, at the top of the page.
/// - Headings: the shallowest top-level heading level becomes `.SH` (text upper-cased except
///   code), the next `.SS`, deeper ones a bold paragraph; so does every heading inside a list item,
///   block quote or entry (`.SH` would end the indentation). In ronn input (`.ronn`) `##` is
///   `.SH` (ronn-format(7)) and an indented `# …` line is text.
/// - NAME: the first paragraph of a NAME section is written `names \- description` (the form
///   whatis/apropos read; a ` - `, ` -- ` or ` — ` separator becomes `\-`); without a NAME section a
///   ronn description (`name(1) -- description`) is used to synthesise one.
/// - Paragraphs `.PP` (none for a paragraph whose raw HTML is all dropped). Options, commands,
///   environment variables and exit statuses become `.TP` entries however they are written
///   (``entry(_:at:)``): `**--flag**` lines, `term` / `: definition` (each `: ` line a definition
///   of its own), option headings (`#### **--flag**=*x*`), ronn definition lists; an option's
///   later paragraphs stay indented under it (`.RS`/`.RE`) up to the next option or heading.
/// - Lists `.IP` with `\(bu`, `N.` (bold in notes; one width for the whole list) or `[ ]`/`[x]`
///   tags; blocks after an item's first paragraph and nested lists go inside `.RS`/`.RE`. Block
///   quotes `.RS 4`/`.RE`. Code blocks `.EX`/`.EE` (trailing blanks of code lines are dropped).
///   Blanks that start a line of a note are kept as unpaddable spaces (`\ `). Alerts (`[!NOTE]`
///   …) as block quotes, their title (`Note`) a bold first line.
/// - Links `.UR`/`.UE` (`mailto:` → `.MT`/`.ME`); the punctuation right after a link is the
///   `.UE` trailer so no space appears before it, and a word that goes on after it follows `\c`.
///   A link whose text is its URL is written as the URL alone. In headings, tags and table cells
///   links are `text <url>`. Targets a page cannot follow are not printed (``linkTarget(_:)``:
///   `#fragment`s; relative `.md` files, shown as `name(section)` when named so).
/// - Tables: tbl with `allbox tab(@)` (without boxes when taller than a page holds, so that
///   print keeps every row); `@` in cells becomes `\[at]`; long cells are text blocks.
/// - Fonts: strong, code and alert-coloured words bold (`\fB`); emphasis and script italic;
///   strong + emphasis `\f(BI`; strikethrough `[STRIKEOUT:text]` as pandoc writes it (roff has no
///   strike-out that both groff and mandoc render on terminals).
/// - Hyphens: `\-` in code, URLs, the SYNOPSIS and every option-like token wherever it starts
///   (`(--width)`, `[-v|--verbose]`; ``RoffEscaper``), else `-`.
/// - Raw HTML is dropped with a warning; HTML comments silently (they carry no text). Inline
///   `<br>` becomes `.br`; ronn's `<var>` placeholders become italic text (``rawInline``).
/// - Images: their alt text, then `<url>` unless inside a link. Footnotes: `[n]` in the text, the
///   notes numbered in a final NOTES section.
package struct ManEmitter: Sendable {
    /// Keep dangerous link and image destinations live (`--unsafe`; ``URLSafety``).
    package var unsafe: Bool
    /// The section when the document names none (``ManTitleResolver/resolve(_:defaultSection:)``).
    package var defaultSection: String?
    /// Reads Markdown text into blocks (the facade's Markdown reader): a definition's paragraph
    /// indented under `: `, which CommonMark reads as an indented code block, is read again with
    /// it (``ManRenderer/definitionContinuation(_:)``). `nil`: such text is written as plain
    /// paragraphs.
    package var readMarkdown: (@Sendable (String) -> [Block])?

    package init(unsafe: Bool = false) { self.unsafe = unsafe }

    /// Renders `document`; warnings go to `diagnostics`. Output is ASCII and deterministic.
    package func render(_ document: Document, diagnostics: inout [Diagnostic]) -> String {
        var r = ManRenderer(file: document.metadata.sourcePath)
        r.unsafe = unsafe
        r.defaultSection = defaultSection
        r.readMarkdown = readMarkdown
        let s = r.render(document)
        diagnostics += r.diagnostics
        return s
    }
}

/// A flattened inline item.
enum InlineItem {
    case word(Word)
    case space
    /// Blanks that start a line, in columns (``RoffWriter/fixedSpace(_:)``).
    case indent(Int)
    case hardBreak
    /// A `.UR`/`.MT` link starts; its destination (only that: a whole ``Link`` made every item
    /// several times larger to copy).
    case linkStart(destination: String)
    case linkEnd
}

/// How a link is written: `.UR`/`.UE` around its text, `text <url>`, the URL alone (its text
/// is the URL), its text alone, or its text and another page's `name(section)` (a link to a page
/// of the site, ``Link/target``, or to a `name.section.md` source).
enum LinkMode: Equatable { case macro, textThenURL, urlOnly, textOnly, textThenPage(String) }

let htmlElements: Set<String> = [
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
let abbreviations: Set<String> = [
    "e.g.", "i.e.", "etc.", "vs.", "cf.", "al.", "mr.", "mrs.", "ms.", "dr.", "st.", "no.", "approx.", "fig.",
    "resp.", "viz.", "incl.", "ca.", "esp.", "eg.", "ie.",
]

struct ManRenderer {
    let file: String?
    /// Keep dangerous link and image destinations live (``URLSafety``).
    var unsafe = false
    /// The section when the document names none (``ManEmitter/defaultSection``).
    var defaultSection: String?
    var w = RoffWriter()
    /// The writer that lays out inline table cells, reused (``tableCell(_:naturalWidth:width:)``).
    var cellWriter = RoffWriter(width: Int.max)
    /// The items of a paragraph being laid out, kept between paragraphs for its capacity (``flow(_:)``).
    var itemBuffer: [InlineItem] = []
    var diagnostics: [Diagnostic] = []
    var shLevel = 1
    var inNameSection = false
    var nameWritten = false
    var footnotes: [[Block]] = []
    /// Inside a list item, block quote, footnote or entry body: headings are written as bold
    /// paragraphs there (`.SH` inside `.RS` would end the indentation).
    var containerDepth = 0
    /// ``ManEmitter/readMarkdown``.
    var readMarkdown: (@Sendable (String) -> [Block])?
    /// ronn input (``isRonn(_:)``): the element names the document closes, for ronn's
    /// placeholder rule; `nil` for other input.
    var ronnClosingTags: Set<String>?
    /// The document was written in note markup.
    var isNote = false

    init(file: String?) { self.file = file }

    /// Raw HTML start tags already reported, by element name (lower case), with the index of
    /// their warning in ``diagnostics``, for pairing with their end tags.
    var reportedStartTags: [String: [Int]] = [:]

    /// Adds a warning. A dropped raw HTML end tag (`</kbd>`) whose start tag was reported is the
    /// same dropped element: its start tag's warning becomes `raw HTML '<kbd>'…'</kbd>' dropped`
    /// and no second warning is added, so one element counts as one warning.
    mutating func warn(_ m: String, _ b: Block? = nil) {
        if let tag = Self.droppedTag(m) {
            if tag.closing, let i = reportedStartTags[tag.name]?.popLast() {
                let message = diagnostics[i].message
                if message.hasSuffix("' dropped") {
                    diagnostics[i].message = String(message.dropLast(" dropped".count)) + "…" + tag.text + " dropped"
                }
                return
            }
            if !tag.closing { reportedStartTags[tag.name, default: []].append(diagnostics.count) }
        }
        diagnostics.append(Diagnostic(.warning, "man: " + m, file: file, position: b?.position))
    }

    /// The tag of a `raw HTML '<kbd>' dropped` warning (``rawInline``'s wording): its element name
    /// in lower case, whether it is an end tag, and its quoted text (`'</kbd>'`).
    static func droppedTag(_ m: String) -> (name: String, closing: Bool, text: String)? {
        let head = "raw HTML '<", tail = "' dropped"
        guard m.hasPrefix(head), m.hasSuffix(tail) else { return nil }
        let text = String(m.dropFirst(head.count - 2).dropLast(tail.count - 1))
        var tag = m.dropFirst(head.count)
        let closing = tag.hasPrefix("/")
        if closing { tag = tag.dropFirst() }
        let name = tag.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }
        return name.isEmpty ? nil : (name.lowercased(), closing, text)
    }

    mutating func render(_ document: Document) -> String {
        let (title, body, titleDiagnostics) = ManTitleResolver.resolve(document, defaultSection: defaultSection)
        diagnostics += titleDiagnostics
        isNote = document.metadata.sourceFormat == .note
        if Self.isRonn(document) { ronnClosingTags = Self.closedTagNames(document) }
        var hasTable = false
        var minLevel = Int.max
        var hasName = false
        Document(metadata: document.metadata, blocks: body).forEachBlock { b, _ in
            if case .table = b.kind { hasTable = true }
        }
        // Section headings are the shallowest top-level ones (headings in lists and quotes are
        // bold paragraphs; ronn's indented `# …` lines are text).
        for b in body {
            if case .heading(let l, _) = b.kind, !isIndentedRonnHeading(b) { minLevel = min(minLevel, l) }
        }
        if minLevel == Int.max { minLevel = 1 }
        // ronn-format(7): "Man section headings are expressed with markdown level two headings".
        if ronnClosingTags != nil { minLevel = 2 }
        shLevel = minLevel
        for b in body {
            if case .heading(let l, let c) = b.kind, l == minLevel,
               c.plainText.trimmingHorizontalWhitespace().uppercased() == "NAME" { hasName = true }
        }
        if hasTable { w.raw("'\\\" t\n") }
        let header = ManTitleResolver.headerName(title, note: isNote)
        var args = [header.name.uppercased(), title.section, title.date, title.source, title.manual]
        while args.count > 2, args.last!.isEmpty { args.removeLast() }
        w.macro("TH", escapedArgs: args.enumerated().map { i, a in
            "\"" + (i == 0 ? RoffEscaper.titleName(a) : RoffEscaper.escape(a, context: .argument, minus: false)) + "\""
        })
        if !hasName {
            if let d = title.description {
                w.macro("SH", ["NAME"])
                writeNameLine(names: title.name, description: d)
            } else {
                warn("no NAME section and no description: whatis(1) and apropos(1) will not index this page")
            }
        }
        let before = w.bytes.count
        if header.shortened {
            // The whole title, which the header line could not hold.
            w.paragraph()
            layout(inlineItems(Inlines([InlineRun(.text(title.name))]), flow: false).map(Self.bold))
            w.endText()
        }
        blocks(body)
        if w.bytes.count == before && !nameWritten {
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
            if let next = entry(bs, at: i) {
                i = next
                continue
            }
            block(bs[i])
            i += 1
        }
    }

    mutating func block(_ b: Block) {
        switch b.kind {
        case .paragraph(let c): paragraph(c, b)
        case .heading(let l, let c):
            if isIndentedRonnHeading(b) {
                // Not a heading to ronn (its headings start a line): the text as written.
                var line = c
                line.runs.insert(InlineRun(.text(String(repeating: "#", count: l) + " ")), at: 0)
                paragraph(line, b)
            } else {
                heading(l, c)
            }
        case .blockQuote(let bs):
            if bs.isEmpty { return }
            w.paragraph()
            w.macro("RS", ["4"])
            containerDepth += 1
            blocks(bs)
            containerDepth -= 1
            w.macro("RE")
        case .alert(let a):
            // Indented like a block quote, under its title in bold.
            w.paragraph()
            w.macro("RS", ["4"])
            if !a.displayTitle.isEmpty {  // `!!! tip ""`: no title
                w.paragraph()
                w.word([WordPart(text: a.displayTitle, font: .bold, literal: false)])
                w.endText()
            }
            blocks(a.blocks)
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
            if !h.drop(while: { $0.isWhitespace }).hasPrefix("<!--") {  // no Foundation trim: 1 % of a run
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
            if name == ContentsMarker.typeName {
                warn(ContentsMarker.warning(format: "a man page"), b)
            } else if !ContentTabs.isTabs(name) {
                warn("unknown block '\(name)' written as its content", b)
            }
            blocks(bs)
        case .definitionList(let items):
            // Each term a `.TP` tag; its first paragraph the tag's text, the rest indented under it.
            for item in items {
                var rest = item.definitions.flatMap { $0 }
                var first: [Inlines] = []
                if let head = rest.first, case .paragraph(let c) = head.kind {
                    first = [c]
                    rest.removeFirst()
                }
                writeEntry(tag: item.term, definitions: first, rest: rest)
            }
        }
    }

    mutating func heading(_ level: Int, _ c: Inlines) {
        inNameSection = false
        let items = inlineItems(c, flow: false)
        if level <= shLevel + 1 && containerDepth == 0 {
            var text = ""
            for item in items {
                switch item {
                case .word(let parts):
                    let plain = parts.map(\.text).joined()
                    let optionLike = plain.hasPrefix("-")
                    var mask = HyphenMask(flags: optionLike ? [] : RoffEscaper.optionHyphens(in: plain))
                    // Long words (paths, URLs) and CJK text get break points, as in text.
                    let long = plain.unicodeScalars.count > w.breakThreshold || plain.unicodeScalars.contains(where: isCJK)
                    var piece = ""
                    for p in parts {
                        let t = (level == shLevel && !p.literal) ? p.text.uppercased() : p.text
                        piece += RoffEscaper.escape(t, context: .argument, minus: p.literal || optionLike, breakable: long, mask: &mask)
                    }
                    if long && piece.hasSuffix("\\:") { piece.removeLast(2) }
                    text += piece
                case .space, .hardBreak, .indent: if !text.isEmpty && !text.hasSuffix(" ") { text += " " }
                case .linkStart, .linkEnd: break
                }
            }
            while text.hasSuffix(" ") { text.removeLast() }
            if text.isEmpty { text = "\\&" }
            w.macro(level == shLevel ? "SH" : "SS", escapedArgs: [text])
            let name = c.plainText.trimmingHorizontalWhitespace().uppercased()
            if level == shLevel {
                if name == "NAME" && !nameWritten { inNameSection = true }
                // man-pages(7): the SYNOPSIS shows commands and options, every hyphen a `\-`.
                w.minusEverywhere = name == "SYNOPSIS"
            }
        } else {
            w.paragraph()
            layout(items.map(Self.bold))
            w.endText()
        }
    }

    /// `item` in bold (bold italic where it was italic).
    static func bold(_ item: InlineItem) -> InlineItem {
        guard case .word(let parts) = item else { return item }
        return .word(Word(parts.map { p in
            var q = p
            q.font = (p.font == .italic || p.font == .boldItalic) ? .boldItalic : .bold
            return q
        }))
    }

    /// A level-1 heading of ronn input that does not start its line (`   # make install` in a
    /// paragraph of commands): ronn's Markdown reads only `#` in the first column as a heading.
    func isIndentedRonnHeading(_ b: Block) -> Bool {
        guard ronnClosingTags != nil, containerDepth == 0, case .heading = b.kind, let p = b.position else { return false }
        return p.column > 1
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
        if !Self.hasVisibleText(c) {
            // Raw HTML, breaks and blanks only: a paragraph whose HTML is all dropped writes
            // nothing (an empty `.PP`: mandoc "skipping paragraph macro: PP empty").
            let items = inlineItems(c, flow: true)
            guard items.contains(where: { if case .word = $0 { return true } else { return false } }) else { return }
            w.paragraph()
            layout(items)
            w.endText()
            return
        }
        w.paragraph()
        flow(c)
    }

    /// Whether `c` has a text run with a non-blank character or a footnote reference (cheap: it
    /// stops at the first one).
    static func hasVisibleText(_ c: Inlines) -> Bool {
        for run in c.runs {
            switch run.content {
            case .text(let t): if t.unicodeScalars.contains(where: { $0 != " " && $0 != "\t" }) { return true }
            case .footnoteReference: return true
            case .softBreak, .hardBreak, .rawHTML: continue
            }
        }
        return false
    }

    mutating func writeNameLine(names: String, description: String) {
        w.newline()
        let n = RoffEscaper.escape(names.trimmingHorizontalWhitespace(), context: .text, minus: true)
        let d = RoffEscaper.escape(description.trimmingHorizontalWhitespace(), context: .text, minus: false)
        // A text line: the paragraph after it starts with `.PP` (not inside NAME).
        w.textLines(RoffWriter.guardLineStart(n) + (d.isEmpty ? "" : " \\- " + d))
        nameWritten = true
    }

    mutating func list(_ l: ListBlock) {
        if ronnClosingTags != nil, let entries = Self.ronnDefinitions(l) {
            for e in entries { writeEntry(tag: e.term, definitions: e.definition.isEmpty ? [] : [e.definition], rest: e.rest) }
            return
        }
        // One indent for the whole list: the widest number (items keep their own numbers).
        var widest = 0
        var n = l.start
        for it in l.items {
            if let k = it.number { n = k }
            widest = max(widest, String(n).count)
            n += 1
        }
        var number = l.start
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
                indent = widest + 2
                // Note markup shows the numbers of its numbered lines bold.
                if isNote { tag = RoffFont.bold.escape + tag + RoffFont.roman.escape }
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
            containerDepth += 1
            blocks(Array(rest))
            containerDepth -= 1
            w.macro("RE")
        }
    }
}
