import Foundation

/// libcmark-gfm 0.29's matching of emphasis and strikethrough delimiters (`process_emphasis` in
/// its inlines.c), replayed on one paragraph's `*`, `_` and `~` runs to count the steps of its
/// backward searches for an opener, for ``InputLimits``.
///
/// Upstream bounds each search by the last place a search for the same character failed
/// (`openers_bottom`), but that bound is a delimiter which a later match may remove; from then on
/// every search walks to the paragraph's start. `*t *t … _t*_ _t*_ …` (20 000 of each, 160 KB)
/// so costs about 2·10⁸ steps (4 s in every format); cmark 0.30 fixed it. The replay follows the
/// library's algorithm step for step (a removed delimiter is never met again, as upstream's freed
/// pointer is not), so its count is the library's; it stops as soon as the document's count passes
/// the bound, so it costs at most the bound's steps itself.
///
/// It sees the text as ``InputLimits`` does, on the safe side: code spans, links, autolinks and
/// raw HTML are not looked for (their `*` count as delimiters), and a paragraph runs to the next
/// blank line or fence (a heading or table row in it is not a subject of its own). Non-ASCII
/// characters count as letters in the flanking rules.
struct EmphasisReplay {
    /// One delimiter run on the stack (upstream's `delimiter`).
    struct Delimiter {
        var char: UInt8
        /// The run's length as scanned (upstream's `length`, read by the rule of three).
        var length: Int32
        /// Characters not yet used by a match.
        var remaining: Int32
        var canOpen: Bool
        var canClose: Bool
        var previous: Int32 = -1
        var next: Int32 = -1
        var line: Int32
        var column: Int32
    }

    /// The runs of the paragraph being scanned, in order.
    var delimiters: [Delimiter] = []
    /// Steps taken in the document so far.
    var steps = 0
    /// Most steps allowed in the document.
    let bound: Int

    init(bound: Int) {
        self.bound = bound
    }

    static func isSpace(_ x: UInt8) -> Bool { x == 0x20 || x == 0x09 || x == 0x0A || x == 0x0D || x == 0x0C }
    /// ASCII punctuation (non-ASCII bytes count as letters).
    static func isPunct(_ x: UInt8) -> Bool {
        (x >= 0x21 && x <= 0x2F) || (x >= 0x3A && x <= 0x40) || (x >= 0x5B && x <= 0x60) || (x >= 0x7B && x <= 0x7E)
    }

    /// Adds the delimiter runs of one line's content `b[c..<end]` (line `line`, which starts at
    /// `start`), with upstream's flanking rules (`scan_delims`) and its rule for which runs are
    /// pushed: `*` and `_` that can open or close, `~` runs of one or two that flank.
    mutating func scanLine(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ c: Int, _ end: Int, line: Int) {
        let base = b.baseAddress!
        guard memchr(base + c, 0x2A, end - c) != nil || memchr(base + c, 0x5F, end - c) != nil
                || memchr(base + c, 0x7E, end - c) != nil else { return }
        var i = c
        while i < end {
            let x = b[i]
            if x == 0x5C {  // a backslash escapes the next punctuation character
                i += (i + 1 < end && Self.isPunct(b[i + 1])) ? 2 : 1
                continue
            }
            guard x == 0x2A || x == 0x5F || x == 0x7E else { i += 1; continue }
            var j = i + 1
            while j < end, b[j] == x { j += 1 }
            let before: UInt8 = i > c ? b[i - 1] : 0x0A
            let after: UInt8 = j < end ? b[j] : 0x0A
            let left = !Self.isSpace(after) && (!Self.isPunct(after) || Self.isSpace(before) || Self.isPunct(before))
            let right = !Self.isSpace(before) && (!Self.isPunct(before) || Self.isSpace(after) || Self.isPunct(after))
            var canOpen = left, canClose = right
            if x == 0x5F {
                canOpen = left && (!right || Self.isPunct(before))
                canClose = right && (!left || Self.isPunct(after))
            }
            let length = j - i
            let pushed = x == 0x7E ? (left || right) && length <= 2 : canOpen || canClose
            if pushed {
                var d = Delimiter(char: x, length: Int32(clamping: length), remaining: Int32(clamping: length), canOpen: canOpen,
                                  canClose: canClose, line: Int32(clamping: line), column: Int32(clamping: i - start + 1))
                d.previous = Int32(delimiters.count - 1)
                if !delimiters.isEmpty { delimiters[delimiters.count - 1].next = Int32(delimiters.count) }
                delimiters.append(d)
            }
            i = j
        }
    }

