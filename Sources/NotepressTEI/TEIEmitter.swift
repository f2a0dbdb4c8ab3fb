import Foundation
import NotepressAST

/// Writes a ``Document`` as TEI P5 XML (namespace `http://www.tei-c.org/ns/1.0`), a subset
/// described exactly by `Templates/tei/notepress-tei.rng`. Element choices follow pandoc's TEI
/// writer where they fit and the TEI P5 Guidelines otherwise (chapters named below).
///
/// Header (TEI P5 §2 "The TEI Header"):
///
/// | Source                         | TEI                                                                 |
/// |--------------------------------|---------------------------------------------------------------------|
/// | `metadata.title`               | `teiHeader/fileDesc/titleStmt/title` (`Untitled` when absent/empty) |
/// | (fixed)                        | `fileDesc/publicationStmt/p` = `Converted by Notepress` (no dates)   |
/// | `metadata.sourcePath`, format  | `fileDesc/sourceDesc/bibl/idno[@type="path"]`, `idno[@type="format"]` |
/// | `metadata.created`             | `profileDesc/creation/date/@when`, `YYYY-MM-DDTHH:MM:SSZ` (UTC)     |
/// | `metadata.tags`                | `profileDesc/textClass/keywords/term`, one per tag                  |
///
/// Blocks (TEI P5 §3 "Elements Available in All TEI Documents", §4 "Default Text Structure"):
///
/// | AST                        | TEI                                                                      |
/// |----------------------------|--------------------------------------------------------------------------|
/// | top-level heading, level n | `div[@xml:id]` with `head`; divs nest by level (a heading closes every open div of level ≥ n) |
/// | heading inside a container | `p[@rend="heading-n"]` (a `div` cannot appear inside `quote`, `item`, `note`) |
/// | paragraph                  | `p`                                                                      |
/// | block quote                | `quote` containing blocks                                                |
/// | bullet list                | `list[@rend="bulleted"]` of `item`                                       |
/// | ordered list               | `list[@rend="numbered"]` of `item[@n]`; `@n` is the item's number (the list's start, counting up, or the note's own number) |
/// | task list item             | `item[@ana="#task-checked"]` or `item[@ana="#task-unchecked"]` (`@ana`, att.global.analytic) |
/// | code block                 | `ab[@type="codeblock"]` holding `code[@lang]`; `@lang` is the first word of the info string, when present. (TEI's `ab` has no `@lang`; `code/@lang` is TEI's "formal language" attribute, §3.13.2.) The final newline is dropped. |
/// | raw HTML block             | dropped (never copied as markup)                                         |
/// | thematic break             | `milestone[@unit="section"]`                                             |
/// | table                      | `table`; the header is `row[@role="label"]`, body rows `row`; cells `cell[@rend="left|center|right"]` (no `@rend` for default alignment) |
/// | footnote definition        | written at its first reference (see below); a definition never referenced is written where it stands as `note[@place="foot"]` |
/// | unknown node               | warning, then its children                                               |
///
/// Inlines (TEI P5 §3.3 "Highlighting and Quotation"):
///
/// | AST span / run        | TEI                                                                          |
/// |-----------------------|------------------------------------------------------------------------------|
/// | strong                | `hi[@rend="bold"]`                                                           |
/// | emphasis              | `hi[@rend="italic"]`                                                         |
/// | strikethrough         | `hi[@rend="strikethrough"]`                                                  |
/// | script (`~x~`)        | `hi[@rend="script"]`                                                         |
/// | colour role alert     | `hi[@rend="alert"]`                                                          |
/// | letterpress / marker  | `hi[@rend="letterpress"]` / `hi[@rend="marker"]`                             |
/// | text style s          | `hi[@rend="style-s"]` (e.g. `style-headline`)                                |
/// | inline code           | `code` (spans inside code are not kept: TEI `code` holds text only)           |
/// | link                  | `ref[@target]` (no `@target` for an empty destination; the link title is not kept) |
/// | image                 | `figure` with `head` (the title, if any), `graphic[@url]`, `figDesc` (the description as plain text). `figure` is in `model.inter`, allowed inside `p`, `hi`, `head`, `cell` (§14.4). An image with an empty destination becomes its description as text. |
/// | footnote reference    | first reference: `note[@place="foot"][@n][@xml:id]` holding the definition's blocks, at the reference point (as pandoc does); later references: `ref[@type="noteref"][@target="#id"]` with the number |
/// | hard break            | `lb`                                                                         |
/// | soft break            | a newline                                                                    |
/// | raw inline HTML       | dropped                                                                      |
///
/// `xml:id` values come from heading text (ASCII letters and digits, lowercased, other runs of
/// characters become `-`; `sec-` is prefixed when the result does not start with a letter,
/// `section` when empty) and are made unique with `-2`, `-3`, …; footnotes get `fn-N`.
/// Characters XML 1.0 does not allow are removed (see ``XMLEscaping``). Output is deterministic.
public struct TEIEmitter: Sendable {
    /// The TEI P5 namespace.
    public static let namespace = "http://www.tei-c.org/ns/1.0"

