import NotepressAST

/// Character classes used by note markup. All Unicode-aware, with ASCII fast paths.
enum NoteChar {
    /// A letter, a decimal digit, or a combining mark (which belongs to the letter before it).
    @inline(__always)
    static func isWord(_ u: Unicode.Scalar) -> Bool {
        let v = u.value
        if v < 0x80 {
            return (v >= 0x61 && v <= 0x7A) || (v >= 0x41 && v <= 0x5A) || (v >= 0x30 && v <= 0x39)
        }
        switch u.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber,
             .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }

    @inline(__always)
    static func isLetter(_ u: Unicode.Scalar) -> Bool {
        let v = u.value
        if v < 0x80 { return (v >= 0x61 && v <= 0x7A) || (v >= 0x41 && v <= 0x5A) }
        switch u.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        default: return false
        }
    }

    @inline(__always)
    static func isMark(_ u: Unicode.Scalar) -> Bool {
        if u.value < 0x80 { return false }
        switch u.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    @inline(__always)
    static func isWhitespace(_ u: Unicode.Scalar) -> Bool {
        let v = u.value
        if v < 0x80 { return v == 0x20 || v == 0x09 || v == 0x0A || v == 0x0D || v == 0x0B || v == 0x0C }
        return u.properties.isWhitespace
    }

    /// Opening punctuation a span may follow: `(` `[` `{` `"` `'` and every Unicode open (Ps) or
    /// initial-quote (Pi) punctuation: `«` `“` `‘` `„` `「` `（` ….
    @inline(__always)
    static func isOpeningPunctuation(_ u: Unicode.Scalar) -> Bool {
        let v = u.value
        if v < 0x80 { return v == 0x28 || v == 0x5B || v == 0x7B || v == 0x22 || v == 0x27 }
        switch u.properties.generalCategory {
        case .openPunctuation, .initialPunctuation: return true
        default: return false
        }
    }

    /// Decodes the scalar that starts at byte `i` of `bytes`, which must be valid UTF-8 (it comes
    /// from a `String`) with `i` on a scalar boundary. Returns the scalar and its length in bytes
    /// (1...4). ASCII costs one comparison.
    @inline(__always)
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (scalar: Unicode.Scalar, length: Int) {
        let b0 = UInt32(bytes[i])
        if b0 < 0x80 { return (Unicode.Scalar(UInt8(truncatingIfNeeded: b0)), 1) }
        let v: UInt32
        let length: Int
        if b0 < 0xE0 {
            v = (b0 & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F)
            length = 2
        } else if b0 < 0xF0 {
            v = (b0 & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F)
            length = 3
        } else {
            v = (b0 & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12 | UInt32(bytes[i + 2] & 0x3F) << 6
                | UInt32(bytes[i + 3] & 0x3F)
            length = 4
        }
        return (Unicode.Scalar(v) ?? "\u{FFFD}", length)
    }

    /// The scalar whose last byte is byte `j` of the valid UTF-8 `bytes` (walks back over
    /// continuation bytes `10xxxxxx` to the lead byte).
    @inline(__always)
    static func scalar(_ bytes: UnsafeBufferPointer<UInt8>, endingAt j: Int) -> Unicode.Scalar {
        var s = j
        while s > 0, bytes[s] & 0xC0 == 0x80 { s -= 1 }
        return decode(bytes, at: s).scalar
    }

    /// The span kind of a delimiter byte: 1 `*`, 2 `_`, 3 `-`, 4 `~`; 0 for anything else
    /// (every other byte, including all bytes of non-ASCII scalars).
    @inline(__always)
    static func delimiterKind(byte b: UInt8) -> UInt8 {
        switch b {
        case 0x2A: return 1
        case 0x5F: return 2
        case 0x2D: return 3
        case 0x7E: return 4
        default: return 0
        }
    }

    static func spanKind(_ k: UInt8) -> InlineSpan.Kind {
        switch k {
        case 1: return .strong
        case 2: return .emphasis
        case 3: return .strikethrough
        default: return .script
        }
    }
}

/// Scans one line of note markup into runs, working on the line's UTF-8 bytes.
///
/// Linear time: pass 1 finds the escapes and delimiters (all ASCII, so one byte each) and
/// matches delimiters with a stack (each opener is pushed and popped at most once; a closer finds
/// its opener through a per-kind chain); pass 2 walks the text between those tokens word by
/// word for ALL-CAPS words and writes the runs, their text cut straight from byte ranges.
/// Nothing is ever rescanned. Only bytes ≥ 0x80 are decoded to scalars, and only where a
/// character class is needed (delimiter flanking, word boundaries), so the Unicode-aware classes
/// of ``NoteChar`` apply exactly as in man/notepress-markup.7.md.
///
/// The scratch arrays keep their capacity from line to line, so a note costs no per-line
/// allocations beyond the runs themselves.
struct NoteInlineScanner {
    let keepMarkers: Bool
    /// Which side of a wiki link's `|` is the target.
    let wikiLinkOrder: WikiLinkSyntax.Order

    /// Token kinds: 1...4 an unescaped delimiter (see ``NoteChar/delimiterKind(byte:)``).
    private static let escape: UInt8 = 5  // a backslash that escapes the next byte (`\ * _ - ~`)
    /// A wiki link (``WikiLinkSyntax``); its extent is the next entry of `wikis`.
    private static let wiki: UInt8 = 6
    /// Token states after matching.
    private static let unmatched: UInt8 = 0
    private static let opens: UInt8 = 1
    private static let closes: UInt8 = 2

    /// An escape or a delimiter: its byte offset in the line, kind and match state.
    private struct Token {
        var position: Int
        var kind: UInt8
        var state: UInt8 = 0
    }

    /// A delimiter that can open: its token index, the stack index of the opener of the same kind
    /// below it that was live when it was pushed (-1 none), its kind, and whether a later match of
    /// its kind made it unusable.
    private struct Opener {
        var token: Int
        var previousOfKind: Int
        var kind: UInt8
        var dead = false
    }

    // Scratch, reused from line to line (capacity kept).
    private var tokens: [Token] = []
    private var stack: [Opener] = []
    private var textBytes: [UInt8] = []

    init(keepMarkers: Bool, wikiLinkOrder: WikiLinkSyntax.Order = .targetFirst) {
        self.keepMarkers = keepMarkers
        self.wikiLinkOrder = wikiLinkOrder
    }

    /// Appends the runs and spans of one line (UTF-8, valid, no line terminator) to `runs`, at
    /// its top level (every span the line opens, it closes). `lineNumber` (in the file) places
    /// wiki links (``Link/position``).
    mutating func scan(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int = 0, columnOffset: Int = 0,
                       into runs: inout InlinesBuilder) {
        let n = line.count
        if n == 0 { return }
        var tokens = self.tokens
        self.tokens = []
        tokens.removeAll(keepingCapacity: true)
        defer { self.tokens = tokens }

        // Wiki links first: their text is literal (no delimiters, escapes or ALL-CAPS inside).
        let wikis = n >= 5 ? WikiLinkSyntax.matches(in: line, order: wikiLinkOrder) : []
        var nextWiki = 0

        // Pass 1a: escapes and delimiters.
        var hasDelimiter = false
        var i = 0
        while i < n {
            if nextWiki < wikis.count, i == wikis[nextWiki].range.lowerBound {
                tokens.append(Token(position: i, kind: Self.wiki))
                i = wikis[nextWiki].range.upperBound
                nextWiki += 1
                continue
            }
            let b = line[i]
            if b == 0x5C {
                if i + 1 < n, line[i + 1] == 0x5C || NoteChar.delimiterKind(byte: line[i + 1]) != 0 {
                    tokens.append(Token(position: i, kind: Self.escape))
                    i += 2  // the escaped byte stays text
                    continue
                }
            } else {
                let k = NoteChar.delimiterKind(byte: b)
                if k != 0 {
                    tokens.append(Token(position: i, kind: k))
                    hasDelimiter = true
                }
            }
            i += 1
        }

        // Pass 1b: delimiter matching.
        if hasDelimiter { match(line, &tokens) }

        nextWiki = 0

        // Pass 2: runs.
        var textBytes = self.textBytes
        self.textBytes = []
        textBytes.removeAll(keepingCapacity: true)
        defer { self.textBytes = textBytes }
        var segmentStart = 0  // start of the line bytes not yet in a run or in `textBytes`

        /// Ends the current text run at byte `end` (exclusive), if it has any text.
        func flush(_ end: Int) {
            if textBytes.isEmpty {
                if segmentStart < end {
                    let text = String(decoding: UnsafeBufferPointer(rebasing: line[segmentStart..<end]), as: UTF8.self)
                    runs.append(.text(text))
                }
            } else {
                textBytes.append(contentsOf: UnsafeBufferPointer(rebasing: line[segmentStart..<end]))
                runs.append(.text(String(decoding: textBytes, as: UTF8.self)))
                textBytes.removeAll(keepingCapacity: true)
            }
            segmentStart = end
        }

        i = 0
        var nextToken = 0
        while true {
            // Text up to the next token: words, for ALL-CAPS. Tokens are never word characters, so
            // no word crosses one, and the character before each word is not a word character.
            let regionEnd = nextToken < tokens.count ? tokens[nextToken].position : n
            while i < regionEnd {
                let b = line[i]
                let end: Int
                var allCaps = false
                if b &- 0x41 < 26 {
                    (end, allCaps) = Self.word(line, from: i)
                } else if (b | 0x20) &- 0x61 < 26 || b &- 0x30 < 10 {
                    end = Self.wordEnd(line, from: i + 1)  // starts lowercase or with a digit
                } else if b < 0x80 {
                    i += 1
                    continue
                } else {
                    let (u, length) = NoteChar.decode(line, at: i)
                    if !NoteChar.isWord(u) {
                        i += length
                        continue
                    }
                    if NoteChar.isLetter(u) && u.properties.isUppercase {
                        (end, allCaps) = Self.word(line, from: i)
                    } else {
                        end = Self.wordEnd(line, from: i + length)
                    }
                }
                // A maximal run of letters, digits and marks is an ALL-CAPS word when it starts
                // with a letter, has two or more letters, all uppercase, and no digit.
                if allCaps {
                    flush(i)
                    let text = String(decoding: UnsafeBufferPointer(rebasing: line[i..<end]), as: UTF8.self)
                    runs.append(.text(text), in: .colorRole(.alert))
                    segmentStart = end
                }
                i = end
            }
            if nextToken == tokens.count { break }
            let token = tokens[nextToken]
            nextToken += 1
            let p = token.position
            if token.kind == Self.wiki {
                let m = wikis[nextWiki]
                nextWiki += 1
                let inner = String(decoding: UnsafeBufferPointer(rebasing: line[m.inner]), as: UTF8.self)
                flush(p)
                if let parts = WikiLinkSyntax.parts(inner, embed: m.isEmbed, order: wikiLinkOrder) {
                    var link = Link(destination: parts.target, syntax: parts.isExternal ? .standard : .wiki,
                                    position: SourcePosition(line: lineNumber, column: columnOffset + p + 1),
                                    isEmbed: parts.isEmbed && !parts.isImage && !parts.isExternal)
                    (link.width, link.height) = (parts.width, parts.height)
                    runs.push(parts.isImage ? .image(link) : .link(link))
                    runs.append(.text(parts.text))
                    runs.pop()
                    segmentStart = m.range.upperBound
                }
                i = m.range.upperBound
                continue
            }
            if token.kind == Self.escape {
                if keepMarkers {
                    flush(p)
                    runs.append(.text("\\"), in: .marker)
                } else {
                    textBytes.append(contentsOf: UnsafeBufferPointer(rebasing: line[segmentStart..<p]))
                }
                segmentStart = p + 1  // the escaped character is literal text
                i = p + 2
                continue
            }
            i = p + 1
            switch token.state {
            case Self.opens:
                flush(p)
                runs.push(NoteChar.spanKind(token.kind))
                if keepMarkers {
                    runs.append(.text(String(Unicode.Scalar(line[p]))), in: .marker)
                }
                segmentStart = p + 1
            case Self.closes:
                flush(p)
                if keepMarkers {
                    runs.append(.text(String(Unicode.Scalar(line[p]))), in: .marker)
                }
                runs.pop()
                segmentStart = p + 1
            default:
                break  // an unmatched delimiter is literal text
            }
        }
        flush(n)
    }

    /// The end (exclusive byte offset) of the maximal run of word characters (letters, digits,
    /// marks; ``NoteChar/isWord(_:)``) that starts at byte `start`, which must be an uppercase
    /// letter, and whether it is an ALL-CAPS word: at least two letters, every letter uppercase,
    /// no digit or other number (marks are allowed: `ÉTÉ` written with combining accents counts).
    /// Stops checking at the first character that rules the word out.
    @inline(__always)
    private static func word(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, allCaps: Bool) {
        let n = line.count
        var e = start
        var letters = 0
        while e < n {
            let b = line[e]
            if b &- 0x41 < 26 {
                letters += 1
                e += 1
            } else if b < 0x80 {
                if (b | 0x20) &- 0x61 < 26 || b &- 0x30 < 10 { return (wordEnd(line, from: e + 1), false) }
                break
            } else {
                let (u, length) = NoteChar.decode(line, at: e)
                guard NoteChar.isWord(u) else { break }
                if NoteChar.isLetter(u) {
                    if !u.properties.isUppercase { return (wordEnd(line, from: e + length), false) }
                    letters += 1
                } else if !NoteChar.isMark(u) {
                    return (wordEnd(line, from: e + length), false)  // a number
                }
                e += length
            }
        }
        return (e, letters >= 2)
    }

    /// The end (exclusive byte offset) of the run of word characters (``NoteChar/isWord(_:)``)
    /// from byte `start` on.
    @inline(__always)
    private static func wordEnd(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let n = line.count
        var e = start
        while e < n {
            let b = line[e]
            if (b | 0x20) &- 0x61 < 26 || b &- 0x30 < 10 {
                e += 1
            } else if b < 0x80 {
                return e
            } else {
                let (u, length) = NoteChar.decode(line, at: e)
                if !NoteChar.isWord(u) { return e }
                e += length
            }
        }
        return e
    }

    /// Pass 1b: decides which delimiters open and close spans (man/notepress-markup.7.md):
    /// a delimiter opens when the character after it is a word character other than a mark and
    /// the one before it is absent, whitespace or opening punctuation; it closes when the
    /// character before it is a word character and the one after it is not. Neighbours are found
    /// by skipping a cluster of delimiters of other, distinct kinds. A closer pairs with the
    /// innermost live opener of its kind; openers above that one stay literal; one kind never
    /// nests, so older openers of the kind can no longer close.
    private mutating func match(_ line: UnsafeBufferPointer<UInt8>, _ tokens: inout [Token]) {
        let n = line.count
        let count = tokens.count
        var stack = self.stack
        self.stack = []
        stack.removeAll(keepingCapacity: true)
        defer { self.stack = stack }
        // The stack index of the innermost live opener of each kind (index kind - 1), -1 none.
        var top = SIMD4<Int>(repeating: -1)
        for d in 0..<count where tokens[d].kind <= 4 {
            let t = tokens[d].position
            let k = tokens[d].kind
            // Left context: skip a cluster of delimiters of other, distinct kinds. Delimiters
            // are one byte each, so adjacent tokens are adjacent bytes.
            var seen: UInt8 = 1 << k
            var j = t - 1
            var e = d - 1
            while e >= 0, tokens[e].position == j, tokens[e].kind <= 4, seen & (1 << tokens[e].kind) == 0 {
                seen |= 1 << tokens[e].kind
                j -= 1
                e -= 1
            }
            let left: Unicode.Scalar? = j >= 0 ? NoteChar.scalar(line, endingAt: j) : nil
            seen = 1 << k
            j = t + 1
            e = d + 1
            while e < count, tokens[e].position == j, tokens[e].kind <= 4, seen & (1 << tokens[e].kind) == 0 {
                seen |= 1 << tokens[e].kind
                j += 1
                e += 1
            }
            let right: Unicode.Scalar? = j < n ? NoteChar.decode(line, at: j).scalar : nil

            let canOpen: Bool
            if let r = right, NoteChar.isWord(r), !NoteChar.isMark(r) {
                if let l = left {
                    canOpen = NoteChar.isWhitespace(l) || NoteChar.isOpeningPunctuation(l)
                } else {
                    canOpen = true
                }
            } else {
                canOpen = false
            }
            let slot = Int(k) - 1
            if canOpen {
                stack.append(Opener(token: d, previousOfKind: top[slot], kind: k))
                top[slot] = stack.count - 1
                continue
            }
            let canClose = left.map(NoteChar.isWord) == true && (right.map(NoteChar.isWord) != true)
            let m = top[slot]
            guard canClose, m >= 0 else { continue }
            // Openers above the match are inside it and unmatched: they become literal.
            while stack.count > m + 1 {
                let o = stack.removeLast()
                if !o.dead { top[Int(o.kind) - 1] = o.previousOfKind }
            }
            let opener = stack.removeLast()
            // The same kind does not nest: older openers of this kind can never close now.
            var older = opener.previousOfKind
            while older >= 0 {
                stack[older].dead = true
                older = stack[older].previousOfKind
            }
            top[slot] = -1
            tokens[opener.token].state = Self.opens
            tokens[d].state = Self.closes
        }
    }
}
