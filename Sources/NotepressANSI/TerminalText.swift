import NotepressAST
import NotepressPlatform

/// The one escaping function for terminal output: every piece of document text (prose, code,
/// link text, shown URLs, table cells, titles, front matter, footnotes) passes through
/// ``TerminalText/visible(_:tabs:)`` before it reaches the output.
///
/// Rules (ECMA-48 §5 defines C0 and C1; a terminal acts on them, so none may pass):
/// - C0 controls U+0000–U+001F become the Control Pictures U+2400 + code (ESC → `␛`, BEL → `␇`,
///   LF → `␊`), except TAB (see `tabs`).
/// - DEL U+007F becomes `␡` (U+2421).
/// - C1 controls U+0080–U+009F (CSI U+009B, OSC U+009D, ST U+009C …) become U+FFFD `�`.
/// - Bidi embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069, see
///   ``BidiControl``) become their code point in ASCII, `<U+202E>`: none reaches the terminal,
///   so none can reorder the rest of the line.
/// Entities such as `&#27;` are already decoded by the reader, so they are caught here too.
package enum TerminalText {
    /// How TAB is treated.
    package enum TabHandling: Sendable {
        /// Prose: a tab is whitespace (CommonMark treats it so) and becomes one space.
        case space
        /// Code: expand to the next multiple of `n` columns, counted from the start of the string.
        case expand(Int)
    }

    /// `s` with every control character replaced by a visible symbol (see the type's rules).
    package static func visible(_ s: String, tabs: TabHandling = .space) -> String {
        // No C0 control, DEL, C1 control (UTF-8 C2 80–9F) or bidi control (E2 80 AA–AE,
        // E2 81 A6–A9) in the bytes (the usual case): nothing to replace.
        var s = s
        if s.withUTF8({ buf in
            let n = buf.count
            var i = 0
            while i < n {
                let b = buf[i]
                if b < 0x20 || b == 0x7F { return false }
                if b >= 0x80 {
                    if b == 0xC2 && i + 1 < n && buf[i + 1] <= 0x9F { return false }
                    if b == 0xE2 && i + 2 < n {
                        let b1 = buf[i + 1], b2 = buf[i + 2]
                        if (b1 == 0x80 && b2 >= 0xAA && b2 <= 0xAE) || (b1 == 0x81 && b2 >= 0xA6 && b2 <= 0xA9) { return false }
                    }
                }
                i += 1
            }
            return true
        }) { return s }
        var out = String.UnicodeScalarView()
        // Code: the columns before the text since the last tab (`segment`), counted per grapheme
        // cluster (``TerminalWidth``) when a tab comes.
        var column = 0
        var segment = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            let v = u.value
            if v == 0x09 {
                switch tabs {
                case .space:
                    out.append(" ")
                case .expand(let n):
                    column += TerminalWidth.columns(String(segment))
                    out.append(contentsOf: segment)
                    segment.removeAll(keepingCapacity: true)
                    let stop = n > 0 ? n - column % n : 1
                    for _ in 0..<stop { out.append(" ") }
                    column += stop
                }
                continue
            }
            if BidiControl.contains(u) {
                let shown = BidiControl.visible(u)
                out.append(contentsOf: shown.unicodeScalars)
                column += shown.unicodeScalars.count
                continue
            }
            let r: Unicode.Scalar
            if v < 0x20 {
                r = Unicode.Scalar(0x2400 + v)!
            } else if v == 0x7F {
                r = "\u{2421}"
            } else if v >= 0x80 && v <= 0x9F {
                r = "\u{FFFD}"
            } else {
                r = u
            }
            if case .expand = tabs { segment.append(r) } else { out.append(r) }
        }
        out.append(contentsOf: segment)
        return String(out)
    }

    /// Makes a URL safe inside an OSC 8 sequence (`ESC ] 8 ; ; URL ESC \`): every byte outside
    /// printable ASCII 0x21–0x7E (controls, ESC, BEL, C1, spaces, non-ASCII UTF-8) and `;` is
    /// percent-encoded (RFC 3986 §2.1), so the URL can neither end the sequence nor add parameters.
    package static func osc8URL(_ url: String) -> String {
        var out = ""
        let hex = Array("0123456789ABCDEF")
        for b in url.utf8 {
            if b > 0x20 && b < 0x7F && b != UInt8(ascii: ";") {
                out.unicodeScalars.append(Unicode.Scalar(b))
            } else {
                out.append("%"); out.append(hex[Int(b >> 4)]); out.append(hex[Int(b & 15)])
            }
        }
        return out
    }
}

/// ``TerminalWidth/scalarWidth(_:)`` of every scalar of the Basic Multilingual Plane, measured
/// once (surrogate code points, which are no scalars, stay 1 and are never looked up).
private final class BMPWidths: Sendable {
    let table: [UInt8]
    init() {
        var t = [UInt8](repeating: 1, count: 0x10000)
        for v in 0..<0x10000 {
            guard let u = Unicode.Scalar(UInt32(v)) else { continue }
            t[v] = v < 0x7F ? (v < 0x20 ? 0 : 1) : UInt8(TerminalWidth.measuredWidth(u))
        }
        table = t
    }
    static let shared = BMPWidths()
}