    /// Elements laid out one child per line (they never hold character data directly).
    static let blockElements: Set<String> = [
        "TEI", "teiHeader", "fileDesc", "titleStmt", "publicationStmt", "sourceDesc", "bibl",
        "profileDesc", "creation", "textClass", "keywords", "text", "body", "div", "list", "item",
        "quote", "table", "row",
    ]

    /// Keep dangerous link and image destinations live (`--unsafe`; ``URLSafety``).
    public var unsafe: Bool

    public init(unsafe: Bool = false) { self.unsafe = unsafe }

    /// The TEI document as text: XML declaration, `TEI` root, final newline. Warnings (unknown
    /// nodes) go to `diagnostics`.
    public func render(_ document: Document, diagnostics: inout [Diagnostic]) -> String {
        let root = tree(document, diagnostics: &diagnostics)
        var s = XMLSerializer(blockElements: Self.blockElements)
        return s.document(root)
    }

    /// The `TEI` root element, built but not serialized.
    public func tree(_ document: Document, diagnostics: inout [Diagnostic]) -> XMLTreeElement {
        var b = TEIBuilder(document: document)
        b.unsafe = unsafe
        let root = b.build()
        diagnostics += b.diagnostics
        return root
    }
}

/// Turns heading text into unique `xml:id` values (xsd:NCName).
struct IDAllocator {
    private var used: Set<String> = []

    /// A slug of `text`: ASCII letters/digits lowercased, other runs become `-`.
    static func slug(_ text: String) -> String {
        var s = ""
        var pendingDash = false
        for u in text.unicodeScalars {
            if u.isASCII, u.properties.isAlphabetic || ("0"..."9").contains(u) {
                if pendingDash && !s.isEmpty { s += "-" }
                pendingDash = false
                s.unicodeScalars.append(Unicode.Scalar(UInt8(ascii: u).lowercasedASCII))
            } else {
                pendingDash = true
            }
        }
        if s.isEmpty { return "section" }
        if let f = s.unicodeScalars.first, !f.properties.isAlphabetic { return "sec-" + s }
        return s
    }

    /// `base` if unused, else `base-2`, `base-3`, …; the result is marked used.
    mutating func unique(_ base: String) -> String {
        var candidate = base
        var n = 2
        while used.contains(candidate) {
            candidate = "\(base)-\(n)"
            n += 1
        }
        used.insert(candidate)
        return candidate
    }
}

private extension UInt8 {
    init(ascii u: Unicode.Scalar) { self = UInt8(truncatingIfNeeded: u.value) }
    var lowercasedASCII: UInt8 { (65...90).contains(self) ? self + 32 : self }
}

