import Foundation
import Notepress
import NotepressAST

/// The JSON Lines form of a ``SiteTable`` (schema in ``SiteTable``'s documentation): writing is
/// canonical (fixed key order, minimal escaping, no spaces), so the same table is the same bytes
/// and sorting lines sorts records; reading accepts any JSON with those keys.
package enum SiteTableCodec {
    /// The file beside the manifest in the output folder that keeps the last run's table.
    package static let fileName = ".notepress-site.jsonl"

    /// The table as JSON Lines.
    package static func encode(_ table: SiteTable) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(table.records.count * 400)
        for l in table.lines {
            out += l
            out.append(0x0A)
        }
        return out
    }

    /// One record as one JSON object (no line feed).
    package static func line(_ r: SiteRecord) -> [UInt8] {
        var w = Writer()
        w.open()
        w.key("path"); w.string(r.path)
        w.key("kind"); w.string(r.kind.rawValue)
        if let f = r.format { w.key("format"); w.string(f.rawValue) }
        if let t = r.title { w.key("title"); w.string(t) }
        if let s = r.titleSource { w.key("titleSource"); w.string(s.rawValue) }
        if let c = r.created { w.key("created"); w.string(c) }
        if let u = r.updated { w.key("updated"); w.string(u) }
        if !r.tags.isEmpty { w.key("tags"); w.strings(r.tags) }
        if !r.aliases.isEmpty { w.key("aliases"); w.strings(r.aliases) }
        if !r.embeds.isEmpty { w.key("embeds"); w.strings(r.embeds) }
        if !r.fields.isEmpty {
            w.key("fields"); w.open()
            for k in r.fields.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) { w.key(k); w.string(r.fields[k]!) }
            w.close()
        }
        if !r.ids.isEmpty { w.key("ids"); w.strings(r.ids) }
        if !r.anchors.isEmpty { w.key("anchors"); w.strings(r.anchors) }
        if !r.links.isEmpty {
            w.key("links")
            w.objects(r.links) { w, l in
                w.key("kind"); w.string(l.kind.rawValue)
                w.key("target"); w.string(l.target)
                w.key("line"); w.number(l.line)
                w.key("column"); w.number(l.column)
            }
        }
        if let e = r.excerpt { w.key("excerpt"); w.string(e) }
        if r.math { w.key("math"); w.out.append(contentsOf: Array("true".utf8)) }
        if let n = r.manName, let s = r.manSection {
            w.key("man"); w.open(); w.key("name"); w.string(n); w.key("section"); w.string(s); w.close()
        }
        if !r.search.isEmpty {
            w.key("search")
            w.objects(r.search) { w, sec in
                w.key("id"); w.string(sec.id)
                w.key("heading"); w.string(sec.heading)
                w.key("words"); w.string(sec.words)
                if !sec.text.isEmpty { w.key("text"); w.string(sec.text) }
            }
        }
        if !r.summary.isEmpty {
            w.key("summary")
            w.objects(r.summary) { w, e in
                w.key("kind"); w.string(e.kind.rawValue)
                w.key("title"); w.string(e.title)
                w.key("target"); w.string(e.target)
                w.key("depth"); w.number(e.depth)
                w.key("line"); w.number(e.line)
                w.key("column"); w.number(e.column)
            }
        }
        if let h = r.sha256 { w.key("sha256"); w.string(h) }
        w.close()
        return w.out
    }

    /// Reads JSON Lines; `nil` when any line is not a record of the schema (blank lines are
    /// skipped). Records need not be sorted (``SiteTable/init(records:)`` sorts them).
    package static func decode(_ bytes: [UInt8]) -> SiteTable? {
        var records: [SiteRecord] = []
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            if end > start {
                var p = JSONParser(bytes: bytes, position: start, end: end)
                guard case .object(let o)? = p.parseDocument(), let r = record(o) else { return nil }
                records.append(r)
            }
            start = end + 1
        }
        return SiteTable(records: records)
    }

    /// Reads the table kept in `outputRoot` (``fileName``), `nil` when missing or malformed.
    package static func load(outputRoot: String) -> SiteTable? {
        guard let data = FileManager.default.contents(atPath: PathText.join(outputRoot, fileName)) else { return nil }
        return decode([UInt8](data))
    }

    static func record(_ o: [String: JSONValue]) -> SiteRecord? {
        guard case .string(let path)? = o["path"], case .string(let k)? = o["kind"], let kind = SiteRecord.Kind(rawValue: k) else {
            return nil
        }
        var r = SiteRecord(path: path, kind: kind)
        if case .string(let f)? = o["format"] { r.format = SourceFormat(rawValue: f) }
        if case .string(let t)? = o["title"] { r.title = t }
        if case .string(let s)? = o["titleSource"] { r.titleSource = DocumentMetadata.TitleSource(rawValue: s) }
        if case .string(let c)? = o["created"] { r.created = c }
        if case .string(let u)? = o["updated"] { r.updated = u }
        r.tags = strings(o["tags"])
        r.aliases = strings(o["aliases"])
        r.embeds = strings(o["embeds"])
        if case .object(let f)? = o["fields"] {
            for (k, v) in f { if case .string(let s) = v { r.fields[k] = s } }
        }
        r.ids = strings(o["ids"])
        r.anchors = strings(o["anchors"])
        if case .array(let links)? = o["links"] {
            for l in links {
                guard case .object(let lo) = l, case .string(let k)? = lo["kind"], let lk = SiteLinkRecord.Kind(rawValue: k),
                      case .string(let t)? = lo["target"] else { return nil }
                var line = 0, column = 0
                if case .number(let n)? = lo["line"] { line = n }
                if case .number(let n)? = lo["column"] { column = n }
                r.links.append(SiteLinkRecord(kind: lk, target: t, line: line, column: column))
            }
        }
        if case .string(let e)? = o["excerpt"] { r.excerpt = e }
        if case .bool(true)? = o["math"] { r.math = true }
        if case .object(let m)? = o["man"], case .string(let n)? = m["name"], case .string(let s)? = m["section"] {
            r.manName = n
            r.manSection = s
        }
        if case .array(let sections)? = o["search"] {
            for x in sections {
                guard case .object(let so) = x, case .string(let id)? = so["id"], case .string(let h)? = so["heading"],
                      case .string(let words)? = so["words"] else { return nil }
                var text = ""
                if case .string(let t)? = so["text"] { text = t }
                r.search.append(SiteSearchSection(id: id, heading: h, words: words, text: text))
            }
        }
        if case .array(let entries)? = o["summary"] {
            for x in entries {
                guard case .object(let eo) = x, case .string(let k)? = eo["kind"], let kind = SiteSummaryEntry.Kind(rawValue: k),
                      case .string(let t)? = eo["title"] else { return nil }
                var e = SiteSummaryEntry(kind: kind, title: t)
                if case .string(let target)? = eo["target"] { e.target = target }
                if case .number(let n)? = eo["depth"] { e.depth = n }
                if case .number(let n)? = eo["line"] { e.line = n }
                if case .number(let n)? = eo["column"] { e.column = n }
                r.summary.append(e)
            }
        }
        if case .string(let h)? = o["sha256"] { r.sha256 = h }
        return r
    }

    static func strings(_ v: JSONValue?) -> [String] {
        guard case .array(let a)? = v else { return [] }
        return a.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
    }

    /// Canonical JSON output: `"` `\` and controls escaped (`\n`, `\t`, `\r`, else `\u00XX`),
    /// everything else as UTF-8.
    struct Writer {
        var out: [UInt8] = []
        private var first = [true]

        mutating func open() { comma(); out.append(0x7B); first.append(true) }
        mutating func close() { out.append(0x7D); first.removeLast() }
        /// A separator before a member (not before the first).
        private mutating func comma() {}
        mutating func key(_ k: String) {
            if first[first.count - 1] { first[first.count - 1] = false } else { out.append(0x2C) }
            string(k)
            out.append(0x3A)
        }
        mutating func number(_ n: Int) { out += Array(String(n).utf8) }
        /// An array of one object per item, each written by `members` (its keys and values).
        mutating func objects<T>(_ items: [T], _ members: (inout Writer, T) -> Void) {
            out.append(0x5B)
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(0x2C) }
                open()
                members(&self, item)
                close()
            }
            out.append(0x5D)
        }
        mutating func strings(_ a: [String]) {
            out.append(0x5B)
            for (i, s) in a.enumerated() {
                if i > 0 { out.append(0x2C) }
                string(s)
            }
            out.append(0x5D)
        }
        mutating func string(_ s: String) {
            out.append(0x22)
            // Most text needs no escape: checked and copied at once from the string's UTF-8 bytes.
            var s = s
            let plain = s.withUTF8 { buf -> Bool in
                for b in buf where b < 0x20 || b == 0x22 || b == 0x5C || b == 0x7F { return false }
                out.append(contentsOf: buf)
                return true
            }
            if plain {
                out.append(0x22)
                return
            }
            let hex = Array("0123456789abcdef".utf8)
            for b in s.utf8 {
                switch b {
                case 0x22: out += [0x5C, 0x22]
                case 0x5C: out += [0x5C, 0x5C]
                case 0x0A: out += [0x5C, 0x6E]
                case 0x0D: out += [0x5C, 0x72]
                case 0x09: out += [0x5C, 0x74]
                case 0..<0x20, 0x7F: out += [0x5C, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 15)]]
                default: out.append(b)
                }
            }
            out.append(0x22)
        }
    }
}

