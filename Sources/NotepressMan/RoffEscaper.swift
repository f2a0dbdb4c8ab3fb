import NotepressAST

/// Where escaped text goes; each context has its own rules, all applied by ``RoffEscaper/escape(_:context:minus:)``.
package enum RoffContext: Sendable, Equatable {
    /// A text line in fill mode.
    case text
    /// An argument of a macro line; the caller wraps it in double quotes, so `"` becomes `\(dq`.
    case argument
    /// A line inside `.EX`/`.EE` (no-fill mode): tabs are kept.
    case code
    /// Text in a tbl(1) cell: the column separator `@` (declared `tab(@)`) becomes `\[at]`.
    case cell
}

/// The one escaping function through which user text reaches roff output.
///
/// Rules (groff(7) "Escape sequences", groff_char(7), man-pages(7) "Formatting conventions"):
/// - `\` becomes `\e`.
/// - ASCII hyphen-minus becomes `\-` (the minus sign, which copies and pastes as U+002D) when
///   `minus` is true — the writer passes true for code, URLs, words that start with `-` (options
///   such as `--color`) and the SYNOPSIS section — or when a ``HyphenMask`` marks it: the hyphens
///   of an option-like token that starts after `(`, `[`, `"`, `` ` ``, `/`, `|` … inside a word
///   (`(--width)`, `[-v|--verbose]`, ``optionHyphens(in:)``). Elsewhere it stays `-` (a hyphen,
///   where roff may break lines; groff 1.23 and later print it as U+2010, which cannot be pasted
///   into a shell).
/// - Non-ASCII scalars become `\[uXXXX]` (groff_char(7) "Unicode characters"), except a few
///   common ones written with their classic names: `\(em`, `\(en`, `\(lq`, `\(rq`, `\(oq`, `\(cq`,
///   and no-break space as `\~`. Output is therefore pure ASCII.
/// - Control characters other than tab (kept in code) are dropped; a tab elsewhere becomes a space.
/// - Bidi embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069, ``BidiControl``)
///   are written as their code point in ASCII, `<U+202E>`: a pager showing the page would
///   otherwise reorder the rest of the line.
/// - `.` and `'` at the start of an output line are *not* handled here: only the line-aware
///   ``RoffWriter`` knows where lines start, and it prefixes `\&`.
package enum RoffEscaper {
    /// The page name of `.TH` (man-pages(7): upper case), escaped as an argument with no lower-case
    /// letter in its source: mandoc's lint asks for that ("lower case character in document
    /// title") and reads the letters of `\(dq`, `\e` and `\[u00C9]` as such. `"`, `\` and the
    /// Latin-1 characters are written by number, `\N'34'`, `\N'92'`, `\N'201'` (groff(7):
    /// Latin-1 positions in every groff device and in mandoc); characters past U+00FF keep
    /// `\[uXXXX]`, as mandoc draws no `\N` beyond Latin-1 (its note then stays).
    package static func titleName(_ name: String) -> String {
        let escaped = escape(name.uppercased(), context: .argument, minus: true)
        guard escaped.contains("\\") else { return escaped }
        var out = ""
        var rest = Substring(escaped)
        while let slash = rest.firstIndex(of: "\\") {
            out += rest[..<slash]
            rest = rest[rest.index(after: slash)...]
            if rest.hasPrefix("e") {
                out += "\\N'92'"; rest = rest.dropFirst()
            } else if rest.hasPrefix("(dq") {
                out += "\\N'34'"; rest = rest.dropFirst(3)
            } else if rest.hasPrefix("[u"), let close = rest.firstIndex(of: "]"),
                      let code = Int(rest[rest.index(rest.startIndex, offsetBy: 2)..<close], radix: 16), code >= 0xA0, code <= 0xFF {
                out += "\\N'\(code)'"; rest = rest[rest.index(after: close)...]
            } else {
                out += "\\"
            }
        }
        return out + rest
    }

    ///
    /// With `breakable`, `\:` (an optional break, groff(7)) follows each `/`, `.`, `-`, `_`, `?`,
    /// `&`, `=`, `#`, `+` and each CJK character, and precedes each `%` (``breakBeforePercent(_:)``),
    /// so that long URLs, paths and CJK text (which has no spaces) can be broken at the line end.
    package static func escape(_ s: String, context: RoffContext, minus: Bool, breakable: Bool = false) -> String {
        var none = HyphenMask()
        return escape(s, context: context, minus: minus, breakable: breakable, mask: &none)
    }

    /// ``escape(_:context:minus:breakable:)`` for one part of a word whose hyphens `mask` decides
    /// (each `-` of `s` takes the mask's next flag; `minus` true makes every one `\-`); `next` is
    /// the character after the part in its word, if any (no break before a closing `)`).
    static func escape(_ s: String, context: RoffContext, minus: Bool, breakable: Bool, mask: inout HyphenMask,
                       next: Unicode.Scalar? = nil) -> String {
        if isPlain(s, context: context, breakable: breakable) { return s }
        // Written as bytes (the output is ASCII), turned into a String once.
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count + 8)
        escapeRules(s, context: context, minus: minus, breakable: breakable, mask: &mask, next: next, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// ``escape(_:context:minus:breakable:mask:next:)`` appended to `out` (ASCII bytes) instead of
    /// returned: the writer escapes words straight into a reused buffer.
    static func escape(_ s: String, context: RoffContext, minus: Bool, breakable: Bool, mask: inout HyphenMask,
                       next: Unicode.Scalar? = nil, into out: inout [UInt8]) {
        // One look at the bytes: plain text is appended as it is.
        let appended = s.withUTF8Bytes { bytes -> Bool in
            guard isPlain(bytes, context: context, breakable: breakable) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if appended { return }
        escapeRules(s, context: context, minus: minus, breakable: breakable, mask: &mask, next: next, into: &out)
    }

    /// Printable ASCII that no rule changes (the usual word): escaping gives the text itself.
    @inline(__always)
    static func isPlain(_ s: String, context: RoffContext, breakable: Bool) -> Bool {
        s.withUTF8Bytes { isPlain($0, context: context, breakable: breakable) }
    }

    /// ``isPlain(_:context:breakable:)`` on the bytes.
    static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>, context: RoffContext, breakable: Bool) -> Bool {
        for b in bytes {
            switch b {
            case 0x20..<0x7F:
                switch b {
                case UInt8(ascii: "\\"), UInt8(ascii: "-"): return false
                case UInt8(ascii: "\""): if context == .argument { return false }
                case UInt8(ascii: "@"): if context == .cell { return false }
                case UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "?"), UInt8(ascii: "&"),
                     UInt8(ascii: "="), UInt8(ascii: "#"), UInt8(ascii: "+"), UInt8(ascii: "%"): if breakable { return false }
                default: break
                }
            default:
                return false
            }
        }
        return true
    }

    /// The rules of ``escape(_:context:minus:breakable:)``, applied to every character of `s`.
    static func escapeRules(_ s: String, context: RoffContext, minus: Bool, breakable: Bool, mask: inout HyphenMask,
                            next: Unicode.Scalar?, into out: inout [UInt8]) {
        // ASCII text: the same rules byte by byte (no ASCII character is CJK or a bidi control).
        let ascii = s.withUTF8Bytes { bytes -> Bool in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return false }
            for c in bytes {
                if breakable && c == UInt8(ascii: "%") { breakBeforePercent(&out) }
                switch c {
                case UInt8(ascii: "\\"): put("\\e", &out)
                case UInt8(ascii: "-"): if mask.next() || minus { put("\\-", &out) } else { out.append(c) }
                case UInt8(ascii: "\"") where context == .argument: put("\\(dq", &out)
                case UInt8(ascii: "@") where context == .cell: put("\\[at]", &out)
                case 0x09: out.append(context == .code ? 0x09 : 0x20)
                case 0x0A, 0x0D: if context != .code { out.append(0x20) }
                case 0x00..<0x20, 0x7F: continue
                default: out.append(c)
                }
                if breakable && Self.breaksAfter(Unicode.Scalar(c)) { put("\\:", &out) }
            }
            return true
        }
        if ascii { return }
        let scalars = s.unicodeScalars
        var index = scalars.startIndex
        while index != scalars.endIndex {
            let u = scalars[index]
            index = scalars.index(after: index)
            // Each case ends by leaving the switch (`break`), so the optional break below follows
            // every scalar, also a dropped one.
            if breakable && u == "%" { breakBeforePercent(&out) }
            switch u {
            case "\\": put("\\e", &out)
            case "-": if mask.next() || minus { put("\\-", &out) } else { out.append(UInt8(ascii: "-")) }
            case "\"" where context == .argument: put("\\(dq", &out)
            case "@" where context == .cell: put("\\[at]", &out)
            case "\t": out.append(context == .code ? 0x09 : 0x20)
            case "\n", "\r": if context != .code { out.append(0x20) }
            case "\u{A0}": put("\\~", &out)
            case "\u{2014}": put("\\(em", &out)
            case "\u{2013}": put("\\(en", &out)
            case "\u{201C}": put("\\(lq", &out)
            case "\u{201D}": put("\\(rq", &out)
            case "\u{2018}": put("\\(oq", &out)
            case "\u{2019}": put("\\(cq", &out)
            default:
                if u.value < 0x20 || u.value == 0x7F || (u.value >= 0x80 && u.value < 0xA0) { break }
                if BidiControl.contains(u) { out.append(contentsOf: BidiControl.visible(u).utf8); break }
                if u.value < 0x80 {
                    out.append(UInt8(u.value))
                } else {
                    // `\[uXXXX]`: upper-case hex, at least four digits.
                    put("\\[u", &out)
                    let v = u.value
                    var shift: UInt32 = v > 0xFFFFF ? 20 : v > 0xFFFF ? 16 : 12
                    while true {
                        let d = UInt8((v >> shift) & 0xF)
                        out.append(d < 10 ? 0x30 + d : 0x37 + d)
                        if shift == 0 { break }
                        shift -= 4
                    }
                    out.append(UInt8(ascii: "]"))
                }
            }
            if breakable && (Self.breaksAfter(u) || (isCJK(u) && cjkBreakAfter(u, before: index == scalars.endIndex ? next : scalars[index]))) {
                put("\\:", &out)
            }
        }
    }
}

