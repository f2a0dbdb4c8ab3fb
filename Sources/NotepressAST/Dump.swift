import Foundation

/// Writes a document as JSON (`notepress convert -t json`): stable key order, two-space indent,
/// node names as in the CommonMark spec. The shape is documented in README.md ("The AST as JSON").
package enum ASTDump {
    /// The JSON dump. Dates are ISO 8601 in UTC, proleptic Gregorian (``CivilDateTime/iso8601``:
    /// `YYYY-MM-DDTHH:MM:SS[.fff]Z`). Deterministic: same document, same bytes.
    package static func json(_ document: Document) -> String {
        String(decoding: jsonBytes(document), as: UTF8.self)
    }

    /// ``json(_:)`` as UTF-8 bytes, written straight into one byte buffer (no `String` appends).
    package static func jsonBytes(_ document: Document) -> [UInt8] {
        var w = JSONWriter()
        w.value(documentValue(document))
        w.out.append(0x0A)
        return w.out
    }

    private static func documentValue(_ d: Document) -> JSON {
        var meta: [(String, JSON)] = []
        meta.append(("title", d.metadata.title.map(JSON.string) ?? .null))
        meta.append(("created", d.metadata.created.map { .string(CivilDateTime($0).iso8601) } ?? .null))
        meta.append(("tags", .array(d.metadata.tags.map(JSON.string))))
        meta.append(("sourcePath", d.metadata.outputSourcePath.map(JSON.string) ?? .null))
        meta.append(("sourceFormat", .string(d.metadata.sourceFormat.rawValue)))
        meta.append(("fields", .object(d.metadata.fields.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
        return .object([("type", .string("document")), ("metadata", .object(meta)), ("children", .array(d.blocks.map(blockValue)))])
    }

    private static func blockValue(_ b: Block) -> JSON {
        var o: [(String, JSON)] = []
        func pos() { if let p = b.position { o.append(("position", .string(p.description))) } }
        switch b.kind {
        case .paragraph(let c):
            o = [("type", .string("paragraph"))]; pos(); o.append(("inlines", inlinesValue(c)))
        case .heading(let l, let c):
            o = [("type", .string("heading")), ("level", .number(l))]; pos()
            if let id = b.id { o.append(("id", .string(id))) }
            o.append(("inlines", inlinesValue(c)))
        case .blockQuote(let bs):
            o = [("type", .string("block_quote"))]; pos(); o.append(("children", .array(bs.map(blockValue))))
        case .list(let l):
            o = [("type", .string("list")), ("listType", .string(l.type.rawValue)), ("start", .number(l.start)),
                 ("tight", .bool(l.tight))]
            if let d = l.delimiter { o.append(("delimiter", .string(d.rawValue))) }
            pos()
            o.append(("items", .array(l.items.map { item in
                var io: [(String, JSON)] = [("type", .string("item"))]
                if let t = item.task { io.append(("task", .string(t.rawValue))) }
                if let n = item.number { io.append(("number", .number(n))) }
                if let p = item.position { io.append(("position", .string(p.description))) }
                io.append(("children", .array(item.blocks.map(blockValue))))
                return .object(io)
            })))
        case .codeBlock(let info, let lit):
            o = [("type", .string("code_block")), ("info", .string(info))]; pos(); o.append(("literal", .string(lit)))
            if let h = b.highlight {
                // The highlighting roles, one span per run: the text of each, in order.
                o.append(("language", .string(h.language)))
                o.append(("spans", .array(h.pieces(of: lit).map {
                    .object([("role", .string($0.role.rawValue)), ("text", .string(String($0.text)))])
                })))
            }
        case .htmlBlock(let h):
            o = [("type", .string("html_block"))]; pos(); o.append(("literal", .string(h)))
        case .thematicBreak:
            o = [("type", .string("thematic_break"))]; pos()
        case .table(let t):
            o = [("type", .string("table")), ("alignments", .array(t.alignments.map { .string($0.rawValue) }))]; pos()
            o.append(("header", .array(t.header.map(inlinesValue))))
            o.append(("rows", .array(t.rows.map { .array($0.map(inlinesValue)) })))
        case .footnoteDefinition(let label, let bs):
            o = [("type", .string("footnote_definition")), ("label", .string(label))]; pos()
            o.append(("children", .array(bs.map(blockValue))))
        case .unknown(let name, let bs):
            o = [("type", .string("unknown")), ("name", .string(name))]; pos()
            o.append(("children", .array(bs.map(blockValue))))
        case .alert(let a):
            o = [("type", .string("alert")), ("kind", .string(a.kind.rawValue))]
            if let t = a.title { o.append(("title", .string(t))) }
            // The title's markup beside its plain text, when it has any (a plain title: `title` only).
            if let t = a.markedTitle { o.append(("title_inlines", inlinesValue(t))) }
            if let f = a.fold { o.append(("fold", .string(f.rawValue))) }
            pos()
            o.append(("children", .array(a.blocks.map(blockValue))))
        case .definitionList(let items):
            o = [("type", .string("definition_list"))]; pos()
            o.append(("items", .array(items.map { item in
                var io: [(String, JSON)] = [("type", .string("definition_item"))]
                if let p = item.position { io.append(("position", .string(p.description))) }
                io.append(("term", inlinesValue(item.term)))
                io.append(("definitions", .array(item.definitions.map { .array($0.map(blockValue)) })))
                return .object(io)
            })))
        }
        if let a = b.attributes { o.append(("attributes", attributesValue(a))) }
        return .object(o)
    }

    private static func inlinesValue(_ i: Inlines) -> JSON { .inlines(i) }

    /// An attribute list (``MarkupAttributes``): `id`, `classes`, `pairs` as written.
    static func attributesValue(_ a: MarkupAttributes) -> JSON {
        var o: [(String, JSON)] = []
        if let id = a.id { o.append(("id", .string(id))) }
        if !a.classes.isEmpty { o.append(("classes", .array(a.classes.map(JSON.string)))) }
        if !a.pairs.isEmpty { o.append(("pairs", .object(a.pairs.map { ($0.key, .string($0.value)) }))) }
        return .object(o)
    }

    /// The object of one run (written on one line, see ``JSONWriter``).
    static func runFields(_ run: InlineRun) -> [(String, JSON)] {
        switch run.content {
        case .text(let t): return [("text", .string(t))]
        case .softBreak: return [("softbreak", .bool(true))]
        case .hardBreak: return [("linebreak", .bool(true))]
        case .footnoteReference(let l, let n, let occ):
            return [("footnote_reference", .string(l)), ("number", .number(n)), ("occurrence", .number(occ))]
        case .rawHTML(let h): return [("html_inline", .string(h))]
        }
    }

    /// The keys of a span node before its `children`.
    static func spanFields(_ kind: InlineSpan.Kind) -> [(String, JSON)] {
        switch kind {
        case .strong: return [("kind", .string("strong"))]
        case .emphasis: return [("kind", .string("emph"))]
        case .strikethrough: return [("kind", .string("strikethrough"))]
        case .script: return [("kind", .string("script"))]
        case .code: return [("kind", .string("code"))]
        case .marker: return [("kind", .string("marker"))]
        case .letterpress: return [("kind", .string("letterpress"))]
        case .link(let l):
            var o: [(String, JSON)] = [("kind", .string("link")), ("destination", .string(l.destination))]
            if !l.title.isEmpty { o.append(("title", .string(l.title))) }
            Self.linkFacts(l, into: &o)
            return o
        case .image(let l):
            var o: [(String, JSON)] = [("kind", .string("image")), ("source", .string(l.destination))]
            if !l.title.isEmpty { o.append(("title", .string(l.title))) }
            Self.linkFacts(l, into: &o)
            return o
        case .colorRole(let r): return [("kind", .string("color")), ("role", .string(r.rawValue))]
        case .textStyle(let t): return [("kind", .string("text_style")), ("style", .string(t.rawValue))]
        case .tag(let name): return [("kind", .string("tag")), ("name", .string(name))]
        case .highlight: return [("kind", .string("highlight"))]
        case .superscript: return [("kind", .string("superscript"))]
        case .subscript: return [("kind", .string("subscript"))]
        case .insert: return [("kind", .string("insert"))]
        case .keyboard: return [("kind", .string("keyboard"))]
        case .abbreviation(let t): return [("kind", .string("abbreviation")), ("title", .string(t))]
        case .math(let display): return [("kind", .string("math")), ("display", .bool(display))]
        }
    }

    /// `"wiki": true` for a wiki link, `"missing": true` for one a site could not resolve,
    /// `"target": "path"` for one it resolved to an input.
    static func linkFacts(_ l: Link, into o: inout [(String, JSON)]) {
        if l.syntax == .wiki { o.append(("wiki", .bool(true))) }
        if l.isEmbed { o.append(("embed", .bool(true))) }
        if let w = l.width { o.append(("width", .number(w))) }
        if let h = l.height { o.append(("height", .number(h))) }
        if l.isMissing { o.append(("missing", .bool(true))) }
        if let t = l.target { o.append(("target", .string(t.path))) }
        if let a = l.attributes { o.append(("attributes", attributesValue(a))) }
    }
}

/// A JSON value with ordered object keys; `inlines` is written as the nested node array of
/// README.md's "The AST as JSON", without recursion.
enum JSON {
    case null, bool(Bool), number(Int), string(String), array([JSON]), object([(String, JSON)])
    case inlines(Inlines)
}

/// Writes ``JSON`` values: two-space indentation, one member per line, except that containers
/// at nesting level ``maxIndentedLevel`` or deeper, and run objects, are written on one line
/// (`, ` and `: ` separators). Indentation therefore never exceeds 2 × ``maxIndentedLevel``
/// spaces, and a span nested `d` deep costs a constant number of bytes, not O(d): the dump
/// stays linear in the input at any depth.
struct JSONWriter {
    /// The deepest container level laid out one member per line.
    static let maxIndentedLevel = 16

    /// The UTF-8 bytes written so far.
    var out: [UInt8] = []
    /// The nesting level of the value being written (the document is level 0).
    private var level = 0
    /// Open containers: whether laid out one member per line, and members written so far.
    private var containers: [(multiline: Bool, count: Int)] = []
    /// Above 0 while a one-line object (a run) is written.
    private var oneLine = 0

    mutating func value(_ v: JSON) {
        switch v {
        case .null: ascii("null")
        case .bool(let b): ascii(b ? "true" : "false")
        case .number(let n): ascii(String(n))
        case .string(let s): string(s)
        case .array(let a):
            open(UInt8(ascii: "["))
            for e in a { member(); value(e) }
            close(UInt8(ascii: "]"))
        case .object(let o):
            open(UInt8(ascii: "{"))
            for (k, e) in o { member(); string(k); ascii(": "); value(e) }
            close(UInt8(ascii: "}"))
        case .inlines(let i): inlines(i)
        }
    }

    /// Appends ASCII text (keywords, numbers, separators) as it is.
    private mutating func ascii(_ s: StaticString) {
        s.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    private mutating func ascii(_ s: String) { out.append(contentsOf: s.utf8) }

    private mutating func open(_ bracket: UInt8) {
        out.append(bracket)
        containers.append((oneLine == 0 && level < Self.maxIndentedLevel, 0))
        level += 1
    }

    /// Starts the next member of the innermost container: separator and line break.
    private mutating func member() {
        let c = containers[containers.count - 1]
        if c.count > 0 { out.append(UInt8(ascii: ",")) }
        if c.multiline {
            out.append(0x0A)
            pad(level)
        } else if c.count > 0 {
            out.append(0x20)
        }
        containers[containers.count - 1].count += 1
    }

    private mutating func close(_ bracket: UInt8) {
        let c = containers.removeLast()
        level -= 1
        if c.multiline && c.count > 0 {
            out.append(0x0A)
            pad(level)
        }
        out.append(bracket)
    }

    private mutating func pad(_ n: Int) { out.append(contentsOf: repeatElement(0x20, count: 2 * n)) }

    /// Inline content as an array of nodes: runs (`{"text": …}`, …) and spans (`{"kind": …,
    /// …, "children": [nodes]}`), in order. Walks the span tree with
    /// ``Inlines/transition(from:to:into:)``: each span is opened and closed once.
    private mutating func inlines(_ inl: Inlines) {
        open(UInt8(ascii: "["))
        var t = SpanTransition()
        var current: Int?
        func closeSpans(_ count: Int) {
            for _ in 0..<count {
                close(UInt8(ascii: "]"))  // children
                close(UInt8(ascii: "}"))  // the span
            }
        }
        for run in inl.runs {
            inl.transition(from: current, to: run.span, into: &t)
            closeSpans(t.closing.count)
            for s in t.opening {
                member()
                open(UInt8(ascii: "{"))
                for (k, e) in ASTDump.spanFields(inl.spans[s].kind) { member(); string(k); ascii(": "); value(e) }
                member()
                string("children")
                ascii(": ")
                open(UInt8(ascii: "["))
            }
            member()
            oneLine += 1
            value(.object(ASTDump.runFields(run)))
            oneLine -= 1
            current = run.span
        }
        inl.transition(from: current, to: nil, into: &t)
        closeSpans(t.closing.count)
        close(UInt8(ascii: "]"))
    }

    /// JSON string escaping (RFC 8259 §7): quote, backslash and every control character (C0,
    /// DEL and C1, the C1 ones as their two-byte UTF-8 forms `C2 80`…`C2 9F`), byte by byte.
    mutating func string(_ s: String) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            var start = 0
            var i = 0
            let n = bytes.count
            while i < n {
                let b = bytes[i]
                let code: UInt32
                let width: Int
                if b == 0x22 || b == 0x5C || b < 0x20 || b == 0x7F {
                    code = UInt32(b); width = 1
                } else if b == 0xC2 && i + 1 < n && bytes[i + 1] >= 0x80 && bytes[i + 1] < 0xA0 {
                    code = UInt32(bytes[i + 1]); width = 2
                } else {
                    i += 1
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                switch code {
                case 0x22: out.append(0x5C); out.append(0x22)
                case 0x5C: out.append(0x5C); out.append(0x5C)
                case 0x0A: out.append(0x5C); out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(0x5C); out.append(UInt8(ascii: "r"))
                case 0x09: out.append(0x5C); out.append(UInt8(ascii: "t"))
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    out.append(0x5C); out.append(UInt8(ascii: "u")); out.append(0x30); out.append(0x30)
                    out.append(hex[Int(code >> 4)]); out.append(hex[Int(code & 0xF)])
                }
                i += width
                start = i
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<n]))
        }
        out.append(UInt8(ascii: "\""))
    }
}
