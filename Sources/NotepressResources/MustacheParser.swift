/// Compiles Mustache source into ``MustacheNode``s in one pass (see ``MustacheTemplate`` for the
/// language and the standalone-line rule). Works on UTF-8 bytes: delimiters are matched byte for
/// byte, which is exact because they are whole UTF-8 strings.
struct MustacheParser {
    let source: [UInt8]
    let name: String
    var nodes: [MustacheNode] = []
    var open = "{{".utf8.map { $0 }
    var close = "}}".utf8.map { $0 }
    /// Open sections: their name, node index and tag offset.
    var sections: [(name: String, node: Int, offset: Int)] = []
    /// Start of the literal text not yet made a node.
    var textStart = 0
    /// Start of the current source line.
    var lineStart = 0
    /// Whether a tag was seen on the current line (then no tag of it is standalone).
    var tagOnLine = false

    init(source: [UInt8], name: String) {
        self.source = source; self.name = name
    }

    mutating func parse() throws -> [MustacheNode] {
        var pos = 0
        let n = source.count
        while pos < n {
            guard let tagStart = find(open, from: pos) else { break }
            // Literal text up to the tag: note where its last line starts.
            var k = tagStart
            while k > pos {
                k -= 1
                if source[k] == 0x0A { lineStart = k + 1; tagOnLine = false; break }
            }
            let sigilAt = tagStart + open.count
            let kind: Character = sigilAt < n ? Character(Unicode.Scalar(source[sigilAt])) : " "
            let closer: [UInt8]
            switch kind {
            case "{": closer = [UInt8(ascii: "}")] + close
            case "=": closer = [UInt8(ascii: "=")] + close
            default: closer = close
            }
            let bodyStart: Int
            switch kind {
            case "#", "^", "/", ">", "&", "{", "!", "=", "<", "$": bodyStart = sigilAt + 1
            default: bodyStart = sigilAt
            }
            guard let closeAt = find(closer, from: min(bodyStart, n)) else {
                throw error(tagStart, "tag is not closed: no '\(String(decoding: closer, as: UTF8.self))' after it")
            }
            let tagEnd = closeAt + closer.count
            let body = String(decoding: source[bodyStart..<closeAt], as: UTF8.self)

            // Standalone: only whitespace before it on its line, only whitespace and a line
            // ending (or the end) after it.
            var standalone = false
            var indentStart = tagStart
            var after = tagEnd
            if "#^/>!=".contains(kind) && !tagOnLine && isBlank(lineStart, tagStart) {
                var p = tagEnd
                while p < n && (source[p] == 0x20 || source[p] == 0x09) { p += 1 }
                if p == n {
                    standalone = true; after = p
                } else if source[p] == 0x0A {
                    standalone = true; after = p + 1
                } else if source[p] == 0x0D && p + 1 < n && source[p + 1] == 0x0A {
                    standalone = true; after = p + 2
                }
                if standalone { indentStart = lineStart }
            }
            flushText(to: standalone ? indentStart : tagStart)

            switch kind {
            case "!":
                break
            case "=":
                try setDelimiters(body, at: tagStart)
            case "#", "^":
                let nm = try tagName(body, at: tagStart)
                guard sections.count < MustacheTemplate.maximumDepth else {
                    throw error(tagStart, "sections nest deeper than \(MustacheTemplate.maximumDepth) levels")
                }
                sections.append((nm.text, nodes.count, tagStart))
                nodes.append(.section(nm, inverted: kind == "^", end: -1, offset: tagStart))
            case "/":
                let nm = try tagName(body, at: tagStart)
                guard let top = sections.popLast() else {
                    throw error(tagStart, "end tag '\(nm.text)' closes no section")
                }
                guard top.name == nm.text else {
                    let (l, c) = position(top.offset)
                    throw error(tagStart, "end tag '\(nm.text)' does not match the open section '\(top.name)' (\(l):\(c))")
                }
                if case .section(let snm, let inv, _, let off) = nodes[top.node] {
                    nodes[top.node] = .section(snm, inverted: inv, end: nodes.count, offset: off)
                }
            case ">":
                let nm = try tagName(body, at: tagStart, dotted: false)
                let indent = standalone ? String(decoding: source[indentStart..<tagStart], as: UTF8.self) : nil
                nodes.append(.partial(nm.text, indent: indent, offset: tagStart))
            case "<", "$":
                throw error(tagStart, "'{{\(kind)…}}' (template inheritance) is not supported")
            default:
                nodes.append(.variable(try tagName(body, at: tagStart), escaped: kind != "&" && kind != "{"))
            }
            if standalone {
                pos = after
                lineStart = after
                tagOnLine = false
            } else {
                pos = tagEnd
                tagOnLine = true
            }
            textStart = pos
        }
        flushText(to: n)
        if let top = sections.last {
            throw error(top.offset, "section '\(top.name)' is not closed")
        }
        return nodes
    }