extension RoffEscaper {
    /// Appends ASCII text to escaped output.
    @inline(__always)
    static func put(_ t: StaticString, _ out: inout [UInt8]) { t.withUTF8Buffer { out.append(contentsOf: $0) } }

    /// `/`, `.`, `-`, `_`, `?`, `&`, `=`, `#`, `+`: the characters a breakable word may break
    /// after (`+` joins the words of a URL's query, `q=alpha+beta+…`).
    @inline(__always)
    static func breaksAfter(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x2F, 0x2E, 0x2D, 0x5F, 0x3F, 0x26, 0x3D, 0x23, 0x2B: return true
        default: return false
        }
    }

    /// A breakable word may break before each `%` (a percent-encoded byte, `%E6%97%A5`, stays
    /// whole): `\:` unless the output already ends with one or is empty.
    @inline(__always)
    static func breakBeforePercent(_ out: inout [UInt8]) {
        guard !out.isEmpty, !(out.count >= 2 && out[out.count - 2] == 0x5C && out[out.count - 1] == 0x3A) else { return }
        put("\\:", &out)
    }
}

/// Which hyphens of a word are written `\-`: one flag per ASCII hyphen-minus, in order, taken
/// by ``RoffEscaper/escape(_:context:minus:breakable:mask:)``. An empty mask says `false` for
/// every hyphen.
struct HyphenMask {
    var flags: [Bool] = []
    var index = 0

