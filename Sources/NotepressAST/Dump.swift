import Foundation

/// Writes a document as JSON (`notepress convert -t json`): stable key order, two-space indent,
/// node names as in the CommonMark spec. The shape is documented in README.md ("The AST as JSON").
public enum ASTDump {
    /// The JSON dump. Dates are ISO 8601 in UTC, proleptic Gregorian (``CivilDateTime/iso8601``:
    /// `YYYY-MM-DDTHH:MM:SS[.fff]Z`). Deterministic: same document, same bytes.
    public static func json(_ document: Document) -> String {
        var w = JSONWriter()
        w.value(documentValue(document))
        return w.out + "\n"
    }

    private static func documentValue(_ d: Document) -> JSON {
        var meta: [(String, JSON)] = []
        meta.append(("title", d.metadata.title.map(JSON.string) ?? .null))
        meta.append(("created", d.metadata.created.map { .string(CivilDateTime($0).iso8601) } ?? .null))
        meta.append(("tags", .array(d.metadata.tags.map(JSON.string))))
        meta.append(("sourcePath", d.metadata.sourcePath.map(JSON.string) ?? .null))
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
            o = [("type", .string("heading")), ("level", .number(l))]; pos(); o.append(("inlines", inlinesValue(c)))
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
        }
        return .object(o)
    }

    private static func inlinesValue(_ i: Inlines) -> JSON {
        .array(i.runs.map { run in
            var o: [(String, JSON)]
            switch run.content {
            case .text(let t): o = [("text", .string(t))]
            case .softBreak: o = [("softbreak", .bool(true))]
            case .hardBreak: o = [("linebreak", .bool(true))]
            case .footnoteReference(let l, let n, let occ):
                o = [("footnote_reference", .string(l)), ("number", .number(n)), ("occurrence", .number(occ))]
            case .rawHTML(let h): o = [("html_inline", .string(h))]
            }
            if !run.spans.isEmpty { o.append(("spans", .array(run.spans.map(spanValue)))) }
            return .object(o)
        })
    }

    private static func spanValue(_ s: InlineSpan) -> JSON {
        var o: [(String, JSON)] = [("id", .number(s.id))]
        switch s.kind {
        case .strong: o.append(("kind", .string("strong")))
        case .emphasis: o.append(("kind", .string("emph")))
        case .strikethrough: o.append(("kind", .string("strikethrough")))
        case .script: o.append(("kind", .string("script")))
        case .code: o.append(("kind", .string("code")))
        case .marker: o.append(("kind", .string("marker")))
        case .letterpress: o.append(("kind", .string("letterpress")))
        case .link(let l):
            o.append(("kind", .string("link"))); o.append(("destination", .string(l.destination)))
            if !l.title.isEmpty { o.append(("title", .string(l.title))) }
        case .image(let l):
            o.append(("kind", .string("image"))); o.append(("source", .string(l.destination)))
            if !l.title.isEmpty { o.append(("title", .string(l.title))) }
        case .colorRole(let r): o.append(("kind", .string("color"))); o.append(("role", .string(r.rawValue)))
        case .textStyle(let t): o.append(("kind", .string("text_style"))); o.append(("style", .string(t.rawValue)))
        }
        return .object(o)
    }
}

/// A JSON value with ordered object keys.
enum JSON {
    case null, bool(Bool), number(Int), string(String), array([JSON]), object([(String, JSON)])
}

struct JSONWriter {
    var out = ""
    var indent = 0

    mutating func value(_ v: JSON) {
        switch v {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += String(n)
        case .string(let s): string(s)
        case .array(let a):
            if a.isEmpty { out += "[]"; return }
            out += "[\n"; indent += 1
            for (i, e) in a.enumerated() {
                pad(); value(e); if i < a.count - 1 { out += "," }; out += "\n"
            }
            indent -= 1; pad(); out += "]"
        case .object(let o):
            if o.isEmpty { out += "{}"; return }
            out += "{\n"; indent += 1
            for (i, (k, e)) in o.enumerated() {
                pad(); string(k); out += ": "; value(e); if i < o.count - 1 { out += "," }; out += "\n"
            }
            indent -= 1; pad(); out += "}"
        }
    }

    mutating func pad() { out += String(repeating: "  ", count: indent) }

    /// JSON string escaping (RFC 8259 §7): quote, backslash and every control character.
    mutating func string(_ s: String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 || (u.value >= 0x7F && u.value < 0xA0) {
                    out += String(format: "\\u%04x", u.value)
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
    }
}
