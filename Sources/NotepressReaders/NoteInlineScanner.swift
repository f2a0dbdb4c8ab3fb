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

    /// The span kind of a delimiter character: 1 `*`, 2 `_`, 3 `-`, 4 `~`; 0 for anything else.
    @inline(__always)
    static func delimiterKind(_ u: Unicode.Scalar) -> UInt8 {
        switch u.value {
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

/// Scans one line of note markup into runs.
///
/// Linear time: one pass tokenises escapes and matches delimiters with a stack (each opener is
/// pushed and popped at most once; a closer finds its opener through a per-kind index), one pass
/// writes the runs. Nothing is ever rescanned.
struct NoteInlineScanner {
    let keepMarkers: Bool
    /// The next span id; ids count up from 1 across a whole note.
    var nextID = 1

    // Token roles.
    private static let text: UInt8 = 0
    private static let escape: UInt8 = 5  // a backslash that escapes the next character
    // 1...4: an unescaped delimiter (see NoteChar.delimiterKind)

    private struct Opener {
        var token: Int
        var kind: UInt8
        var dead = false
    }

    init(keepMarkers: Bool) { self.keepMarkers = keepMarkers }

    mutating func newID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    /// Appends the runs of one line (no line terminator) to `runs`.
    mutating func scan(_ chars: ArraySlice<Unicode.Scalar>, into runs: inout [InlineRun]) {
        let chars = Array(chars)
        let n = chars.count
        if n == 0 { return }

        // Pass 1a: roles (escapes).
        var role = [UInt8](repeating: 0, count: n)
        var i = 0
        while i < n {
            let c = chars[i]
            if c == "\\", i + 1 < n, chars[i + 1] == "\\" || NoteChar.delimiterKind(chars[i + 1]) != 0 {
                role[i] = Self.escape
                i += 2  // the escaped character stays text
                continue
            }
            role[i] = NoteChar.delimiterKind(c)
            i += 1
        }

        // Pass 1b: delimiter matching with a stack.
        // closerOf[opener token] = closer token + 1 (0 = unmatched); isCloser marks matched closers.
        var closerOf = [Int32](repeating: 0, count: 0)
        var isCloser = [Bool]()
        var stack: [Opener] = []
        var perKind: [[Int]] = [[], [], [], [], []]  // live stack indices per kind, bottom to top
        var hasDelimiter = false
        for t in 0..<n where role[t] >= 1 && role[t] <= 4 {
            if !hasDelimiter {
                hasDelimiter = true
                closerOf = [Int32](repeating: 0, count: n)
                isCloser = [Bool](repeating: false, count: n)
            }
            let k = role[t]
            // Left context: skip a cluster of delimiters of other, distinct kinds.
            var seen: UInt8 = 1 << k
            var j = t - 1
            while j >= 0, role[j] >= 1, role[j] <= 4, seen & (1 << role[j]) == 0 {
                seen |= 1 << role[j]
                j -= 1
            }
            let left: Unicode.Scalar? = j >= 0 ? chars[j] : nil
            seen = 1 << k
            j = t + 1
            while j < n, role[j] >= 1, role[j] <= 4, seen & (1 << role[j]) == 0 {
                seen |= 1 << role[j]
                j += 1
            }
            let right: Unicode.Scalar? = j < n ? chars[j] : nil

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
            if canOpen {
                perKind[Int(k)].append(stack.count)
                stack.append(Opener(token: t, kind: k))
                continue
            }
            let canClose = left.map(NoteChar.isWord) == true && (right.map(NoteChar.isWord) != true)
            guard canClose, let m = perKind[Int(k)].last else { continue }
            // Openers above the match are inside it and unmatched: they become literal.
            while stack.count > m + 1 {
                let e = stack.removeLast()
                if !e.dead { perKind[Int(e.kind)].removeLast() }
            }
            let opener = stack.removeLast()
            perKind[Int(k)].removeLast()
            // The same kind does not nest: older openers of this kind can never close now.
            for idx in perKind[Int(k)] { stack[idx].dead = true }
            perKind[Int(k)].removeAll(keepingCapacity: true)
            closerOf[opener.token] = Int32(t + 1)
            isCloser[t] = true
        }

        // Pass 2: runs.
        var spans: [InlineSpan] = []
        var buffer = NoteTextBuffer()
        func flush() {
            if !buffer.bytes.isEmpty {
                runs.append(InlineRun(.text(buffer.take()), spans: spans))
            }
        }
        var t = 0
        var previousIsWord = false
        while t < n {
            let c = chars[t]
            let r = role[t]
            if r == Self.escape {
                if keepMarkers {
                    flush()
                    runs.append(InlineRun(.text("\\"), spans: spans + [InlineSpan(id: newID(), kind: .marker)]))
                }
                // The escaped character is literal text.
                buffer.append(chars[t + 1])
                previousIsWord = false
                t += 2
                continue
            }
            if r != Self.text && hasDelimiter {
                if closerOf[t] != 0 {
                    flush()
                    spans.append(InlineSpan(id: newID(), kind: NoteChar.spanKind(r)))
                    if keepMarkers {
                        runs.append(InlineRun(.text(String(c)), spans: spans + [InlineSpan(id: newID(), kind: .marker)]))
                    }
                    previousIsWord = false
                    t += 1
                    continue
                }
                if isCloser[t] {
                    flush()
                    if keepMarkers {
                        runs.append(InlineRun(.text(String(c)), spans: spans + [InlineSpan(id: newID(), kind: .marker)]))
                    }
                    spans.removeLast()
                    previousIsWord = false
                    t += 1
                    continue
                }
            }
            // ALL-CAPS words: a maximal run of letters, digits and marks starting here.
            if !previousIsWord && NoteChar.isLetter(c) && role[t] == Self.text {
                var e = t
                var letters = 0
                var allUpper = true
                while e < n, role[e] == Self.text, NoteChar.isWord(chars[e]) {
                    let w = chars[e]
                    if NoteChar.isLetter(w) {
                        letters += 1
                        if allUpper && !w.properties.isUppercase { allUpper = false }
                    } else if !NoteChar.isMark(w) {
                        allUpper = false  // a digit
                    }
                    e += 1
                }
                // A word followed directly by an escaped or delimiter letter cannot happen: those
                // are never letters. Marks after the word stay in it.
                if allUpper && letters >= 2 {
                    flush()
                    spans.append(InlineSpan(id: newID(), kind: .colorRole(.alert)))
                    for w in t..<e { buffer.append(chars[w]) }
                    flush()
                    spans.removeLast()
                } else {
                    for w in t..<e { buffer.append(chars[w]) }
                }
                previousIsWord = true
                t = e
                continue
            }
            buffer.append(c)
            previousIsWord = NoteChar.isWord(c)
            t += 1
        }
        flush()
    }
}

/// UTF-8 bytes of a run being built; much cheaper per scalar than `String.UnicodeScalarView`.
struct NoteTextBuffer {
    var bytes: [UInt8] = []

    @inline(__always)
    mutating func append(_ u: Unicode.Scalar) {
        let v = u.value
        if v < 0x80 {
            bytes.append(UInt8(v))
        } else {
            bytes.append(contentsOf: UTF8.encode(u)!)
        }
    }

    mutating func take() -> String {
        defer { bytes.removeAll(keepingCapacity: true) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