/// A parsed JSON value (numbers: integers only, which is all the table holds).
enum JSONValue: Equatable {
    case null, bool(Bool), number(Int), string(String), array([JSONValue]), object([String: JSONValue])
}

/// A small JSON parser (RFC 8259) over a byte range; nesting is limited to 32 levels (the table
/// nests 3).
struct JSONParser {
    let bytes: [UInt8]
    var position: Int
    let end: Int

    /// The one value in the range, or `nil` when the range is not exactly one JSON value.
    mutating func parseDocument() -> JSONValue? {
        guard let v = value(depth: 0) else { return nil }
        skipSpace()
        return position == end ? v : nil
    }

    mutating func skipSpace() {
        while position < end, bytes[position] == 0x20 || bytes[position] == 0x09 || bytes[position] == 0x0D || bytes[position] == 0x0A {
            position += 1
        }
    }

    mutating func value(depth: Int) -> JSONValue? {
        guard depth < 32 else { return nil }
        skipSpace()
        guard position < end else { return nil }
        switch bytes[position] {
        case 0x7B:
            position += 1
            var o: [String: JSONValue] = [:]
            skipSpace()
            if position < end, bytes[position] == 0x7D { position += 1; return .object(o) }
            while true {
                skipSpace()
                guard case .string(let k)? = string() else { return nil }
                skipSpace()
                guard position < end, bytes[position] == 0x3A else { return nil }
                position += 1
                guard let v = value(depth: depth + 1) else { return nil }
                o[k] = v
                skipSpace()
                guard position < end else { return nil }
                if bytes[position] == 0x2C { position += 1; continue }
                if bytes[position] == 0x7D { position += 1; return .object(o) }
                return nil
            }
        case 0x5B:
            position += 1
            var a: [JSONValue] = []
            skipSpace()
            if position < end, bytes[position] == 0x5D { position += 1; return .array(a) }
            while true {
                guard let v = value(depth: depth + 1) else { return nil }
                a.append(v)
                skipSpace()
                guard position < end else { return nil }
                if bytes[position] == 0x2C { position += 1; continue }
                if bytes[position] == 0x5D { position += 1; return .array(a) }
                return nil
            }
        case 0x22:
            return string()
        case 0x74: return literal("true", .bool(true))
        case 0x66: return literal("false", .bool(false))
        case 0x6E: return literal("null", .null)
        default:
            var n = 0
            var negative = false
            if bytes[position] == 0x2D { negative = true; position += 1 }
            let start = position
            while position < end, bytes[position] >= 0x30, bytes[position] <= 0x39 {
                n = n &* 10 &+ Int(bytes[position] - 0x30)
                position += 1
            }
            return position > start ? .number(negative ? -n : n) : nil
        }
    }