/// Display widths in terminal columns, per grapheme cluster (what a user sees as one character;
/// Swift's `Character`, Unicode UAX #29 extended grapheme clusters).
///
/// Scalars are measured with glibc's `wcwidth` (POSIX.1-2017 `wcwidth`; Unicode UAX #11 East
/// Asian Width as glibc's C.UTF-8 locale tables encode it): CJK wide and fullwidth characters are
/// 2 columns, combining marks 0. Emoji rule (ours, because terminals draw them two columns wide
/// although older tables say 1): a scalar in U+1F000–U+1FFFF with the Emoji_Presentation
/// property counts 2 when `wcwidth` returns 1 or -1. Any other scalar `wcwidth` rejects (-1,
/// e.g. unassigned) counts 1.
///
/// Cluster rule — the one terminals that place grapheme clusters in cells use (kitty, WezTerm,
/// foot, Ghostty, iTerm2, Windows Terminal; "mode 2027"), following Unicode UTS #51's emoji
/// presentation:
/// - an emoji sequence is one emoji glyph, 2 columns: a flag (two Regional Indicators, `🇳🇱`),
///   and a cluster whose first scalar has the Emoji property followed by U+FE0F VARIATION
///   SELECTOR-16 (`❤️`, `1️⃣`), an Emoji_Modifier (skin tone, `👍🏽`) or U+200D ZERO WIDTH JOINER
///   (`👩‍👩‍👧`);
/// - any other cluster is the sum of its scalars' widths (`é` as e + U+0301 is 1, Hangul jamo
///   L+V+T is 2, U+FE0E VARIATION SELECTOR-15 adds nothing).
/// Adding up per code point (glibc's `wcswidth`) gives `👩‍👩‍👧` 6 columns, `❤️` 1 and `👍🏽` 4;
/// tmux 3.3 joins flags and ZWJ sequences into 2 columns but counts `❤️` as 1 and `👍🏽` as 4.
/// On terminals that add up, lines with such sequences come out wider or narrower than their
/// neighbours.
/// Escape sequences are never measured: callers measure text, not output.
package enum TerminalWidth {
    /// Columns of one scalar (0, 1 or 2).
    package static func scalarWidth(_ u: Unicode.Scalar) -> Int {
        let v = u.value
        if v < 0x7F { return v < 0x20 ? 0 : 1 }
        if v < 0x10000 { return Int(BMPWidths.shared.table[Int(v)]) }
        return measuredWidth(u)
    }

    /// The width rules applied to `wcwidth` (the Emoji rule, -1 → 1), without the table.
    fileprivate static func measuredWidth(_ u: Unicode.Scalar) -> Int {
        let v = u.value
        let w = Platform.wcwidth(v)
        if v >= 0x1F000 && v <= 0x1FFFF && (w == 1 || w == -1) && u.properties.isEmojiPresentation { return 2 }
        if w < 0 { return 1 }
        return w
    }

    /// Whether `u` can make a cluster an emoji sequence (see the cluster rule): VS16, ZWJ, a
    /// skin-tone modifier or a Regional Indicator. Text without them is measured per scalar.
    @inline(__always)
    static func joinsEmoji(_ u: Unicode.Scalar) -> Bool {
        let v = u.value
        return v == 0xFE0F || v == 0x200D || (v >= 0x1F1E6 && v <= 0x1F1FF) || (v >= 0x1F3FB && v <= 0x1F3FF)
    }

    /// Columns of a string (the sum of its grapheme clusters' widths).
    package static func columns(_ s: String) -> Int {
        if let n = s.utf8.withContiguousStorageIfAvailable(asciiColumns), let n { return n }
        return nonASCIIColumns(s[...])
    }

    /// Columns of a substring (the sum of its grapheme clusters' widths).
    package static func columns(_ s: Substring) -> Int {
        if let n = s.utf8.withContiguousStorageIfAvailable(asciiColumns), let n { return n }
        return nonASCIIColumns(s)
    }

    /// Columns of ASCII text (printable bytes 1, controls 0), or nil when there is other text.
    private static func asciiColumns(_ utf8: UnsafeBufferPointer<UInt8>) -> Int? {
        var n = 0
        for b in utf8 {
            if b >= 0x7F { return nil }
            if b >= 0x20 { n += 1 }
        }
        return n
    }

    private static func nonASCIIColumns(_ s: Substring) -> Int {
        var n = 0
        for u in s.unicodeScalars {
            if joinsEmoji(u) {
                // Emoji sequences: measure cluster by cluster.
                n = 0
                for c in s { n += columns(c) }
                return n
            }
            n += scalarWidth(u)
        }
        return n
    }

    /// Columns of one grapheme cluster (see the cluster rule).
    package static func columns(_ c: Character) -> Int {
        let scalars = c.unicodeScalars
        var it = scalars.makeIterator()
        guard let first = it.next() else { return 0 }
        guard let second = it.next() else { return scalarWidth(first) }
        let v = first.value
        if v >= 0x1F1E6 && v <= 0x1F1FF && second.value >= 0x1F1E6 && second.value <= 0x1F1FF { return 2 }
        if first.properties.isEmoji && scalars.dropFirst().contains(where: { joinsEmoji($0) && !($0.value >= 0x1F1E6 && $0.value <= 0x1F1FF) }) {
            return 2
        }
        var n = 0
        for u in scalars { n += scalarWidth(u) }
        return n
    }

    /// Columns of `s` as it shows on a terminal: escape sequences (CSI `ESC [ … final`, OSC
    /// `ESC ] … ST|BEL`) are skipped. For tests and callers that measure rendered lines.
    package static func displayColumns(ofRendered s: String) -> Int {
        var text = String.UnicodeScalarView()
        var it = s.unicodeScalars.makeIterator()
        while let u = it.next() {
            if u == "\u{1B}" {
                guard let k = it.next() else { break }
                if k == "[" {
                    while let x = it.next(), !(x.value >= 0x40 && x.value <= 0x7E) {}
                } else if k == "]" {
                    var prevEsc = false
                    while let x = it.next() {
                        if x == "\u{07}" || (prevEsc && x == "\\") { break }
                        prevEsc = x == "\u{1B}"
                    }
                }
                continue
            }
            text.append(u)
        }
        return columns(String(text))
    }
}
