import Foundation
import NotepressAST
import NotepressThemes

/// A styled piece of one output line.
struct Seg {
    var text: String
    var style: TerminalStyle
    /// The OSC 8 target (already made safe), if any.
    var link: String?
    var width: Int

    init(_ text: String, _ style: TerminalStyle = TerminalStyle(), link: String? = nil) {
        self.text = text; self.style = style; self.link = link
        self.width = TerminalWidth.columns(text)
    }

    /// `text` already known to be `width` columns wide (not measured again).
    init(_ text: String, _ style: TerminalStyle, link: String?, width: Int) {
        self.text = text; self.style = style; self.link = link; self.width = width
    }

    /// `character` (one scalar that joins no other) `count` times in `style` (a rule): as wide as
    /// `count` times the character, measured once.
    init(repeating character: String, count: Int, _ style: TerminalStyle) {
        self.init(String(repeating: character, count: count), style, link: nil,
                  width: count * TerminalWidth.columns(character))
    }

    /// `n` plain spaces (`n` ≥ 0), `n` columns wide (not measured again).
    init(spaces n: Int) {
        text = NotepressANSI.spaces(n); style = TerminalStyle(); link = nil; width = n
    }
}

typealias Line = [Seg]

/// Greedy wrapping at the break opportunities of Unicode's line breaking algorithm
/// (``LineBreaks``, UAX #14), fed one piece of text at a time.
///
/// Collecting (``appendText(_:_:_:)``, ``appendCharacters(_:_:_:)``, ``space(_:_:)``,
/// ``hardBreak()``) builds the paragraph's text once: runs of spaces collapse into one space
/// that takes the style and link of the last of them, spaces before any text of a line and
/// before a hard break are dropped, a hard break is a line feed. ``finish()`` asks ICU for the
/// break opportunities of that text once, then fills lines greedily: a piece between two
/// opportunities goes on the current line when it fits (with the space before it, if any), else
/// on a new line; a space where a line ends is dropped; a piece wider than `width` starts a new
/// line and is broken between grapheme clusters. Widths are ``TerminalWidth`` columns per
/// grapheme cluster; ASCII text is measured by its byte count. Adjacent pieces of a line with the
/// same style and link share one ``Seg`` (rendering is the same: SGR and OSC 8 are written only
/// where style or link change). Time and memory are linear in the paragraph's length.
struct LineFiller {
    let width: Int
    /// The paragraph's text (UTF-8): collapsed spaces, `\n` for hard breaks.
    private var text: [UInt8] = []
    /// Style runs: `text[runs[i].start...]` up to the next run's start has this style and link.
    private var runs: [(start: Int, style: TerminalStyle, link: String?)] = []
    private var ascii = true
    /// Offsets of spaces that belong to a word (``appendCharacters(_:_:_:)``): no break after them.
    private var gluedSpaces: Set<Int> = []
    /// The style and link of the space to write before the next text, if any.
    private var pendingSpace: (TerminalStyle, String?)?
    /// Whether text was added since the start or the last hard break.
    private var lineHasText = false
    /// Whether ``hardBreak()`` was called.
    private var hasHardBreak = false
    /// ``widestWord()`` once known.
    private var widest: Int?
    /// The text's break opportunities (``LineBreaks``), asked for once and kept for every
    /// layout of the same text; `nil` until asked. ``opportunities()`` fills it.
    private var breaks: Breaks?
    /// The cluster measure of a non-ASCII text, once made.
    private var clusters: ClusterMeasure?

    init(width: Int) { self.width = max(width, 1) }

    /// Appends `text` (no separating spaces in it: its spaces belong to the word) in `style`.
    mutating func appendCharacters(_ text: String, _ style: TerminalStyle, _ link: String?) {
        guard !text.isEmpty else { return }
        let start = beginText(style, link)
        var text = text
        text.withUTF8 { buf in
            for (i, b) in buf.enumerated() {
                if b == 0x20 { gluedSpaces.insert(start + i) }
                if b >= 0x80 { ascii = false }
            }
            self.text.append(contentsOf: buf)
        }
    }