    /// The flag of the next hyphen.
    mutating func next() -> Bool {
        defer { index += 1 }
        return index < flags.count && flags[index]
    }
}

extension RoffEscaper {
    /// Characters after which a hyphen may start an option inside a word: `(--width)`,
    /// `"--theme"`, `[-v|--verbose]`, `` `--x` ``, `a/--b`, `--a=-1`, `{-x,-y}`, `<-x>`, and the
    /// typographic quotes.
    static let optionOpeners: Set<Unicode.Scalar> = ["(", "[", "{", "\"", "'", "`", "/", "|", "=", ",", "<",
                                                     "\u{201C}", "\u{2018}", "\u{AB}"]

    /// The hyphens of `word` that belong to an option-like token (man-pages(7): options are
    /// written with `\-`): a run of hyphens at the start of the word or right after one of
    /// ``optionOpeners``, followed by a letter or digit, and every hyphen of the token that
    /// follows (letters, digits, `_`, `-`): `(--dry-run)` marks all three, `well-known`,
    /// `2-3-4` and `(e-mail)` none. One flag per hyphen-minus, in order; linear in the word.
    static func optionHyphens(in word: String) -> [Bool] {
        var flags: [Bool] = []
        var inOption = false
        var previous: Unicode.Scalar?
        let scalars = word.unicodeScalars
        var i = scalars.startIndex
        while i != scalars.endIndex {
            let u = scalars[i]
            if u == "-" {
                if !inOption && (previous == nil || optionOpeners.contains(previous!)) {
                    var j = i
                    while j != scalars.endIndex && scalars[j] == "-" { j = scalars.index(after: j) }
                    if j != scalars.endIndex, isOptionCharacter(scalars[j]), scalars[j] != "_" { inOption = true }
                }
                flags.append(inOption)
            } else if inOption && !isOptionCharacter(u) {
                inOption = false
            }
            previous = u
            i = scalars.index(after: i)
        }
        return flags
    }