/// The state of one conversion.
struct TEIBuilder {
    let document: Document
    /// Keep dangerous link and image destinations live (``URLSafety``).
    var unsafe = false
    var diagnostics: [Diagnostic] = []
    var ids = IDAllocator()
    /// Footnote definitions by normalised label (first definition wins).
    var definitions: [String: [Block]] = [:]
    /// Footnote numbers by normalised label, from the references.
    var numbers: [String: Int] = [:]
    /// `xml:id` of each footnote already written, by normalised label.
    var writtenNotes: [String: String] = [:]

    init(document: Document) {
        self.document = document
        document.forEachBlock { block, _ in
            if case .footnoteDefinition(let label, let blocks) = block.kind {
                let key = Self.normalize(label)
                if definitions[key] == nil { definitions[key] = blocks }
            }
        }
    }

    /// Footnote labels match case-insensitively with whitespace collapsed (CommonMark §4.7).
    static func normalize(_ label: String) -> String {
        label.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).joined(separator: " ")
    }

    mutating func build() -> XMLTreeElement {
        var root = XMLTreeElement("TEI", [("xmlns", TEIEmitter.namespace)])
        root.append(header())
        var text = XMLTreeElement("text")
        text.append(body())
        root.append(text)
        return root
    }

    func header() -> XMLTreeElement {
        let meta = document.metadata
        var title = meta.title ?? ""
        if title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { title = "Untitled" }
        var titleEl = XMLTreeElement("title"); titleEl.append(text: title)
        var pub = XMLTreeElement("p"); pub.append(text: "Converted by Notepress")
        var bibl = XMLTreeElement("bibl")
        if let path = meta.sourcePath {
            var idno = XMLTreeElement("idno", [("type", "path")]); idno.append(text: path); bibl.append(idno)
        }
        var fmt = XMLTreeElement("idno", [("type", "format")]); fmt.append(text: meta.sourceFormat.rawValue)
        bibl.append(fmt)
        let fileDesc = XMLTreeElement("fileDesc", [], [
            .element(XMLTreeElement("titleStmt", [], [.element(titleEl)])),
            .element(XMLTreeElement("publicationStmt", [], [.element(pub)])),
            .element(XMLTreeElement("sourceDesc", [], [.element(bibl)])),
        ])
        var teiHeader = XMLTreeElement("teiHeader")
        teiHeader.append(fileDesc)
        var profile = XMLTreeElement("profileDesc")
        if let created = meta.created {
            profile.append(XMLTreeElement("creation", [], [.element(XMLTreeElement("date", [("when", CivilDateTime(created).iso8601)]))]))
        }
        if !meta.tags.isEmpty {
            var keywords = XMLTreeElement("keywords")
            for tag in meta.tags {
                var term = XMLTreeElement("term"); term.append(text: tag); keywords.append(term)
            }
            profile.append(XMLTreeElement("textClass", [], [.element(keywords)]))
        }
        if !profile.children.isEmpty { teiHeader.append(profile) }
        return teiHeader
    }

    // MARK: Sections

    /// `body`: blocks before the first heading, then nested `div`s. Never empty (TEI requires
    /// content): an empty document gets one empty `p`.
    mutating func body() -> XMLTreeElement {
        var stack: [(level: Int, element: XMLTreeElement)] = [(0, XMLTreeElement("body"))]
        func closeTop(_ stack: inout [(level: Int, element: XMLTreeElement)]) {
            let top = stack.removeLast()
            stack[stack.count - 1].element.append(top.element)
        }
        var pending = document.blocks[...].map { $0 }
        var index = 0
        while index < pending.count {
            let block = pending[index]
            index += 1
            switch block.kind {
            case .heading(let level, let content):
                while stack.count > 1 && stack[stack.count - 1].level >= level { closeTop(&stack) }
                let id = ids.unique(IDAllocator.slug(content.plainText))
                var div = XMLTreeElement("div", [("xml:id", id)])
                var head = XMLTreeElement("head")
                head.children = inlines(content)
                div.append(head)
                stack.append((level, div))
            case .unknown(let name, let children):
                warnUnknown(name, block)
                pending.insert(contentsOf: children, at: index)
            default:
                for e in self.block(block) { stack[stack.count - 1].element.append(e) }
            }
        }
        while stack.count > 1 { closeTop(&stack) }
        var body = stack[0].element
        if body.children.isEmpty { body.append(XMLTreeElement("p")) }
        return body
    }

    mutating func warnUnknown(_ name: String, _ block: Block) {
        diagnostics.append(Diagnostic(.warning, "TEI: unknown node '\(name)'; writing its children",
                                      file: document.metadata.sourcePath, position: block.position))
    }

    // MARK: Blocks

    mutating func blocks(_ bs: [Block]) -> [XMLTreeElement] {
        var out: [XMLTreeElement] = []
        for b in bs { out += block(b) }
        return out
    }

    mutating func block(_ b: Block) -> [XMLTreeElement] {
        switch b.kind {
        case .paragraph(let c):
            var p = XMLTreeElement("p"); p.children = inlines(c); return [p]
        case .heading(let level, let c):
            var p = XMLTreeElement("p", [("rend", "heading-\(min(max(level, 1), 6))")]); p.children = inlines(c); return [p]
        case .blockQuote(let children):
            return [XMLTreeElement("quote", [], blocks(children).map { .element($0) })]
        case .list(let l):
            var list = XMLTreeElement("list", [("rend", l.type == .ordered ? "numbered" : "bulleted")])
            var next = l.start
            for item in l.items {
                var attrs: [(String, String)] = []
                if l.type == .ordered {
                    let n = item.number ?? next
                    attrs.append(("n", String(n)))
                    next = n + 1
                }
                if let task = item.task {
                    attrs.append(("ana", task == .checked ? "#task-checked" : "#task-unchecked"))
                }
                list.append(XMLTreeElement("item", attrs, blocks(item.blocks).map { .element($0) }))
            }
            return [list]
        case .codeBlock(let info, let literal):
            var code = XMLTreeElement("code")
            if let lang = info.split(whereSeparator: { $0 == " " || $0 == "\t" }).first {
                code.attributes.append(("lang", String(lang)))
            }
            code.append(text: literal.hasSuffix("\n") ? String(literal.dropLast()) : literal)
            return [XMLTreeElement("ab", [("type", "codeblock")], [.element(code)])]
        case .htmlBlock:
            return []
        case .thematicBreak:
            return [XMLTreeElement("milestone", [("unit", "section")])]
        case .table(let t):
            var table = XMLTreeElement("table")
            table.append(row(t.header, t.alignments, header: true))
            for r in t.rows { table.append(row(r, t.alignments, header: false)) }
            return [table]
        case .footnoteDefinition(let label, _):
            let key = Self.normalize(label)
            if writtenNotes[key] != nil { return [] }
            return [note(key)]
        case .unknown(let name, let children):
            warnUnknown(name, b)
            return blocks(children)
        }
    }

    mutating func row(_ cells: [Inlines], _ alignments: [Table.Alignment], header: Bool) -> XMLTreeElement {
        var row = XMLTreeElement("row", header ? [("role", "label")] : [])
        for (i, c) in cells.enumerated() {
            let align = i < alignments.count ? alignments[i] : .none
            var cell = XMLTreeElement("cell", align == .none ? [] : [("rend", align.rawValue)])
            cell.children = inlines(c)
            row.append(cell)
        }
        if cells.isEmpty { row.append(XMLTreeElement("cell")) }
        return row
    }

    /// The `note` for the definition `key`, marked written before its blocks are converted so
    /// that a note referring to itself (directly or not) gets a `ref`, not endless recursion.
    mutating func note(_ key: String) -> XMLTreeElement {
        let number = numbers[key]
        let id = ids.unique(number.map { "fn-\($0)" } ?? "fn-" + IDAllocator.slug(key))
        writtenNotes[key] = id
        var attrs: [(String, String)] = [("place", "foot")]
        if let number { attrs.append(("n", String(number))) }
        attrs.append(("xml:id", id))
        let content = blocks(definitions[key] ?? [])
        return XMLTreeElement("note", attrs, content.map { .element($0) })
    }

    // MARK: Inlines

    /// One open span while inlines are built.
    struct Frame {
        var spanID: Int
        var kind: InlineSpan.Kind?
        var element: XMLTreeElement
        /// Image description, collected as plain text.
        var alt = ""
    }

    mutating func inlines(_ content: Inlines) -> [XMLTreeNode] {
        var frames: [Frame] = [Frame(spanID: Int.min, kind: nil, element: XMLTreeElement("#root"))]

        func close(_ frames: inout [Frame]) {
            let f = frames.removeLast()
            if case .image(let link)? = f.kind {
                let source = URLSafety.destination(link.destination, unsafe: unsafe)
                if source.isEmpty {
                    frames[frames.count - 1].element.append(text: f.alt)
                    return
                }
                var figure = XMLTreeElement("figure")
                if !link.title.isEmpty {
                    var head = XMLTreeElement("head"); head.append(text: link.title); figure.append(head)
                }
                figure.append(XMLTreeElement("graphic", [("url", Self.uriReference(source))]))
                if !f.alt.isEmpty {
                    var desc = XMLTreeElement("figDesc"); desc.append(text: f.alt); figure.append(desc)
                }
                frames[frames.count - 1].element.append(figure)
            } else {
                frames[frames.count - 1].element.append(f.element)
            }
        }

        for run in content.runs {
            // Spans inside code (text only in TEI) and inside an image (its plain description) are not kept.
            var spans: [InlineSpan] = []
            for s in run.spans {
                spans.append(s)
                if case .code = s.kind { break }
                if case .image = s.kind { break }
            }
            var common = 0
            while common < spans.count, common + 1 < frames.count, frames[common + 1].spanID == spans[common].id { common += 1 }
            while frames.count > common + 1 { close(&frames) }
            for s in spans[common...] { frames.append(Frame(spanID: s.id, kind: s.kind, element: Self.element(for: s.kind, unsafe: unsafe))) }

            let top = frames.count - 1
            switch frames[top].kind {
            case .image?:
                frames[top].alt += Inlines([InlineRun(run.content)]).plainText
            case .code?:
                switch run.content {
                case .text(let t): frames[top].element.append(text: t)
                case .softBreak, .hardBreak: frames[top].element.append(text: " ")
                case .footnoteReference(_, let n, _): frames[top].element.append(text: String(n))
                case .rawHTML: break
                }
            default:
                switch run.content {
                case .text(let t): frames[top].element.append(text: t)
                case .softBreak: frames[top].element.append(text: "\n")
                case .hardBreak: frames[top].element.append(XMLTreeElement("lb"))
                case .rawHTML: break
                case .footnoteReference(let label, let number, _):
                    let key = Self.normalize(label)
                    if numbers[key] == nil { numbers[key] = number }
                    if let id = writtenNotes[key] {
                        var ref = XMLTreeElement("ref", [("type", "noteref"), ("target", "#" + id)])
                        ref.append(text: String(number))
                        frames[top].element.append(ref)
                    } else if definitions[key] != nil {
                        let n = note(key)
                        frames[frames.count - 1].element.append(n)
                    } else {
                        frames[top].element.append(text: "[^\(label)]")
                    }
                }
            }
        }
        while frames.count > 1 { close(&frames) }
        return frames[0].element.children
    }

    /// The element a span opens; a link's `@target` only for a destination ``URLSafety`` keeps.
    static func element(for kind: InlineSpan.Kind, unsafe: Bool) -> XMLTreeElement {
        switch kind {
        case .strong: return XMLTreeElement("hi", [("rend", "bold")])
        case .emphasis: return XMLTreeElement("hi", [("rend", "italic")])
        case .strikethrough: return XMLTreeElement("hi", [("rend", "strikethrough")])
        case .script: return XMLTreeElement("hi", [("rend", "script")])
        case .colorRole(let r): return XMLTreeElement("hi", [("rend", r.rawValue)])
        case .letterpress: return XMLTreeElement("hi", [("rend", "letterpress")])
        case .marker: return XMLTreeElement("hi", [("rend", "marker")])
        case .textStyle(let s): return XMLTreeElement("hi", [("rend", "style-" + s.rawValue)])
        case .code: return XMLTreeElement("code")
        case .link(let l):
            let target = URLSafety.destination(l.destination, unsafe: unsafe)
            return XMLTreeElement("ref", target.isEmpty ? [] : [("target", uriReference(target))])
        case .image: return XMLTreeElement("figure")
        }
    }

    /// A destination as a URI reference that TEI's `teidata.pointer` (`xsd:anyURI`, no whitespace)
    /// accepts, by RFC 3986: ASCII characters outside `unreserved`, `reserved` and `%` (§2), a `%`
    /// not starting `%XX` (§2.1), `[`/`]` outside the authority (§3.2.2) and every `#` after the
    /// first (§3.5) are percent-encoded as UTF-8; a relative reference whose first segment has a
    /// `:` gets `./` in front (§4.2). Non-ASCII characters stay (IRIs, RFC 3987).
    static func uriReference(_ s: String) -> String {
        let scalars = Array(s.unicodeScalars)
        func isAlpha(_ u: Unicode.Scalar) -> Bool { ("a"..."z").contains(u) || ("A"..."Z").contains(u) }
        func isDigit(_ u: Unicode.Scalar) -> Bool { ("0"..."9").contains(u) }
        func isHex(_ u: Unicode.Scalar) -> Bool { isDigit(u) || ("a"..."f").contains(u) || ("A"..."F").contains(u) }
        // Scheme (§3.1) and authority (§3.2) boundaries.
        var schemeEnd: Int?
        if let first = scalars.first, isAlpha(first) {
            var i = 1
            while i < scalars.count, isAlpha(scalars[i]) || isDigit(scalars[i]) || "+-.".unicodeScalars.contains(scalars[i]) { i += 1 }
            if i < scalars.count, scalars[i] == ":" { schemeEnd = i }
        }
        var authority = 0..<0
        let afterScheme = schemeEnd.map { $0 + 1 } ?? 0
        if afterScheme + 1 < scalars.count, scalars[afterScheme] == "/", scalars[afterScheme + 1] == "/" {
            var j = afterScheme + 2
            while j < scalars.count, !"/?#".unicodeScalars.contains(scalars[j]) { j += 1 }
            authority = (afterScheme + 2)..<j
        }
        var out = ""
        if schemeEnd == nil, let colon = scalars.firstIndex(of: ":"),
           !scalars[..<colon].contains(where: { "/?#".unicodeScalars.contains($0) }) {
            out = "./"
        }
        let allowed = "-._~:/?#[]@!$&'()*+,;=".unicodeScalars
        var seenHash = false
        for (i, u) in scalars.enumerated() {
            var encode: Bool
            if u.isASCII {
                encode = !(isAlpha(u) || isDigit(u) || allowed.contains(u) || u == "%")
                if u == "%" {
                    encode = !(i + 2 < scalars.count && isHex(scalars[i + 1]) && isHex(scalars[i + 2]))
                } else if u == "[" || u == "]" {
                    encode = !authority.contains(i)
                } else if u == "#" {
                    encode = seenHash
                    seenHash = true
                }
            } else {
                // C1 controls and Unicode spaces are not allowed in IRIs either.
                encode = u.properties.generalCategory == .control || u.properties.isWhitespace
            }
            if encode {
                for b in String(u).utf8 { out += String(format: "%%%02X", b) }
            } else {
                out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
