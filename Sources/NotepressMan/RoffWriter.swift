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
    package var escape: String {
        switch self {
        case .roman: return "\\fR"
        case .bold: return "\\fB"
        case .italic: return "\\fI"
        case .boldItalic: return "\\f(BI"
        }
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
        held.append(contentsOf: bytes)
        // The emptied buffer keeps its capacity for the next hold.
        bytes.removeAll(keepingCapacity: true)
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
        put(".")
        put(name)
        for a in args {
            put(" ")
            put(Self.quoteIfNeeded(RoffEscaper.escape(a, context: .argument, minus: minus)))
        }
        put("\n")
        lastMacro = name
    }

    /// Writes a macro line whose arguments are already escaped roff (tags with fonts).
    mutating func macro(_ name: String, escapedArgs: [String]) {
        closeFont()
        newline()
        put(".")
        put(name)
        for a in escapedArgs {
            put(" ")
            put(Self.quoteIfNeeded(a))
        }
        put("\n")
        lastMacro = name
    }

    /// Quotes an escaped argument that is empty or contains a space; an argument already in
    /// quotes is kept.
    static func quoteIfNeeded(_ e: String) -> String {
        // Escaped text is ASCII (see RoffEscaper), whose bytes are its Characters: test bytes
        // (String.count and Foundation's contains(_:) walk Characters); anything else takes the
        // Character-level tests.
        let asciiQuote: Bool? = e.withUTF8Bytes { u in
            if u.contains(where: { $0 >= 0x80 || $0 == 0x0D }) { return nil }
            if u.count >= 2 && u.first == 0x22 && u.last == 0x22 { return false }
            return u.isEmpty || u.contains(0x20) || u.first == 0x22
        }
        guard let asciiQuote else {
            if e.count >= 2 && e.hasPrefix("\"") && e.hasSuffix("\"") { return e }
            return (e.isEmpty || e.contains(" ") || e.hasPrefix("\"")) ? "\"" + e + "\"" : e
        }
        return asciiQuote ? "\"" + e + "\"" : e
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
    mutating func word(_ parts: Word, context: RoffContext = .text) {
        let plain = parts.tail.isEmpty ? parts.head.text : parts.map(\.text).joined()
        guard !plain.isEmpty else { return }
        // One pass over the bytes: the first a hyphen, any hyphen, any non-ASCII.
        let (startsWithHyphen, hasHyphen, ascii) = plain.withUTF8Bytes { bytes -> (Bool, Bool, Bool) in
            var hasHyphen = false
            var ascii = true
            for b in bytes {
                if b == UInt8(ascii: "-") { hasHyphen = true } else if b >= 0x80 { ascii = false }
            }
            return (bytes.first == UInt8(ascii: "-"), hasHyphen, ascii)
        }
        let optionLike = minusEverywhere || startsWithHyphen
        var mask = HyphenMask()
        if !optionLike && hasHyphen { mask.flags = RoffEscaper.optionHyphens(in: plain) }
        // Back to roman before the space (`\fBa\fR b`, not `\fBa \fRb`).
        if pendingSpace, parts.first(where: { !$0.text.isEmpty })?.font == .roman, actualFont != .roman {
            put(RoffFont.roman.escape)
            actualFont = .roman
        }
        let visible = ascii ? plain.utf8.count : plain.unicodeScalarCount
        let long = visible > breakThreshold || (!ascii && plain.unicodeScalars.contains(where: isCJK))
        var spaceBefore = false
        if pendingSpace {
            if column + 1 + visible > width && column > 0 {
                put("\n"); column = 0
            } else {
                put(" "); column += 1
                spaceBefore = true
            }
            pendingSpace = false
        }
        // Escaped straight into the output (ASCII, see RoffEscaper), from `start` on.
        var lineStart = atLineStart
        let start = bytes.count
        var font = actualFont
        if parts.tail.isEmpty {
            // The usual word, of one part (not empty: `plain` is not), with nothing after it.
            let p = parts.head
            if p.font != font { put(p.font.escape); font = p.font }
            RoffEscaper.escape(p.text, context: context, minus: p.literal || optionLike, breakable: long, mask: &mask,
                               next: nil, into: &bytes)
        } else {
            for (k, p) in parts.enumerated() where !p.text.isEmpty {
                if p.font != font { put(p.font.escape); font = p.font }
                let next = long ? parts[(k + 1)...].first { !$0.text.isEmpty }?.text.unicodeScalars.first : nil
                RoffEscaper.escape(p.text, context: context, minus: p.literal || optionLike, breakable: long, mask: &mask,
                                   next: next, into: &bytes)
            }
        }
        if long && bytes.count - start >= 2 && bytes[bytes.count - 2] == UInt8(ascii: "\\")
            && bytes[bytes.count - 1] == UInt8(ascii: ":") {
            bytes.removeLast(2)
        }
        // Escapes make a line longer in bytes than in columns: a source line past
        // ``maxLineBytes`` breaks before the word instead (mandoc's style check).
        // A font other than roman is closed (`\fR`) after the word, on the same line.
        let closing = font == .roman ? 0 : 3
        if spaceBefore && lineBytes(before: start) + (bytes.count - start) + closing > Self.maxLineBytes {
            bytes[start - 1] = 0x0A
            column = 0
            lineStart = true
        }
        if lineStart && bytes.count > start {
            // `guardLineStart(_:)` and, in a text block, a line starting `T}`.
            let first = bytes[start]
            if first == UInt8(ascii: ".") || first == UInt8(ascii: "'")
                || (inTextBlock && first == UInt8(ascii: "T") && bytes.count - start >= 2 && bytes[start + 1] == UInt8(ascii: "}")) {
                bytes.insert(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "&")], at: start)
            }
        }
        actualFont = font
        column += visible
        // Tested first: assigning `nil` to an empty optional String still costs a destroy per word.
        if lastMacro != nil { lastMacro = nil }
    }

    /// The longest source text line, in bytes, mandoc's lint takes without a style note
    /// ("input text line longer than 80 bytes").
    static let maxLineBytes = 80

    /// Bytes of the output line that `end` is in, from its start up to `end`.
    private func lineBytes(before end: Int) -> Int {
        var i = end
        while i > 0 && bytes[i - 1] != 0x0A { i -= 1 }
        return end - i
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
    private mutating func put(_ s: String) { s.withUTF8Bytes { bytes.append(contentsOf: $0) } }

    /// Empties the writer for reuse: the state of a new writer of the same width and settings,
    /// its buffers' capacity kept (one writer lays out every inline table cell).
    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        held.removeAll(keepingCapacity: true)
        column = 0
        actualFont = .roman
        pendingSpace = false
        lastMacro = nil
    }

    /// Appends roff bytes (another writer's output) to the output.
    mutating func raw(bytes more: [UInt8]) {
        bytes.append(contentsOf: more)
    }

    /// Appends one line of text already escaped (and guarded, ``guardLineStart(_:)``) and its
    /// line feed: no macro is the last one, so ``paragraph()`` writes `.PP` after it.
    mutating func textLine(_ escaped: String) {
        put(escaped + "\n")
        lastMacro = nil
    }

    /// ``textLine(_:)`` broken at spaces into source lines of at most ``maxLineBytes`` bytes
    /// (fill mode joins them again); a line that would start with `.` or `'` gets `\&`.
    mutating func textLines(_ escaped: String) {
        var line = ""
        for word in escaped.split(separator: " ", omittingEmptySubsequences: false) {
            if !line.isEmpty && line.utf8.count + 1 + word.utf8.count > Self.maxLineBytes {
                textLine(line)
                line = Self.guardLineStart(String(word))
            } else {
                line += (line.isEmpty ? "" : " ") + word
            }
        }
        textLine(line)
    }

    /// Appends raw roff to the output (the preamble).
    mutating func raw(_ s: String) {
        put(s)
    }
}
