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
/// - `$$…$$`: display math, to the next unescaped `$$`; may span lines of one paragraph (no
///   blank line); not empty.
/// - `$…$` (one `$`, not `$$`): inline math when the opening `$` is followed by a character
///   other than a space, and the next unescaped `$` after it (the closing one: math holds no
///   `$` but `\$`) is preceded by one other than a space and not followed by a digit or `$`
///   (pandoc's rule): `$5 and $10`, `$12 today. … $n$` stay text up to `$n$`. `\$` is a dollar.
/// - ```` ```math ```` fenced blocks are display math (``TreeBuilder``, no pre-scan).
/// - `%%…%%`: a comment, inline or over several lines and paragraphs; dropped, its line breaks
///   kept (so line numbers stay right). An unclosed `%%` is text.
/// - `==text==`: a highlight when the opening `==` is followed, and the closing one preceded, by
///   a character other than a space or `=`, within one paragraph. Its content is Markdown.
/// - None of them inside fenced code, a code span, an autolink (`<scheme:…>`), a bare URL
///   (`http://`, `https://`, `www.` to the next space) or after a backslash; none in a setext
///   underline (`===`). Where cmark reads the text as a literal after all (an indented code
///   block, raw HTML), ``restore(_:)`` gives back math, highlights and one-line comments as written.
///
/// Time and memory are linear in the input: every failed search for a closing delimiter is
/// remembered for the rest of its paragraph (the closing rules do not depend on the opening one).
/// Positions: the pre-scan records where the replaced text's length changes (``anchors``), and
/// ``sourceColumn(line:column:)`` gives a column of the parsed text back as the source's.
package struct VaultSyntax: Sendable {
    /// One math span found by the pre-scan: the TeX as written, display or inline, and the
    /// source text it replaced (delimiters included).
    package struct Math: Sendable, Equatable {
        package var tex: String
        package var display: Bool
        package var original: String
        /// ``original`` cut at its line breaks, each line after the first without its container
        /// prefix (cmark gives the prefix of a literal's line as it reads it: ``restore(_:)``).
        var originalLines: [String] = []
    }

    /// The text cmark-gfm parses (placeholders in place of the syntax above).
    package var text: [UInt8] = []
    /// The math spans, by placeholder number.
    package var math: [Math] = []
    /// Per highlight opener (by number): whether its closer was written.
    package var highlightClosed: [Bool] = []
    /// One-line comments (`%%…%%` without a line break), by placeholder number, as written.
    package var comments: [String] = []
    /// (offset in ``text``, offset in the source) wherever the two start to differ by another
    /// amount, in order; between two, text was copied as it was.
    var anchors: [(text: Int, source: Int)] = [(0, 0)]
    /// The first byte of each line, in ``text`` and in the source (the pre-scan keeps every line).
    var textLineStarts: [Int] = [0], sourceLineStarts: [Int] = [0]

    // Placeholders (UTF-8 of U+E000…U+E005): math `E000 n E001`, highlight opener `E002 n E001`,
    // highlight closer `E003`, continuation line of a multi-line math span `E004`, one-line
    // comment `E005 n E001`.
    static let lead: UInt8 = 0xEE, second: UInt8 = 0x80
    static let mathStart: UInt8 = 0x80, numberEnd: UInt8 = 0x81, highlightStart: UInt8 = 0x82,
               highlightEnd: UInt8 = 0x83, continuation: UInt8 = 0x84, commentStart: UInt8 = 0x85

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
            if b == lead, i + 2 < n, s[i + 1] == second, s[i + 2] >= mathStart, s[i + 2] <= commentStart { return nil }
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
        guard changed else { return nil }
        for k in 0..<n where s[k] == 0x0A { v.sourceLineStarts.append(k + 1) }
        for k in 0..<v.text.count where v.text[k] == 0x0A { v.textLineStarts.append(k + 1) }
        return v
    }

    /// Records an anchor when the text and the source now differ by another amount.
    mutating func anchor(_ source: Int) {
        let last = anchors[anchors.count - 1]
        if text.count - source != last.text - last.source { anchors.append((text.count, source)) }
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

    /// The bytes at which ``scanRegion(_:_:_:features:commentsPossible:)`` looks closer: an
    /// escape, a code span, a comment, math, a highlight, an autolink, a bare URL's first letter.
    static let special: [Bool] = {
        var t = [Bool](repeating: false, count: 256)
        for c in "\\`%$=<hwHW".utf8 { t[Int(c)] = true }
        return t
    }()

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
        /// A setext underline line (`===` alone) is not a highlight. Once per line (a line of many
        /// `==…==` would otherwise be read again for each: quadratic).
        var equalsLine: (start: Int, end: Int, result: Bool)?
        func lineIsEquals(_ p: Int) -> Bool {
            if let e = equalsLine, p >= e.start, p < e.end { return e.result }
            var ls = p; while ls > a, s[ls - 1] != 0x0A { ls -= 1 }
            var le = p; while le < limit, s[le] != 0x0A { le += 1 }
            let c = Self.contentStart(s, ls, le)
            var k = c; while k < le, s[k] == 0x3D { k += 1 }
            let result = k > c && Self.isBlank(s, k, le)
            equalsLine = (ls, le, result)
            return result
        }
        /// The next unescaped `$` (or `$$`) from `from` in the region: math content is not Markdown,
        /// so code spans are not skipped (pandoc's rule).
        func nextDollar(from: Int, display: Bool) -> Int? {
            var j = from
            while j < limit {
                if s[j] == 0x5C { j += 2; continue }
                if s[j] == 0x24 && (!display || (j + 1 < limit && s[j + 1] == 0x24)) { return j }
                j += 1
            }
            return nil
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
        let special = Self.special
        while i < limit {
            anchor(i)
            let b = s[i]
            if let h = highlight, i == h.closer {
                text.append(contentsOf: [Self.lead, Self.second, Self.highlightEnd])
                highlightClosed[h.number] = true
                highlight = nil
                i += 2
                continue
            }
            if !special[Int(b)] {
                // Bytes that start no syntax (most of a document): copied as one run, up to the
                // pending highlight's closer at the latest.
                let stop = highlight.map { min($0.closer, limit) } ?? limit
                var j = i + 1
                while j < stop, !special[Int(s[j])] { j += 1 }
                text.append(contentsOf: UnsafeBufferPointer(rebasing: s[i..<j]))
                i = j
                continue
            }
            if let stop = Self.urlEnd(s, i, limit, regionStart: a) {
                // An autolink or a bare URL: copied as it is (`==` and `$` in URLs are not syntax).
                text.append(contentsOf: UnsafeBufferPointer(rebasing: s[i..<stop]))
                // A pending highlight whose closer was inside the URL stays open text (`==`).
                if let h = highlight, h.closer < stop { highlight = nil }
                i = stop
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
                var lineBreaks = false
                for k in (i + 2)..<c where s[k] == 0x0A { text.append(0x0A); appendLinePrefix(s, k + 1, c); lineBreaks = true }
                if !lineBreaks {
                    // One line: a placeholder, so a literal (an indented code block, raw HTML) gets it back.
                    putNumber(Self.commentStart, comments.count)
                    comments.append(String(decoding: UnsafeBufferPointer(rebasing: s[i..<(c + 2)]), as: UTF8.self))
                }
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
                    let c = noDisplayCloser ? nil : nextDollar(from: i + 2, display: true)
                    if let c, c > i + 2, !Self.isBlank(s, i + 2, c) {
                        addMath(s, i, c + 2, display: true)
                        changed = true
                        i = c + 2
                        continue
                    }
                    if c == nil { noDisplayCloser = true }
                    text.append(contentsOf: [0x24, 0x24]); i += 2
                    continue
                }
                if !noInlineCloser, i + 1 < limit, !Self.isSpace(s[i + 1]) {
                    // The closing `$` is the next unescaped one; when it does not qualify, this `$` is text.
                    if let c = nextDollar(from: i + 1, display: false) {
                        if !Self.isSpace(s[c - 1]), !(c + 1 < limit && (Self.isDigit(s[c + 1]) || s[c + 1] == 0x24)) {
                            addMath(s, i, c + 1, display: false)
                            changed = true
                            i = c + 1
                            continue
                        }
                    } else {
                        noInlineCloser = true
                    }
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
        anchor(i)
        return (i, changed)
    }

    /// Where the autolink (`<scheme:…>`, `<user@host>`) or bare URL (`http://`, `https://`,
    /// `www.` at a word's start, to the next space or `<`) starting at `i` ends, or nil.
    static func urlEnd(_ s: UnsafeBufferPointer<UInt8>, _ i: Int, _ limit: Int, regionStart: Int) -> Int? {
        let b = s[i]
        if b == 0x3C {
            var j = i + 1
            var colonOrAt = false
            while j < limit, s[j] != 0x3E {
                let x = s[j]
                if x == 0x20 || x == 0x0A || x == 0x3C || x == 0x09 { return nil }
                if x == 0x3A || x == 0x40 { colonOrAt = true }
                j += 1
            }
            return j < limit && colonOrAt && j > i + 1 ? j + 1 : nil
        }
        guard b == 0x68 || b == 0x77 || b == 0x48 || b == 0x57 else { return nil }
        if i > regionStart {
            let p = s[i - 1]
            if (p >= 0x30 && p <= 0x39) || (p >= 0x41 && p <= 0x5A) || (p >= 0x61 && p <= 0x7A) { return nil }
        }
        func has(_ prefix: String) -> Bool {
            let u = Array(prefix.utf8)
            guard i + u.count <= limit else { return false }
            for (k, c) in u.enumerated() where s[i + k] | 0x20 != c { return false }
            return true
        }
        guard has("http://") || has("https://") || has("www.") else { return nil }
        var j = i
        while j < limit, s[j] != 0x20, s[j] != 0x0A, s[j] != 0x09, s[j] != 0x0D, s[j] != 0x3C { j += 1 }
        return j
    }

    /// Adds math `[a, e)` (delimiters included) as a placeholder, and one continuation line per
    /// line break inside it.
    mutating func addMath(_ s: UnsafeBufferPointer<UInt8>, _ a: Int, _ e: Int, display: Bool) {
        let d = display ? 2 : 1
        // The TeX: each continuation line without its container prefix (block-quote markers and
        // indentation belong to the quote or list item, not to the formula).
        var tex: [UInt8] = []
        var k = a + d
        while k < e - d {
            let b = s[k]
            tex.append(b)
            k = b == 0x0A ? Self.contentStart(s, k + 1, e - d) : k + 1
        }
        let original = String(decoding: UnsafeBufferPointer(rebasing: s[a..<e]), as: UTF8.self)
        putNumber(Self.mathStart, math.count)
        var lines: [String] = []
        var lineStart = a
        var j = a
        while j < e {
            if s[j] == 0x0A {
                lines.append(String(decoding: UnsafeBufferPointer(rebasing: s[lineStart..<j]), as: UTF8.self))
                lineStart = Self.contentStart(s, j + 1, e)
            }
            j += 1
        }
        lines.append(String(decoding: UnsafeBufferPointer(rebasing: s[lineStart..<e]), as: UTF8.self))
        math.append(Math(tex: String(decoding: tex, as: UTF8.self), display: display, original: original, originalLines: lines))
        for k in a..<e where s[k] == 0x0A {
            text.append(0x0A)
            appendLinePrefix(s, k + 1, e)
            text.append(contentsOf: [Self.lead, Self.second, Self.continuation])
        }
    }

    /// The container prefix (block-quote markers, indentation) of the source line starting at
    /// `start`, copied: a line the pre-scan continues keeps its place in its quote or list item,
    /// so cmark reads it (and counts its columns) as it reads the source.
    mutating func appendLinePrefix(_ s: UnsafeBufferPointer<UInt8>, _ start: Int, _ bound: Int) {
        let end = Self.contentStart(s, start, bound)
        if end > start { text.append(contentsOf: UnsafeBufferPointer(rebasing: s[start..<end])) }
    }
}