    /// Text that is already visible (``TerminalText/visible(_:tabs:)``): its space Characters
    /// separate words (a space followed by a combining mark is no space).
    mutating func appendText(_ text: String, _ style: TerminalStyle, _ link: String?) {
        var text = text
        let isASCII: Bool = text.withUTF8 { buf in
            var i = 0
            let n = buf.count
            while i < n {
                if buf[i] >= 0x80 { return false }
                i += 1
            }
            i = 0
            setRun(style, link)
            // The last run is now `style` and `link`, and stays so (``beginText(_:_:)`` ends with
            // it): a space of this text before a word is written without looking at runs.
            var ownSpace = false
            // What this text adds is copied a region of `buf` at a time: a word after this text's
            // own spaces is one space and the word, `buf[start - 1..<end]` (the byte before the
            // word is a space), so words one space apart make one region.
            var region = 0..<0
            while i < n {
                if buf[i] == 0x20 {
                    if lineHasText { ownSpace = true; pendingSpace = nil }
                    i += 1
                    continue
                }
                let start = i
                while i < n && buf[i] != 0x20 { i += 1 }
                let from: Int
                if ownSpace {
                    from = start - 1
                    ownSpace = false
                } else {
                    if pendingSpace != nil {
                        self.text.append(contentsOf: UnsafeBufferPointer(rebasing: buf[region]))
                        region = 0..<0
                        _ = beginText(style, link)
                    }
                    from = start
                }
                lineHasText = true
                if !region.isEmpty && region.upperBound == from {
                    region = region.lowerBound..<i
                } else {
                    self.text.append(contentsOf: UnsafeBufferPointer(rebasing: buf[region]))
                    region = from..<i
                }
            }
            self.text.append(contentsOf: UnsafeBufferPointer(rebasing: buf[region]))
            if ownSpace { pendingSpace = (style, link) }
            return true
        }
        if isASCII { return }
        ascii = false
        text.withUTF8 { buf in
            let n = buf.count
            var start = 0
            for i in 0..<n where buf[i] == 0x20 && Self.isSpaceCharacter(buf, i) {
                if start < i { _ = beginText(style, link); self.text.append(contentsOf: UnsafeBufferPointer(rebasing: buf[start..<i])) }
                space(style, link)
                start = i + 1
            }
            if start < n {
                _ = beginText(style, link)
                self.text.append(contentsOf: UnsafeBufferPointer(rebasing: buf[start..<n]))
            }
        }
    }

    /// Whether the space byte at `i` of `utf8` is a grapheme cluster of its own (the Character
    /// `" "`). Whether a cluster boundary lies before a space depends only on the scalar before it
    /// (UAX #29 GB9b: not after Prepend), and after it only on the scalar after it (GB9, GB9a:
    /// not before Extend, ZWJ or SpacingMark); so next to ASCII it always is one, and otherwise
    /// Swift's segmentation of those three scalars decides.
    private static func isSpaceCharacter(_ utf8: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        let n = utf8.count
        let prevASCII = i == 0 || utf8[i - 1] < 0x80
        let nextASCII = i + 1 >= n || utf8[i + 1] < 0x80
        if prevASCII && nextASCII { return true }
        var a = i
        if i > 0 {
            a = i - 1
            while a > 0 && utf8[a] & 0xC0 == 0x80 { a -= 1 }
        }
        var e = i + 1
        if e < n {
            e += 1
            while e < n && utf8[e] & 0xC0 == 0x80 { e += 1 }
        }
        let around = String(decoding: UnsafeBufferPointer(rebasing: utf8[a..<e]), as: UTF8.self)
        // The Character that starts at byte i must be the space alone: a neighbouring plain
        // space does not count (`"  \u{301}"`: the second space carries the accent).
        var offset = a
        for c in around {
            if offset == i { return c == " " }
            if offset > i { return false }
            offset += c.utf8.count
        }
        return false
    }

    /// A separating space in `style` (dropped at the start of a line; see the type's rules).
    mutating func space(_ style: TerminalStyle, _ link: String?) {
        if lineHasText { pendingSpace = (style, link) }
    }

    /// A forced line break.
    mutating func hardBreak() {
        hasHardBreak = true
        pendingSpace = nil
        lineHasText = false
        text.append(0x0A)
    }

    /// Marks the end of a word. Breaks come from the whole text's UAX #14 opportunities, so
    /// this changes nothing; callers may mark word ends where they know them.
    mutating func endWord() {}

    /// Writes the pending space and starts a run for text in `style`; returns where it starts.
    private mutating func beginText(_ style: TerminalStyle, _ link: String?) -> Int {
        if let (s, l) = pendingSpace {
            setRun(s, l)
            text.append(0x20)
            pendingSpace = nil
        }
        lineHasText = true
        setRun(style, link)
        return text.count
    }

    /// Makes the text appended next have `style` and `link`.
    private mutating func setRun(_ style: TerminalStyle, _ link: String?) {
        let last = runs.count - 1
        if last >= 0 {
            if runs[last].style == style && runs[last].link == link { return }
            if runs[last].start == text.count { runs[last].style = style; runs[last].link = link; return }
        }
        runs.append((text.count, style, link))
    }