    mutating func literal(_ word: String, _ v: JSONValue) -> JSONValue? {
        for b in word.utf8 {
            guard position < end, bytes[position] == b else { return nil }
            position += 1
        }
        return v
    }

    mutating func string() -> JSONValue? {
        guard position < end, bytes[position] == 0x22 else { return nil }
        position += 1
        // Most strings hold no escape: up to the closing quote at once.
        let start = position
        var i = position
        while i < end, bytes[i] != 0x22, bytes[i] != 0x5C { i += 1 }
        if i < end, bytes[i] == 0x22 {
            position = i + 1
            return .string(String(decoding: bytes[start..<i], as: UTF8.self))
        }
        var out = Array(bytes[start..<i])
        position = i
        while position < end {
            let b = bytes[position]
            position += 1
            if b == 0x22 { return .string(String(decoding: out, as: UTF8.self)) }
            if b != 0x5C { out.append(b); continue }
            guard position < end else { return nil }
            let e = bytes[position]
            position += 1
            switch e {
            case 0x22, 0x5C, 0x2F: out.append(e)
            case 0x62: out.append(0x08)
            case 0x66: out.append(0x0C)
            case 0x6E: out.append(0x0A)
            case 0x72: out.append(0x0D)
            case 0x74: out.append(0x09)
            case 0x75:
                guard var u = hex4() else { return nil }
                if u >= 0xD800, u < 0xDC00, position + 1 < end, bytes[position] == 0x5C, bytes[position + 1] == 0x75 {
                    position += 2
                    guard let low = hex4(), low >= 0xDC00, low < 0xE000 else { return nil }
                    u = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00)
                }
                out += Array(String(Unicode.Scalar(u).map(Character.init) ?? "\u{FFFD}").utf8)
            default:
                return nil
            }
        }
        return nil
    }

    mutating func hex4() -> UInt32? {
        guard position + 4 <= end else { return nil }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[position]
            position += 1
            switch b {
            case 0x30...0x39: v = v << 4 | UInt32(b - 0x30)
            case 0x41...0x46: v = v << 4 | UInt32(b - 0x37)
            case 0x61...0x66: v = v << 4 | UInt32(b - 0x57)
            default: return nil
            }
        }
        return v
    }
}