    /// ASCII letters, digits and `_`: what an option name is made of after its hyphens.
    static func isOptionCharacter(_ u: Unicode.Scalar) -> Bool {
        switch u {
        case "a"..."z", "A"..."Z", "0"..."9", "_": return true
        default: return false
        }
    }
}

/// Whether a line may break between the CJK character `u` and `next` (UAX #14, in short): not
/// after opening brackets and quotes (`「`, `（`), not before closing ones nor before punctuation
/// (`」`, `）`, `，`, `。`, `、`, `！`), so that no line starts with `。`. At the end of a part
/// (`next` nil) it may.
func cjkBreakAfter(_ u: Unicode.Scalar, before next: Unicode.Scalar?) -> Bool {
    if !isLetterWithoutLookup(u) {
        switch u.properties.generalCategory {
        case .openPunctuation, .initialPunctuation: return false
        default: break
        }
    }
    guard let next else { return true }
    if isLetterWithoutLookup(next) { return true }
    switch next.properties.generalCategory {
    case .closePunctuation, .finalPunctuation, .otherPunctuation: return false
    default: return true
    }
}

/// Scalars known to be letters or digits (general category L* or N*, or unassigned) without a
/// Unicode property lookup: ASCII letters and digits, hiragana and katakana letters, CJK
/// ideographs (extension A and the unified block) and Hangul syllables. Only a shortcut for
/// ``cjkBreakAfter(_:before:)``, which looks up every other scalar.
@inline(__always)
func isLetterWithoutLookup(_ u: Unicode.Scalar) -> Bool {
    switch u.value {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x3041...0x3096, 0x30A1...0x30FA, 0x3400...0x4DBF, 0x4E00...0x9FFF,
         0xAC00...0xD7A3: return true
    default: return false
    }
}

/// CJK ideographs, kana, Hangul and full-width forms: text written without spaces.
func isCJK(_ u: Unicode.Scalar) -> Bool {
    switch u.value {
    case 0x3000...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFF00...0xFFEF: return true
    default: return false
    }
}


extension String {
    /// Calls `body` with the string's UTF-8 bytes in contiguous memory (a native string's own
    /// storage; a bridged or small string is copied first): byte loops on hot paths run on the
    /// pointer rather than through `UTF8View`'s index.
    @inline(__always)
    func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        var s = self
        return try s.withUTF8(body)
    }

    /// `unicodeScalars.count`, counted on the UTF-8 bytes: every byte that is not a
    /// continuation byte (`10xxxxxx`) starts a scalar (a String's UTF-8 is always valid).
    var unicodeScalarCount: Int {
        withUTF8Bytes { bytes in
            var n = 0
            for b in bytes where b & 0xC0 != 0x80 { n += 1 }
            return n
        }
    }
}
