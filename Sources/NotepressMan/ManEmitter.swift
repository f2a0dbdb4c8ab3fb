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
/// - Lists `.IP` with `\(bu`, `N.` or `[ ]`/`[x]` tags (note markup's numbers bold, `\fBN.\fR`);
///   blocks after an item's first paragraph and nested lists go inside `.RS`/`.RE`. Block quotes
///   `.RS 4`/`.RE`; alerts (`[!NOTE]` …) the same, their title (`Note`) a bold first line.
///   Code blocks `.EX`/`.EE` (trailing blanks of code lines are dropped).
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
    /// Keep dangerous link and image destinations live (`--unsafe`; ``URLSafety``).
    public var unsafe: Bool

    public init(unsafe: Bool = false) { self.unsafe = unsafe }

    /// Renders `document`; warnings go to `diagnostics`. Output is ASCII and deterministic.
    public func render(_ document: Document, diagnostics: inout [Diagnostic]) -> String {
        var r = ManRenderer(file: document.metadata.sourcePath)
        r.unsafe = unsafe
        r.boldNumbers = document.metadata.sourceFormat == .note
        let s = r.render(document)
        diagnostics += r.diagnostics
        return s
    }
}

/// A flattened inline item.
enum InlineItem {
    case word([WordPart])
    case space
    case hardBreak
    case linkStart(Link)
    case linkEnd
}

/// How a link is written.
enum LinkMode { case macro, textThenURL, urlOnly }

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
    var w = RoffWriter()
    var diagnostics: [Diagnostic] = []
    var shLevel = 1
    var inNameSection = false
    var nameWritten = false
    var footnotes: [[Block]] = []
    /// Note markup: numbered lines' numbers are bold (README, "Note markup").
    var boldNumbers = false

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
        case .alert(let a):
            // Indented like a block quote, under its title in bold.
            w.paragraph()
            w.macro("RS", ["4"])
            w.paragraph()
            w.word([WordPart(text: a.kind.title, font: .bold, literal: false)])
            w.endText()
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
            let first = c.subrange(0..<br)
            var rest = c.subrange((br + 1)..<c.runs.count)
            if case .text(let t)? = rest.runs.first?.content, t.hasPrefix(": ") || t == ":" {
                rest.runs[0].content = .text(String(t.dropFirst(t == ":" ? 1 : 2)))
                w.macro("TP")
                tag(first)
                flow(rest)
                return
            }
            if isOptionLine(first) && !rest.isEmpty {
                w.macro("TP")
                tag(first)
                flow(rest)
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
        let a = c.attributes(ofRun: 0)  // one run: the chain walk costs its depth once
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
                if boldNumbers { tag = "\\fB" + tag + "\\fR" }
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
}