    /// Replays upstream's matching on the paragraph's runs and forgets them; the closer at which
    /// the document's steps pass ``bound`` (its line and column), or nil.
    mutating func finishParagraph() -> (line: Int, column: Int)? {
        defer { delimiters.removeAll(keepingCapacity: true) }
        guard delimiters.count > 1 else { return nil }
        var steps = self.steps
        let bound = self.bound
        let at = delimiters.withUnsafeMutableBufferPointer { Self.replay($0, steps: &steps, bound: bound) }
        self.steps = steps
        return at
    }

    /// Upstream's `process_emphasis` on the runs `d` (a list through `previous`/`next`, from 0),
    /// adding its backward steps to `steps`; the closer at which they pass `bound`, or nil.
    private static func replay(_ d: UnsafeMutableBufferPointer<Delimiter>, steps: inout Int, bound: Int) -> (line: Int, column: Int)? {
        // openers_bottom: per character (`*`, `_`, `~`) and length % 3; -1 is the stack's bottom.
        var bottom = [Int32](repeating: -1, count: 9)
        func slot(_ c: UInt8) -> Int { c == 0x2A ? 0 : c == 0x5F ? 3 : 6 }
        func remove(_ k: Int32) {
            let p = d[Int(k)].previous, n = d[Int(k)].next
            if p >= 0 { d[Int(p)].next = n }
            if n >= 0 { d[Int(n)].previous = p }
            d[Int(k)].previous = -1
            d[Int(k)].next = -1
        }
        var closer: Int32 = 0
        while closer >= 0 {
            let cl = d[Int(closer)]
            guard cl.canClose else { closer = cl.next; continue }
            let b = bottom[slot(cl.char) + Int(cl.length % 3)]
            var opener = cl.previous
            var found = false
            while opener >= 0 && opener != b {
                steps += 1
                let op = d[Int(opener)]
                if op.canOpen && op.char == cl.char
                    && (!(cl.canOpen || op.canClose) || cl.length % 3 == 0 || (op.length + cl.length) % 3 != 0) {
                    found = true
                    break
                }
                opener = op.previous
            }
            if steps > bound { return (Int(cl.line), Int(cl.column)) }
            if !found {
                bottom[slot(cl.char) + Int(cl.length % 3)] = cl.previous
                let next = cl.next
                if !cl.canOpen { remove(closer) }
                closer = next
                continue
            }
            // Delimiters between the two go (each once in the document: not counted).
            var k = d[Int(closer)].previous
            let keepBetween = cl.char == 0x7E && d[Int(opener)].remaining != cl.remaining
            while !keepBetween, k >= 0, k != opener {
                let p = d[Int(k)].previous
                remove(k)
                k = p
            }
            if cl.char == 0x7E {
                // strikethrough.c: equal runs make a span (both go), unequal ones nothing.
                let next = cl.next
                if !keepBetween { remove(closer); remove(opener) }
                closer = next
                continue
            }
            let use: Int32 = d[Int(closer)].remaining >= 2 && d[Int(opener)].remaining >= 2 ? 2 : 1
            d[Int(opener)].remaining -= use
            d[Int(closer)].remaining -= use
            if d[Int(opener)].remaining == 0 { remove(opener) }
            if d[Int(closer)].remaining == 0 {
                let next = d[Int(closer)].next
                remove(closer)
                closer = next
            }
        }
        return nil
    }
}