    /// The lines (see the type's rules); at least one. Text without a hard break that fits in
    /// `width` is one line without asking ICU (the greedy filling would not break it either).
    mutating func finish() -> [Line] { finish(width: width) }

    /// The lines at `columns` wide instead of the filler's own width (a table column narrower
    /// than its cell's text): the same lines a filler of that width fed the same text would give,
    /// without collecting the text again or asking ICU again (its opportunities are kept).
    mutating func finish(width columns: Int) -> [Line] {
        let columns = max(columns, 1)
        let n = text.count
        if ascii && !hasHardBreak && n <= columns { return [oneLine()] }
        var layout = makeLayout(width: columns)
        if !hasHardBreak && layout.columns(0, n) <= columns {
            if n > 0 { layout.placePiece(0, n) }
            return layout.finish()
        }
        forEachPiece(layout) { a, e, space, hard in
            if e > a { layout.placePiece(a, e) }
            if let space { layout.pendingSpace = space }
            if hard { layout.newLine() }
        }
        // The widest piece depends on the width (URLs wider than it are broken): keep the one
        // of the filler's own width only.
        if columns == width { widest = layout.widestPiece }
        return layout.finish()
    }

    /// The whole ASCII text as one line, as ``LineLayout`` places a text that fits: one ``Seg``
    /// per style run, a run merged into the one before when style and link are the same, each
    /// as wide as its byte count.
    private func oneLine() -> Line {
        var line: Line = []
        let n = text.count
        guard n > 0 else { return line }
        // Room for a few segments and the bar or indent put before them later, in one allocation.
        line.reserveCapacity(6)
        text.withUnsafeBufferPointer { bytes in
            for k in runs.indices {
                let start = k == 0 ? 0 : runs[k].start
                let end = k + 1 < runs.count ? runs[k + 1].start : n
                guard end > start else { continue }
                let piece = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                let last = line.count - 1
                if last >= 0, line[last].style == runs[k].style, line[last].link == runs[k].link {
                    line[last].text.append(piece); line[last].width += end - start
                } else {
                    line.append(Seg(piece, runs[k].style, link: runs[k].link, width: end - start))
                }
            }
        }
        return line
    }

    /// The width of the widest line of ``finish()`` (0 for no text). Text without a hard break
    /// that fits is one line as wide as the text (the columns of its segments add up to the
    /// text's): measured without making the line.
    mutating func naturalWidth() -> Int {
        if !hasHardBreak {
            let layout = makeLayout(width: width)
            let w = layout.columns(0, text.count)
            if w <= width { return w }
        }
        return finish().map(lineWidth).max() ?? 0
    }

    /// The width of the widest piece between two break opportunities (what no width can break
    /// without cutting a word); 0 for no text.
    mutating func widestWord() -> Int {
        if let widest { return widest }
        let layout = makeLayout(width: width)
        var w = 0
        forEachPiece(layout) { a, e, _, _ in w = max(w, layout.columns(a, e)) }
        widest = w
        return w
    }

    /// A layout of the text at `columns`, with the cluster measure made once per text (a table
    /// cell is laid out up to three times).
    private mutating func makeLayout(width columns: Int) -> LineLayout {
        if !ascii && clusters == nil { clusters = ClusterMeasure(text) }
        return LineLayout(text: text, runs: runs, ascii: ascii, width: columns, clusters: clusters)
    }

    /// The break opportunities of ``text`` (see ``Breaks``), computed on the first call.
    private mutating func opportunities() -> Breaks {
        if let breaks { return breaks }
        let found: Breaks = LineBreaks.offsets(text).map { .offsets($0) } ?? .failed
        breaks = found
        return found
    }

    /// Calls `visit(a, e, space, hard)` for each piece between two break opportunities, in
    /// order: its text is `text[a..<e]`; `space` is the offset of the separating space after it,
    /// `hard` whether a hard break follows. Opportunities inside a grapheme cluster (where ICU's
    /// and Swift's segmentations differ) and after a space of ``appendCharacters(_:_:_:)`` are
    /// skipped.
    private mutating func forEachPiece(_ layout: LineLayout, _ visit: (Int, Int, Int?, Bool) -> Void) {
        let n = text.count
        guard n > 0 else { return }
        let found = opportunities()
        let text = text, gluedSpaces = gluedSpaces
        let noGlue = gluedSpaces.isEmpty
        var a = 0
        func piece(_ b: Int) {
            var e = b
            var hard = false
            if e > a && text[e - 1] == 0x0A { hard = true; e -= 1 }
            var space: Int?
            if e > a && text[e - 1] == 0x20 && (noGlue || !gluedSpaces.contains(e - 1)) { space = e - 1; e -= 1 }
            visit(a, e, space, hard)
            a = b
        }
        var unbroken = UnbrokenWords(text, fits: { layout.columns($0, $1) <= layout.width })
        if case .offsets(let list) = found {
            for b32 in list {
                let b = Int(b32)
                if b < n && (!layout.isClusterBoundary(b) || (!noGlue && text[b - 1] == 0x20 && gluedSpaces.contains(b - 1))
                             || unbroken.keepsTogether(b)) { continue }
                piece(b)
            }
        } else {
            for b in 1...n where b == n || (text[b - 1] == 0x20 && !gluedSpaces.contains(b - 1)) || text[b - 1] == 0x0A {
                piece(b)
            }
        }
    }
}

