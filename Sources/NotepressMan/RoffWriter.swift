import NotepressAST

/// A roff font, always selected absolutely (`\fR`, `\fB`, `\fI`, `\f(BI`); the "previous font"
/// escape `\fP` is never written (groff_man(7), "Font style macros"; mandoc's lint warns about it).
package enum RoffFont: String, Sendable, Equatable {
    /// Roman (regular).
    case roman = "R"
    case bold = "B"
    case italic = "I"
    case boldItalic = "BI"

    /// The escape that selects this font: `\fR`, `\fB`, `\fI` or `\f(BI`.
    package var escape: String { rawValue.count == 1 ? "\\f" + rawValue : "\\f(" + rawValue }
}

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
    ///
    /// With `breakable`, `\:` (an optional break, groff(7)) follows each `/`, `.`, `-`, `_`, `?`,
    /// `&`, `=`, `#` and each CJK character, so that long URLs, paths and CJK text (which has no
    /// spaces) can be broken at the line end.
    package static func escape(_ s: String, context: RoffContext, minus: Bool, breakable: Bool = false) -> String {
        var none = HyphenMask()
        return escape(s, context: context, minus: minus, breakable: breakable, mask: &none)
    }

    /// ``escape(_:context:minus:breakable:)`` for one part of a word whose hyphens `mask` decides
    /// (each `-` of `s` takes the mask's next flag; `minus` true makes every one `\-`); `next` is
    /// the character after the part in its word, if any (no break before a closing `)`).
    static func escape(_ s: String, context: RoffContext, minus: Bool, breakable: Bool, mask: inout HyphenMask,
                       next: Unicode.Scalar? = nil) -> String {
        // Printable ASCII that no rule changes (the usual word): the text itself.
        var plain = true
        var ascii = true
        for b in s.utf8 {
            switch b {
            case 0x20..<0x7F:
                switch b {
                case UInt8(ascii: "\\"), UInt8(ascii: "-"): plain = false
                case UInt8(ascii: "\""): if context == .argument { plain = false }
                case UInt8(ascii: "@"): if context == .cell { plain = false }
                case UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "?"), UInt8(ascii: "&"),
                     UInt8(ascii: "="), UInt8(ascii: "#"): if breakable { plain = false }
                default: break
                }
            case 0x80...:
                plain = false; ascii = false
            default:
                plain = false
            }
            if !ascii { break }
        }
        if plain { return s }
        // Written as bytes (the output is ASCII), turned into a String once.
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count + 8)
        // ASCII text: the same rules byte by byte (no ASCII character is CJK or a bidi control).
        if ascii {
            for c in s.utf8 {
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
            return String(decoding: out, as: UTF8.self)
        }
        let scalars = s.unicodeScalars
        var index = scalars.startIndex
        while index != scalars.endIndex {
            let u = scalars[index]
            index = scalars.index(after: index)
            defer {
                if breakable && (Self.breaksAfter(u) || (isCJK(u) && cjkBreakAfter(u, before: index == scalars.endIndex ? next : scalars[index]))) {
                    put("\\:", &out)
                }
            }
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
                if u.value < 0x20 || u.value == 0x7F || (u.value >= 0x80 && u.value < 0xA0) { continue }
                if BidiControl.contains(u) { out.append(contentsOf: BidiControl.visible(u).utf8); continue }
                if u.value < 0x80 {
                    out.append(UInt8(u.value))
                } else {
                    let hex = String(u.value, radix: 16, uppercase: true)
                    put("\\[u", &out)
                    for _ in 0..<max(0, 4 - hex.utf8.count) { out.append(UInt8(ascii: "0")) }
                    out.append(contentsOf: hex.utf8)
                    out.append(UInt8(ascii: "]"))
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension RoffEscaper {
    /// Appends ASCII text to escaped output.
    @inline(__always)
    static func put(_ t: StaticString, _ out: inout [UInt8]) { t.withUTF8Buffer { out.append(contentsOf: $0) } }

    /// `/`, `.`, `-`, `_`, `?`, `&`, `=`, `#`: the characters a breakable word may break after.
    @inline(__always)
    static func breaksAfter(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x2F, 0x2E, 0x2D, 0x5F, 0x3F, 0x26, 0x3D, 0x23: return true
        default: return false
        }
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
    switch u.properties.generalCategory {
    case .openPunctuation, .initialPunctuation: return false
    default: break
    }
    guard let next else { return true }
    switch next.properties.generalCategory {
    case .closePunctuation, .finalPunctuation, .otherPunctuation: return false
    default: return true
    }
}

/// CJK ideographs, kana, Hangul and full-width forms: text written without spaces.
func isCJK(_ u: Unicode.Scalar) -> Bool {
    switch u.value {
    case 0x3000...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFF00...0xFFEF: return true
    default: return false
    }
}

/// A piece of a word: raw (unescaped) text in one font.
struct WordPart: Equatable {
    var text: String
    var font: RoffFont
    /// Code: hyphens become `\-`.
    var literal: Bool
}

/// Line-aware roff output, in the manner of cmark's renderer: it knows whether it is at the start
/// of an output line, so that a `.` or `'` there (a control character, roff(7) "Control lines")
/// gets `\&` in front, also after it wraps a line.
///
/// Text is filled at ``width`` columns (counting escapes as one column each); each sentence that
/// ends in `.`, `!` or `?` followed by a space starts a new line (groff(7) "Sentences"; mandoc's
/// "new sentence, new line" style), and known abbreviations (`e.g.`, `i.e.`, `etc.` …) get `\&`
/// after their period so roff does not take them for a sentence end.
struct RoffWriter {
    /// Fill width in columns.
    var width = 78
    /// Inside a tbl text block (`T{ … T}`): a line starting `T}` would end it, so it gets `\&`.
    var inTextBlock = false
    /// Words longer than this many columns get optional breaks (`\:`) after `/`, `.`, `-` … and
    /// CJK characters.
    var breakThreshold = 30
    /// Every hyphen of text is written `\-` (the SYNOPSIS section: command names and options).
    var minusEverywhere = false

    init(width: Int = 78) { self.width = width }
    /// The roff written so far, as bytes (ASCII: see ``RoffEscaper``).
    private(set) var bytes: [UInt8] = []
    /// ``bytes`` as text.
    var out: String { String(decoding: bytes, as: UTF8.self) }
    /// Visible columns written on the current output line.
    private var column = 0
    /// The font in effect in the output.
    private var actualFont = RoffFont.roman
    /// Whether a space separates the previous word from the next.
    private var pendingSpace = false
    /// The last request/macro line written, when nothing was written after it.
    private(set) var lastMacro: String?

    /// At the start of an output line: nothing written, or the output ends with a line feed (and
    /// not CR LF, which is one Character; the output is ASCII, so bytes are Characters otherwise).
    var atLineStart: Bool {
        guard let last = bytes.last else { return true }
        guard last == 0x0A else { return false }
        return bytes.count < 2 || bytes[bytes.count - 2] != 0x0D
    }

    /// At a line start with nothing pending: column 0, no pending space, roman, and not after
    /// `.br`. `control(_:)` then writes just its line (and forgets the last macro), so text
    /// written from here on does not depend on what came before (see ``holdOutput()``).
    var atCleanLineStart: Bool {
        atLineStart && column == 0 && !pendingSpace && actualFont == .roman && lastMacro != "br"
    }

    /// The output written before ``holdOutput()``.
    private var held: [UInt8] = []

    /// Sets the output written so far aside; the writer goes on with an empty output (which is at
    /// a line start, as the set-aside one must be: ``atCleanLineStart``).
    mutating func holdOutput() {
        swap(&held, &bytes)
    }

    /// Puts the output set aside by ``holdOutput()`` and then `inserting` (whole control lines) in
    /// front of what was written since.
    mutating func releaseOutput(inserting: String) {
        held.append(contentsOf: inserting.utf8)
        held += bytes
        bytes = []
        swap(&held, &bytes)
    }

    /// Starts a new output line unless at one already.
    mutating func newline() {
        if !atLineStart { put("\n") }
        column = 0
        pendingSpace = false
    }

    /// Writes a macro line `.NAME args…`; arguments are escaped for `.argument` and quoted when
    /// they are empty or contain spaces. Resets the font to roman first.
    mutating func macro(_ name: String, _ args: [String] = [], minus: Bool = false) {
        closeFont()
        newline()
        var line = "." + name
        for a in args {
            let e = RoffEscaper.escape(a, context: .argument, minus: minus)
            line += " " + Self.quoteIfNeeded(e)
        }
        put(line + "\n")
        lastMacro = name
    }

    /// Writes a macro line whose arguments are already escaped roff (tags with fonts).
    mutating func macro(_ name: String, escapedArgs: [String]) {
        closeFont()
        newline()
        put("." + name + escapedArgs.map { " " + Self.quoteIfNeeded($0) }.joined() + "\n")
        lastMacro = name
    }

    /// Quotes an escaped argument that is empty or contains a space; an argument already in
    /// quotes is kept.
    static func quoteIfNeeded(_ e: String) -> String {
        // Escaped text is ASCII (see RoffEscaper), whose bytes are its Characters: test bytes
        // (String.count and Foundation's contains(_:) walk Characters); anything else takes the
        // Character-level tests.
        let u = e.utf8
        guard !u.contains(where: { $0 >= 0x80 || $0 == 0x0D }) else {
            if e.count >= 2 && e.hasPrefix("\"") && e.hasSuffix("\"") { return e }
            return (e.isEmpty || e.contains(" ") || e.hasPrefix("\"")) ? "\"" + e + "\"" : e
        }
        if u.count >= 2 && u.first == 0x22 && u.last == 0x22 { return e }
        return (u.isEmpty || u.contains(0x20) || u.first == 0x22) ? "\"" + e + "\"" : e
    }

    /// Writes a line of roff that is not user text (tbl format lines, comments, `T{`).
    mutating func control(_ line: String) {
        closeFont()
        newline()
        put(line + "\n")
        lastMacro = nil
    }

    /// `.PP`, unless a heading or paragraph macro was the last thing written (mandoc warns
    /// "skipping paragraph macro").
    mutating func paragraph() {
        if let m = lastMacro, ["SH", "SS", "PP", "TP", "IP"].contains(m), atLineStart { return }
        macro("PP")
    }

    /// Writes one line of code (no-fill mode), escaped for `.code`.
    mutating func codeLine(_ raw: String) {
        newline()
        put(Self.guardLineStart(RoffEscaper.escape(raw, context: .code, minus: true)) + "\n")
        lastMacro = nil
    }

    /// Prefixes `\&` when `escaped` would start a control line.
    static func guardLineStart(_ escaped: String) -> String {
        if let f = escaped.first, f == "." || f == "'" { return "\\&" + escaped }
        return escaped
    }

    /// A space between words; becomes a line break when the next word does not fit.
    mutating func space() {
        if !atLineStart { pendingSpace = true }
    }

    /// Writes one word (no spaces inside), given as parts in fonts, filling the line.
    /// `context` is `.text` or `.cell`.
    mutating func word(_ parts: [WordPart], context: RoffContext = .text) {
        let plain = parts.count == 1 ? parts[0].text : parts.map(\.text).joined()
        guard !plain.isEmpty else { return }
        let optionLike = minusEverywhere || plain.utf8.first == UInt8(ascii: "-")
        // One pass over the bytes: any hyphen, any non-ASCII.
        var hasHyphen = false
        var ascii = true
        for b in plain.utf8 {
            if b == UInt8(ascii: "-") { hasHyphen = true } else if b >= 0x80 { ascii = false }
        }
        var mask = HyphenMask()
        if !optionLike && hasHyphen { mask.flags = RoffEscaper.optionHyphens(in: plain) }
        // Back to roman before the space (`\fBa\fR b`, not `\fBa \fRb`).
        if pendingSpace, parts.first(where: { !$0.text.isEmpty })?.font == .roman, actualFont != .roman {
            put(RoffFont.roman.escape)
            actualFont = .roman
        }
        let visible = ascii ? plain.utf8.count : plain.unicodeScalars.count
        let long = visible > breakThreshold || (!ascii && plain.unicodeScalars.contains(where: isCJK))
        var escaped = ""
        var font = actualFont
        for (k, p) in parts.enumerated() where !p.text.isEmpty {
            if p.font != font { escaped += p.font.escape; font = p.font }
            let next = long ? parts[(k + 1)...].first { !$0.text.isEmpty }?.text.unicodeScalars.first : nil
            escaped += RoffEscaper.escape(p.text, context: context, minus: p.literal || optionLike, breakable: long, mask: &mask,
                                          next: next)
        }
        if long && escaped.hasSuffix("\\:") { escaped.removeLast(2) }
        if pendingSpace {
            if column + 1 + visible > width && column > 0 {
                put("\n"); column = 0
            } else {
                put(" "); column += 1
            }
            pendingSpace = false
        }
        if atLineStart {
            escaped = Self.guardLineStart(escaped)
            if inTextBlock && escaped.hasPrefix("T}") { escaped = "\\&" + escaped }
        }
        put(escaped)
        actualFont = font
        column += visible
        lastMacro = nil
    }

    /// Writes `columns` unpaddable spaces (`\ `, groff(7)): kept indentation at the start of a
    /// line, which a plain leading blank would turn into a break of its own (mandoc warns "br
    /// before text line with leading blank").
    mutating func fixedSpace(_ columns: Int) {
        guard columns > 0 else { return }
        if pendingSpace {
            put(" "); column += 1
            pendingSpace = false
        }
        put(String(repeating: "\\ ", count: columns))
        column += columns
        lastMacro = nil
    }

    /// Ends the current sentence's line: the next word starts a new output line.
    mutating func sentenceBreak() {
        pendingSpace = false
        newline()
    }

    /// Returns to roman at the end of the current text line.
    mutating func closeFont() {
        if actualFont != .roman {
            if atLineStart { put("\\&") }
            put("\\fR")
            actualFont = .roman
        }
    }

    /// Ends a paragraph of text: closes the font and the line.
    mutating func endText() {
        closeFont()
        newline()
    }

    /// Appends `\&` (a zero-width character) to the current line: after an abbreviation's
    /// period it stops roff from taking the period for a sentence end.
    mutating func zeroWidth() {
        put("\\&")
    }

    /// Appends text that is already roff to the output.
    @inline(__always)
    private mutating func put(_ s: String) { bytes.append(contentsOf: s.utf8) }

    /// Appends raw roff to the output (the preamble).
    mutating func raw(_ s: String) {
        put(s)
    }
}
