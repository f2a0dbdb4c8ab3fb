import CLineBreak

/// Where lines may end in a paragraph's text: Unicode Standard Annex #14 (the Unicode Line
/// Breaking Algorithm) as ICU's line break iterator implements it for the root locale (CLineBreak,
/// libicuuc). Among its rules: no line starts with closing punctuation (`，` `。` `)` `」`), `!`,
/// `?`, `:` or `;` — not even after a space, so `true ?` stays together — and none ends with an
/// opening bracket (`(` `「`); CJK ideographs and kana may be broken between (not before small
/// kana such as `ょ`, as the default, strict rules say); a break may follow a hyphen (`well-|known`)
/// or a slash (`example.com/|path`); a break after spaces; a mandatory break after a line feed.
enum LineBreaks {
    /// Calls `body` with each break opportunity of `utf8` (valid UTF-8) in order: byte offsets,
    /// each > 0, the last `utf8.count` (see CLineBreak.h); one pass of ICU's iterator over the
    /// text, its results fetched a batch at a time, so memory stays small for any length.
    /// Returns false when ICU fails before giving any (the caller then breaks after spaces and
    /// line feeds only).
    static func forEach(_ utf8: [UInt8], _ body: (Int) -> Void) -> Bool {
        let n = utf8.count
        guard n > 0 else { return true }
        guard n < Int(Int32.max) else { return false }
        return utf8.withUnsafeBufferPointer { src in
            let started = src.withMemoryRebound(to: CChar.self) { notepress_line_breaks_begin($0.baseAddress, Int32(n)) }
            guard started == 0 else { return false }
            defer { notepress_line_breaks_end() }
            // A text of n bytes has at most n break opportunities: a short paragraph needs no
            // 1024-entry batch (the buffer is on the stack and not cleared: ICU fills it).
            let capacity = min(1024, n)
            return withUnsafeTemporaryAllocation(of: Int32.self, capacity: capacity) { batch in
                var last = 0
                while true {
                    let count = Int(notepress_line_breaks_next(batch.baseAddress, Int32(capacity)))
                    if count == 0 { break }
                    for i in 0..<count { body(Int(batch[i])) }
                    last = Int(batch[count - 1])
                }
                // ICU always ends with the end of the text; should it stop early, end there.
                if last < n { body(n) }
                return true
            }
        }
    }
}

/// The break opportunities of one paragraph text, as ``LineBreaks`` gives them: kept so that a
/// text laid out at several widths (a table cell) asks ICU once.
enum Breaks {
    /// Byte offsets in order, each > 0, the last the text's length.
    case offsets([Int32])
    /// ICU failed: break after spaces and line feeds only.
    case failed

    /// The opportunities of a text made only of ASCII letters and the symbols ``simpleSymbols``
    /// (Line_Break class AL), digits (NU), `.` `,` `:` `;` (IS), `-` (HY), `(` `[` (OP), `)` `]`
    /// (CP), `!` `?` (EX), `"` `'` (QU), `/` (SY) and spaces (SP), where no IS or SY follows a
    /// space, no NU follows SY and no word starts with HY, without asking ICU; `nil` for any other
    /// text. UAX #14's rules for these classes, first match wins: none at the start (LB2), one at
    /// the end (LB3); none before SP (LB7), IS, CP, EX or SY (LB13); none after OP, even across
    /// spaces (LB14); none between QU and OP, even across spaces (LB15); one after spaces (LB18);
    /// none before or after QU (LB19); none before HY (LB21); after HY none before NU (LB25), one
    /// elsewhere (LB31); before OP none after AL or NU (LB30), one after IS, CP, EX or SY (LB31);
    /// one after EX or SY (LB31); none else (LB23, LB25, LB28, LB29, LB30). ICU gives these
    /// offsets for such text (`ANSILineBreakTests` compares the two on every short text).
    static func simpleASCII(_ text: [UInt8]) -> Breaks? {
        let n = text.count
        guard n > 0 else { return nil }
        var list: [Int32] = []
        var prev: UInt8 = 0, beforeSpaces: UInt8 = 0
        for i in 0..<n {
            let c = simpleClass(text[i])
            if c == 0 { return nil }
            // A word that starts with `-` (`-x`, `--option`): ICU tailors it (no break after it).
            if c == hy && (i == 0 || prev == sp) { return nil }
            if i > 0 && c != sp {
                let breaks: Bool
                if c == isClass || c == cp || c == ex || c == sy {
                    if (c == isClass || c == sy) && prev == sp { return nil }  // ICU may break before ` .5`
                    breaks = false
                } else if beforeSpaces == op || (c == op && beforeSpaces == qu) {
                    breaks = false
                } else if prev == sp {
                    breaks = true
                } else if c == qu || prev == qu || c == hy {
                    breaks = false
                } else if prev == sy && c == nu {
                    return nil  // ICU keeps `1/2` together but breaks `/2` (LB25 as a number's regex)
                } else if prev == hy {
                    breaks = c != nu
                } else if c == op {
                    breaks = prev == isClass || prev == cp || prev == ex || prev == sy
                } else {
                    breaks = prev == ex || prev == sy
                }
                if breaks { list.append(Int32(truncatingIfNeeded: i)) }
            }
            prev = c
            if c != sp { beforeSpaces = c }
        }
        list.append(Int32(truncatingIfNeeded: n))
        return .offsets(list)
    }

    /// ASCII symbols of Line_Break class AL taken by the fast path.
    static let simpleSymbols = "#&*=<>@^_`~"

    /// Classes of ``simpleClass``.
    private static let al: UInt8 = 1, isClass: UInt8 = 2, sp: UInt8 = 3, nu: UInt8 = 4, hy: UInt8 = 5, op: UInt8 = 6, cp: UInt8 = 7
    private static let ex: UInt8 = 8, qu: UInt8 = 9, sy: UInt8 = 10

    /// The class of byte `b` for the fast path; 0 for bytes it leaves to ICU (any other byte).
    @inline(__always)
    private static func simpleClass(_ b: UInt8) -> UInt8 {
        switch b {
        case 0x61...0x7A, 0x41...0x5A: return al
        case 0x30...0x39: return nu
        case 0x20: return sp
        case 0x2E, 0x2C, 0x3A, 0x3B: return isClass
        case 0x2D: return hy
        case 0x28, 0x5B: return op
        case 0x29, 0x5D: return cp
        case 0x21, 0x3F: return ex
        case 0x22, 0x27: return qu
        case 0x2F: return sy
        // # & * = < > @ ^ _ ` ~ (simpleSymbols)
        case 0x23, 0x26, 0x2A, 0x3D, 0x3C, 0x3E, 0x40, 0x5E, 0x5F, 0x60, 0x7E: return al
        default: return 0
        }
    }
}