/// Our one tailoring of UAX #14 (which allows tailoring, UAX #14 §8): inside a word that is a URL
/// (it contains `://` or starts with `www.` or `mailto:`) or a command-line option (it starts with
/// `-`), the opportunities UAX #14 gives after `/`, `:`, `?`, `-` and the like are not used, so a
/// terminal shows `https://example.com/page` and `--dry-run` whole and they stay clickable and
/// copyable. A word wider than the line keeps UAX #14's opportunities (a long URL still breaks
/// after `/`). Words are the maximal runs of bytes other than space and line feed; each is
/// examined once (linear).
private struct UnbrokenWords {
    let text: [UInt8]
    /// Whether `text[a..<e]` fits on one line.
    let fits: (Int, Int) -> Bool
    /// The word examined last: `text[start..<end]`, and whether it is kept together.
    var start = 0, end = 0, keep = false

    init(_ text: [UInt8], fits: @escaping (Int, Int) -> Bool) { self.text = text; self.fits = fits }

    /// Whether the opportunity before offset `b` (0 < b < count) lies inside a word kept together.
    mutating func keepsTogether(_ b: Int) -> Bool {
        let c = text[b - 1]
        if c == 0x20 || c == 0x0A || text[b] == 0x20 || text[b] == 0x0A { return false }
        if b - 1 < start || b - 1 >= end {
            var s = b - 1
            while s > 0 && text[s - 1] != 0x20 && text[s - 1] != 0x0A { s -= 1 }
            var e = b
            while e < text.count && text[e] != 0x20 && text[e] != 0x0A { e += 1 }
            start = s; end = e
            keep = Self.isKeptTogether(text[s..<e]) && fits(s, e)
        }
        return keep
    }

    /// A URL or an option: see the type's doc comment. Leading `(`, `<`, `[`, `"` and `'` are skipped.
    /// The prefixes that make a word a URL, made once (not an array per word).
    private static let wwwPrefix = Array("www.".utf8), mailtoPrefix = Array("mailto:".utf8)

    static func isKeptTogether(_ word: ArraySlice<UInt8>) -> Bool {
        let w = word.drop { $0 == 0x28 || $0 == 0x3C || $0 == 0x5B || $0 == 0x22 || $0 == 0x27 }
        guard let first = w.first else { return false }
        if first == 0x2D { return w.count > 1 }  // -x, --option, --dry-run
        if w.starts(with: wwwPrefix) || w.starts(with: mailtoPrefix) { return true }
        var i = w.startIndex
        while i + 2 < w.endIndex {
            if w[i] == 0x3A && w[i + 1] == 0x2F && w[i + 2] == 0x2F { return true }
            i += 1
        }
        return false
    }
}

/// The sequences ``SGR/sequence(_:)`` made for one renderer (which runs on one thread).
final class SGRCache {
    /// The styles made so far and their sequences, at the same indices (a document uses a
    /// handful of styles).
    private var styles: [TerminalStyle] = []
    private var sequences: [String] = []

    /// The style asked for last and its sequence (styles repeat line after line).
    private var lastStyle = TerminalStyle()
    private var lastSequence = ""
    private var hasLast = false

    func sequence(_ style: TerminalStyle, _ sgr: SGR) -> String {
        if hasLast && lastStyle == style { return lastSequence }
        let q: String
        if let i = styles.firstIndex(of: style) {
            q = sequences[i]
        } else {
            q = sgr.sequence(style)
            styles.append(style)
            sequences.append(q)
        }
        lastStyle = style; lastSequence = q; hasLast = true
        return q
    }
}

/// Runs of spaces up to 128, made once.
let spaceRuns: [String] = (0...128).map { String(repeating: " ", count: $0) }

/// `n` spaces (`n` ≥ 0).
func spaces(_ n: Int) -> String { n <= 128 ? spaceRuns[n] : String(repeating: " ", count: n) }

func lineWidth(_ l: Line) -> Int { l.reduce(0) { $0 + $1.width } }
