// VaultSyntax after cmark has parsed the pre-scanned text: the placeholders read back (math,
// highlights, comments; the source text again in literals) and the source's columns.
import NotepressAST

extension VaultSyntax {
    /// The source's column of `column` on `line` of ``text`` (both 1-based, bytes; lines are the
    /// same in both).
    package func sourceColumn(line: Int, column: Int) -> Int {
        guard line >= 1, line <= textLineStarts.count, line <= sourceLineStarts.count else { return column }
        let offset = textLineStarts[line - 1] + column - 1
        // The last anchor at or before `offset`.
        var lo = 0, hi = anchors.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if anchors[mid].text <= offset { lo = mid } else { hi = mid - 1 }
        }
        let source = anchors[lo].source + (offset - anchors[lo].text)
        return max(1, source - sourceLineStarts[line - 1] + 1)
    }

    /// Whether `text` holds a placeholder (a quick test before ``restore(_:)`` or splitting).
    package static func hasPlaceholder(_ text: String) -> Bool {
        text.utf8.contains(lead)
    }

    /// One piece of a text node: text, a math span, a highlight opener (by number) or closer.
    enum Piece {
        case text(Substring)
        case math(Int)
        case highlightOpen(Int)
        case highlightClose
        case comment(Int)
        /// The start of a continuation line of a multi-line math span.
        case continuation
    }

    /// `text` split at placeholders.
    static func pieces(_ text: String) -> [Piece] {
        var out: [Piece] = []
        let sc = text.unicodeScalars
        var i = sc.startIndex
        var start = i
        func flush(_ to: String.UnicodeScalarView.Index) {
            if start < to { out.append(.text(Substring(sc[start..<to]))) }
        }
        while i < sc.endIndex {
            let v = sc[i].value
            if v == 0xE000 || v == 0xE002 || v == 0xE005 {
                flush(i)
                var j = sc.index(after: i)
                var number = 0
                while j < sc.endIndex, sc[j].value >= 0x30, sc[j].value <= 0x39 {
                    number = number &* 10 &+ Int(sc[j].value - 0x30); j = sc.index(after: j)
                }
                if j < sc.endIndex, sc[j].value == 0xE001 { j = sc.index(after: j) }
                out.append(v == 0xE000 ? .math(number) : v == 0xE002 ? .highlightOpen(number) : .comment(number))
                i = j; start = i
            } else if v == 0xE003 {
                flush(i)
                out.append(.highlightClose)
                i = sc.index(after: i); start = i
            } else if v == 0xE004 {
                flush(i)
                out.append(.continuation)
                i = sc.index(after: i); start = i
            } else {
                i = sc.index(after: i)
            }
        }
        flush(i)
        return out
    }

    /// `text` with every placeholder given back as the source text it replaced (for literals:
    /// code, raw HTML, link destinations and titles).
    package func restore(_ text: String) -> String {
        guard Self.hasPlaceholder(text) else { return text }
        var out = ""
        // The math span whose lines are being given back, and its next line.
        var open: (math: Int, line: Int)?
        for p in Self.pieces(text) {
            switch p {
            case .text(let t): out += t
            case .math(let k):
                guard k < math.count else { continue }
                out += math[k].originalLines.first ?? math[k].original
                open = (k, 1)
            case .continuation:
                // The line break and the line's prefix came as text, as cmark left them.
                if let o = open, o.line < math[o.math].originalLines.count {
                    out += math[o.math].originalLines[o.line]
                    open = (o.math, o.line + 1)
                }
            case .highlightOpen, .highlightClose: out += "=="
            case .comment(let k): out += k < comments.count ? comments[k] : ""
            }
        }
        return out
    }
}
