import NotepressAST

/// The inline syntax of note vaults that libcmark-gfm does not read: math (`$…$`, `$$…$$`;
/// GitHub since 2022, Obsidian), `%%comments%%` and `==highlights==` (Obsidian).
///
/// libcmark-gfm takes TeX's backslashes as escapes (`\{` becomes `{`, `\,` is lost), so math has
/// to be taken out of the text before it parses: one linear pre-scan of the Markdown bytes
/// (``prescan(_:)``) finds math spans, comments and highlight delimiters **outside** fenced code,
/// code spans and backslash escapes, and replaces them with placeholders of private-use
/// characters that cmark passes through as letters; ``TreeBuilder`` turns the placeholders back
/// into math spans (the TeX byte for byte as written) and highlight spans, and gives the original
/// text back wherever a placeholder landed in a literal (an indented code block, raw HTML, a link
/// destination: ``restore(_:)``).
///
/// The rules:
/// - `$$…$$`: display math; may span lines of one paragraph (no blank line); not empty.
/// - `$…$` (one `$`, not `$$`): inline math when the opening `$` is followed by a character
///   other than a space and the closing `$` is preceded by one other than a space and not followed
///   by a digit (pandoc's and GitHub's rule), so `$5 and $10` stays text. `\$` is a dollar.
/// - ```` ```math ```` fenced blocks are display math (``TreeBuilder``, no pre-scan).
/// - `%%…%%`: a comment, inline or over several lines and paragraphs; dropped, its line breaks
///   kept (so line numbers stay right). An unclosed `%%` is text.
/// - `==text==`: a highlight when the opening `==` is followed, and the closing one preceded, by
///   a character other than a space or `=`, within one paragraph. Its content is Markdown.
/// - None of them inside fenced code, a code span or after a backslash; none in a setext
///   underline (`===`).
///
/// Time and memory are linear in the input: every failed search for a closing delimiter is
/// remembered for the rest of its paragraph (the closing rules do not depend on the opening one).
/// Columns reported after a placeholder on the same line are shifted by its length difference.
package struct VaultSyntax: Sendable {
    /// One math span found by the pre-scan: the TeX as written, display or inline, and the
    /// source text it replaced (delimiters included).
    package struct Math: Sendable, Equatable {
        package var tex: String
        package var display: Bool
        package var original: String
    }

    /// The text cmark-gfm parses (placeholders in place of the syntax above).
    package var text: [UInt8] = []
    /// The math spans, by placeholder number.
    package var math: [Math] = []
    /// Per highlight opener (by number): whether its closer was written.
    package var highlightClosed: [Bool] = []

    // Placeholders (UTF-8 of U+E000…U+E004): math `E000 n E001`, highlight opener `E002 n E001`,
    // highlight closer `E003`, continuation line of a multi-line math span `E004`.
    static let lead: UInt8 = 0xEE, second: UInt8 = 0x80
    static let mathStart: UInt8 = 0x80, numberEnd: UInt8 = 0x81, highlightStart: UInt8 = 0x82,
               highlightEnd: UInt8 = 0x83, continuation: UInt8 = 0x84

    /// What to read.
    package struct Features: Sendable, Equatable {
        package var math = true
        package var comments = true
        package var highlights = true
        package init(math: Bool = true, comments: Bool = true, highlights: Bool = true) {
            self.math = math
            self.comments = comments
            self.highlights = highlights
        }
    }

    /// Scans `s`; `nil` when nothing was found (cmark then reads the input as it is) or when the
    /// input holds one of the placeholder characters itself (then the syntax is not read).
    package static func prescan(_ s: UnsafeBufferPointer<UInt8>, features: Features = Features()) -> VaultSyntax? {
        let n = s.count
        // Quick exit: none of `$`, `%`, `=` at all.
        var any = false
        for i in 0..<n {
            let b = s[i]
            if b == 0x24 || b == 0x25 || b == 0x3D { any = true }
            if b == lead, i + 2 < n, s[i + 1] == second, s[i + 2] >= mathStart, s[i + 2] <= continuation { return nil }
        }
        guard any else { return nil }
        var v = VaultSyntax()
        v.text.reserveCapacity(n + 64)
        var changed = false
        var commentsPossible = features.comments
        var i = 0
        // Fence state, line by line.
        var fence: (char: UInt8, count: Int)?
        while i < n {
            // One line from i.
            var e = i
            while e < n, s[e] != 0x0A { e += 1 }
            let lineEnd = e < n ? e + 1 : n
            if let f = fence {
                if closesFence(s, i, e, f) { fence = nil }
                v.text.append(contentsOf: UnsafeBufferPointer(rebasing: s[i..<lineEnd]))
                i = lineEnd
                continue
            }
            if let f = opensFence(s, i, e) {
                fence = f
                v.text.append(contentsOf: UnsafeBufferPointer(rebasing: s[i..<lineEnd]))
                i = lineEnd
                continue
            }
            if isBlank(s, i, e) {
                v.text.append(contentsOf: UnsafeBufferPointer(rebasing: s[i..<lineEnd]))
                i = lineEnd
                continue
            }
            // A paragraph-like region: lines up to a blank line or a fence.
            var regionEnd = lineEnd
            while regionEnd < n {
                var le = regionEnd
                while le < n, s[le] != 0x0A { le += 1 }
                if isBlank(s, regionEnd, le) || opensFence(s, regionEnd, le) != nil { break }
                regionEnd = le < n ? le + 1 : n
            }
            let r = v.scanRegion(s, i, regionEnd, features: features, commentsPossible: &commentsPossible)
            if r.changed { changed = true }
            i = r.end
        }
        return changed ? v : nil
    }

    static func isBlank(_ s: UnsafeBufferPointer<UInt8>, _ a: Int, _ e: Int) -> Bool {
        var j = a
        while j < e { if s[j] != 0x20 && s[j] != 0x09 && s[j] != 0x0D { return false }; j += 1 }
        return true
    }

    /// The start of a line's content after block-quote markers and indentation.
    static func contentStart(_ s: UnsafeBufferPointer<UInt8>, _ a: Int, _ e: Int) -> Int {
        var j = a
        while j < e, s[j] == 0x20 || s[j] == 0x09 || s[j] == 0x3E { j += 1 }
        return j
    }

    static func opensFence(_ s: UnsafeBufferPointer<UInt8>, _ a: Int, _ e: Int) -> (char: UInt8, count: Int)? {
        let j = contentStart(s, a, e)
        guard j < e, s[j] == 0x60 || s[j] == 0x7E else { return nil }
        let c = s[j]
        var k = j
        while k < e, s[k] == c { k += 1 }
        guard k - j >= 3 else { return nil }
        if c == 0x60 { var m = k; while m < e { if s[m] == 0x60 { return nil }; m += 1 } }
        return (c, k - j)
    }

    static func closesFence(_ s: UnsafeBufferPointer<UInt8>, _ a: Int, _ e: Int, _ f: (char: UInt8, count: Int)) -> Bool {
        let j = contentStart(s, a, e)
        var k = j
        while k < e, s[k] == f.char { k += 1 }
        return k - j >= f.count && isBlank(s, k, e)
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    static func isPunct(_ b: UInt8) -> Bool {
        (b >= 0x21 && b <= 0x2F) || (b >= 0x3A && b <= 0x40) || (b >= 0x5B && b <= 0x60) || (b >= 0x7B && b <= 0x7E)
    }

    mutating func putNumber(_ kind: UInt8, _ number: Int) {
        text.append(contentsOf: [Self.lead, Self.second, kind])
        text.append(contentsOf: Array(String(number).utf8))
        text.append(contentsOf: [Self.lead, Self.second, Self.numberEnd])
    }

    /// Scans one region `[a, end)` (lines of one paragraph); returns where scanning stopped (a
    /// comment may run past the region) and whether anything was replaced.
    mutating func scanRegion(_ s: UnsafeBufferPointer<UInt8>, _ a: Int, _ end: Int, features: Features,
                             commentsPossible: inout Bool) -> (end: Int, changed: Bool) {
        var changed = false
        var noInlineCloser = false, noDisplayCloser = false, noHighlightCloser = false
        var noTickCloser: [Int: Bool] = [:]
        // The pending highlight: its number and where its closer starts.
        var highlight: (number: Int, closer: Int)?
        var i = a
        var limit = end
        /// A setext underline line (`===` alone) is not a highlight.
        func lineIsEquals(_ p: Int) -> Bool {
            var ls = p; while ls > a, s[ls - 1] != 0x0A { ls -= 1 }
            var le = p; while le < limit, s[le] != 0x0A { le += 1 }
            let c = Self.contentStart(s, ls, le)
            var k = c; while k < le, s[k] == 0x3D { k += 1 }
            return k > c && Self.isBlank(s, k, le)
        }
        /// Where the code span whose backtick run is `[start, k)` ends (after its closing run of
        /// as many backticks), or `nil` when it has none in the region (remembered per length).
        func codeSpanEnd(_ start: Int, _ k: Int) -> Int? {
            let len = k - start
            guard noTickCloser[len] != true else { return nil }
            var j = k
            while j < limit {
                if s[j] == 0x60 {
                    var m = j
                    while m < limit, s[m] == 0x60 { m += 1 }
                    if m - j == len { return m }
                    j = m
                } else { j += 1 }
            }
            noTickCloser[len] = true
            return nil
        }
        /// The next position of a closing delimiter after `from`, by `accept`, skipping escapes
        /// and code spans.
        func find(from: Int, _ accept: (Int) -> Bool) -> Int? {
            var j = from
            while j < limit {
                if s[j] == 0x5C { j += 2; continue }
                if s[j] == 0x60 {
                    var k = j
                    while k < limit, s[k] == 0x60 { k += 1 }
                    j = codeSpanEnd(j, k) ?? k
                    continue
                }
                if accept(j) { return j }
                j += 1
            }
            return nil
        }
        while i < limit {
            let b = s[i]
            if let h = highlight, i == h.closer {
                text.append(contentsOf: [Self.lead, Self.second, Self.highlightEnd])
                highlightClosed[h.number] = true
                highlight = nil
                i += 2
                continue
            }
            switch b {
            case 0x5C:  // backslash escape: copy both bytes
                text.append(b)
                if i + 1 < limit { text.append(s[i + 1]) }
                i += 2
                continue
            case 0x60:  // a code span: copied as it is to its closing run of as many backticks
                var k = i
                while k < limit, s[k] == 0x60 { k += 1 }
                let stop = codeSpanEnd(i, k) ?? k
                text.append(contentsOf: UnsafeBufferPointer(rebasing: s[i..<stop]))
                i = stop
                continue
            case 0x25 where commentsPossible && i + 1 < limit && s[i + 1] == 0x25:
                // %%comment%%: may run past this region (block comments).
                var j = i + 2
                var closer: Int?
                while j + 1 < s.count {
                    if s[j] == 0x25 && s[j + 1] == 0x25 { closer = j; break }
                    j += 1
                }
                guard let c = closer else {
                    commentsPossible = false
                    text.append(contentsOf: [0x25, 0x25]); i += 2
                    continue
                }
                for k in (i + 2)..<c where s[k] == 0x0A { text.append(0x0A) }
                changed = true
                i = c + 2
                if i > limit {
                    // The comment ended in a later region: scan the rest of that line's region.
                    var r = i
                    while r < s.count, s[r] != 0x0A { r += 1 }
                    limit = max(limit, r < s.count ? r + 1 : s.count)
                    // Extend to the end of the paragraph the comment ended in.
                    while limit < s.count {
                        var le = limit
                        while le < s.count, s[le] != 0x0A { le += 1 }
                        if Self.isBlank(s, limit, le) || Self.opensFence(s, limit, le) != nil { break }
                        limit = le < s.count ? le + 1 : s.count
                    }
                    noInlineCloser = false; noDisplayCloser = false; noHighlightCloser = false; noTickCloser = [:]
                }
                continue
            case 0x24 where features.math:
                let display = i + 1 < limit && s[i + 1] == 0x24
                if display {
                    if !noDisplayCloser, let c = find(from: i + 2, { j in j + 1 < limit && s[j] == 0x24 && s[j + 1] == 0x24 }),
                       c > i + 2, !Self.isBlank(s, i + 2, c) {
                        addMath(s, i, c + 2, display: true)
                        changed = true
                        i = c + 2
                        continue
                    }
                    if !noDisplayCloser { noDisplayCloser = true }
                    text.append(contentsOf: [0x24, 0x24]); i += 2
                    continue
                }
                if !noInlineCloser, i + 1 < limit, !Self.isSpace(s[i + 1]) {
                    let close = find(from: i + 1) { j in
                        s[j] == 0x24 && !Self.isSpace(s[j - 1]) && !(j + 1 < limit && (Self.isDigit(s[j + 1]) || s[j + 1] == 0x24))
                            && s[j - 1] != 0x24
                    }
                    if let c = close {
                        addMath(s, i, c + 1, display: false)
                        changed = true
                        i = c + 1
                        continue
                    }
                    noInlineCloser = true
                }
                text.append(b); i += 1
                continue
            case 0x3D where features.highlights && highlight == nil && i + 2 < limit && s[i + 1] == 0x3D
                && !Self.isSpace(s[i + 2]) && s[i + 2] != 0x3D && (i == a || s[i - 1] != 0x3D):
                if !noHighlightCloser, !lineIsEquals(i) {
                    let close = find(from: i + 3) { j in
                        j + 1 < limit && s[j] == 0x3D && s[j + 1] == 0x3D && !Self.isSpace(s[j - 1]) && s[j - 1] != 0x3D
                            && !(j + 2 < limit && s[j + 2] == 0x3D)
                    }
                    if let c = close {
                        highlight = (highlightClosed.count, c)
                        putNumber(Self.highlightStart, highlightClosed.count)
                        highlightClosed.append(false)
                        changed = true
                        i += 2
                        continue
                    }
                    noHighlightCloser = true
                }
                text.append(contentsOf: [0x3D, 0x3D]); i += 2
                continue
            default:
                break
            }
            text.append(b)
            i += 1
        }
        return (i, changed)
    }

    /// Adds math `[a, e)` (delimiters included) as a placeholder, and one continuation line per
    /// line break inside it.
    mutating func addMath(_ s: UnsafeBufferPointer<UInt8>, _ a: Int, _ e: Int, display: Bool) {
        let d = display ? 2 : 1
        let tex = String(decoding: UnsafeBufferPointer(rebasing: s[(a + d)..<(e - d)]), as: UTF8.self)
        let original = String(decoding: UnsafeBufferPointer(rebasing: s[a..<e]), as: UTF8.self)
        putNumber(Self.mathStart, math.count)
        math.append(Math(tex: tex, display: display, original: original))
        for k in a..<e where s[k] == 0x0A {
            text.append(0x0A)
            text.append(contentsOf: [Self.lead, Self.second, Self.continuation])
        }
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
    }

    /// `text` split at placeholders; continuation marks are dropped.
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
            if v == 0xE000 || v == 0xE002 {
                flush(i)
                var j = sc.index(after: i)
                var number = 0
                while j < sc.endIndex, sc[j].value >= 0x30, sc[j].value <= 0x39 {
                    number = number &* 10 &+ Int(sc[j].value - 0x30); j = sc.index(after: j)
                }
                if j < sc.endIndex, sc[j].value == 0xE001 { j = sc.index(after: j) }
                out.append(v == 0xE000 ? .math(number) : .highlightOpen(number))
                i = j; start = i
            } else if v == 0xE003 {
                flush(i)
                out.append(.highlightClose)
                i = sc.index(after: i); start = i
            } else if v == 0xE004 {
                flush(i)
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
        for p in Self.pieces(text.replacingOccurrences(of: "\n\u{E004}", with: "\u{E004}")) {
            switch p {
            case .text(let t): out += t
            case .math(let k): out += k < math.count ? math[k].original : ""
            case .highlightOpen, .highlightClose: out += "=="
            }
        }
        return out
    }
}
