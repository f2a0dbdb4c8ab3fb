/// A bound on how deeply one piece of raw HTML may nest before the parser sees it. gumbo, like
/// every HTML5 tree builder, checks scope by walking the stack of open elements, so its time is
/// quadratic in the nesting depth: 10 000 nested `<div>` took about 2 s and 100 000 nine minutes.
///
/// The guard is not a parser and decides nothing about safety (everything it passes or cuts is
/// still parsed or escaped): one pass over the bytes that over-estimates the depth on the safe
/// side. `<name` opens (void elements and those a sibling closes — `p`, `li`, `dt`, `dd`, `tr`,
/// `td`, `th`, `option`, … — do not count), `</name` closes up to the innermost open `name` (none
/// open: nothing), comments and attribute values are not skipped. Where the estimate passes
/// ``maxDepth``, the HTML is cut: the part before is parsed, the rest is text.
package enum RawHTMLDepthGuard {
    /// The deepest estimated nesting parsed (4 × ``ASTLimits/maxNestingDepth``; the tree keeps 128).
    package static let maxDepth = 512

    /// Names that neither nest nor stay open past a sibling (lower case, ASCII).
    static let notCounted: Set<[UInt8]> = Set([
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
        "p", "li", "dt", "dd", "tr", "td", "th", "thead", "tbody", "tfoot", "option", "optgroup", "rt", "rp", "image",
    ].map { Array($0.utf8) })

    /// The byte offset where `html` must be cut (its UTF-8 count when it need not be).
    package static func cut(_ html: String) -> Int {
        var open: [[UInt8]] = []
        let bytes = Array(html.utf8)
        let n = bytes.count
        var i = 0
        while i < n {
            guard bytes[i] == 0x3C, i + 1 < n else { i += 1; continue }
            let closing = bytes[i + 1] == 0x2F
            var j = i + (closing ? 2 : 1)
            var name: [UInt8] = []
            while j < n, isNameByte(bytes[j]) { name.append(bytes[j] | (bytes[j] >= 0x41 && bytes[j] <= 0x5A ? 0x20 : 0)); j += 1 }
            guard let first = name.first, first >= 0x61 && first <= 0x7A else { i += 1; continue }
            if closing {
                if let k = open.lastIndex(of: name) { open.removeSubrange(k...) }
            } else if !notCounted.contains(name) {
                if open.count >= maxDepth { return i }
                open.append(name)
            }
            i = j
        }
        return n
    }

    /// ASCII letters and digits (and `-`, which custom element names hold).
    static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x2D
    }
}