    /// Makes `source[textStart..<end]` a text node (when not empty).
    private mutating func flushText(to end: Int) {
        if end > textStart { nodes.append(.text(String(decoding: source[textStart..<end], as: UTF8.self))) }
        textStart = end
    }

    private func isBlank(_ from: Int, _ to: Int) -> Bool {
        var i = from
        while i < to {
            if source[i] != 0x20 && source[i] != 0x09 { return false }
            i += 1
        }
        return true
    }

    /// The name in a tag: trimmed, not empty, without whitespace; `.` or dotted parts that are
    /// not empty (unless `dotted` is false: partial names are taken whole).
    private func tagName(_ body: String, at offset: Int, dotted: Bool = true) throws -> MustacheName {
        let t = body.trimmingWhitespace()
        guard !t.isEmpty else { throw error(offset, "tag has no name") }
        guard !t.unicodeScalars.contains(where: { $0.properties.isWhitespace }) else {
            throw error(offset, "name '\(t)' contains whitespace")
        }
        if !dotted || t == "." { return MustacheName(text: t, parts: []) }
        let parts = t.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !parts.contains(where: \.isEmpty) else { throw error(offset, "name '\(t)' has an empty part") }
        return MustacheName(text: t, parts: parts)
    }

    /// `{{=<% %>=}}`: two delimiters, separated by whitespace, without whitespace or `=`.
    private mutating func setDelimiters(_ body: String, at offset: Int) throws {
        let parts = body.unicodeScalars.split(whereSeparator: { $0.properties.isWhitespace }).map { String($0) }
        guard parts.count == 2, !parts[0].contains("="), !parts[1].contains("=") else {
            throw error(offset, "bad delimiter tag: expected two delimiters without whitespace or '=', as in {{=<% %>=}}")
        }
        open = Array(parts[0].utf8)
        close = Array(parts[1].utf8)
    }

    /// The first index ≥ `start` where `pattern` occurs (Knuth–Morris–Pratt: linear).
    private func find(_ pattern: [UInt8], from start: Int) -> Int? {
        let m = pattern.count
        guard m > 0 else { return start }
        if m == 1 || m == 2 {
            // The usual delimiters: a direct scan.
            var i = start
            while i + m <= source.count {
                if source[i] == pattern[0] && (m == 1 || source[i + 1] == pattern[1]) { return i }
                i += 1
            }
            return nil
        }
        var fail = [Int](repeating: 0, count: m)
        var k = 0
        for q in 1..<m {
            while k > 0 && pattern[k] != pattern[q] { k = fail[k - 1] }
            if pattern[k] == pattern[q] { k += 1 }
            fail[q] = k
        }
        k = 0
        var i = start
        while i < source.count {
            while k > 0 && pattern[k] != source[i] { k = fail[k - 1] }
            if pattern[k] == source[i] { k += 1 }
            if k == m { return i - m + 1 }
            i += 1
        }
        return nil
    }

    private func position(_ offset: Int) -> (Int, Int) {
        MustacheTemplate.position(in: source, offset)
    }

    private func error(_ offset: Int, _ message: String) -> MustacheError {
        let (l, c) = position(offset)
        return MustacheError(template: name, line: l, column: c, message: message)
    }
}

extension String {
    /// Without leading and trailing whitespace (Unicode White_Space).
    fileprivate func trimmingWhitespace() -> String {
        let s = unicodeScalars
        guard let a = s.firstIndex(where: { !$0.properties.isWhitespace }),
              let b = s.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(s[a...b])
    }
}
