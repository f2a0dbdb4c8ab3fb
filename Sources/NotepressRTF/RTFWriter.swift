/// Writes RTF text (7-bit ASCII) straight into one byte buffer, node by node, in the order the
/// nodes of an ``RTFNode`` tree would be serialised: the builder streams its output through one
/// of these instead of building a tree (issue 19), and ``RTFSerializer`` writes trees with it.
///
/// Delimiting (RTF 1.9.1, "RTF Syntax"): a control word is followed by a space whenever the
/// next thing written is text or a newline, so that text never merges into the word and text
/// spaces are never eaten as delimiters. Text reaches the bytes only through
/// ``RTFSerializer/appendEscapedText(_:to:)``.
struct RTFWriter {
    /// The RTF written so far.
    var bytes: [UInt8] = []
    /// Whether the last thing written is a control word that text must be delimited from.
    var pendingDelimiter = false
    /// The number of groups open.
    private(set) var depth = 0
    /// Where `\sa0` words were written (byte offset of the `\`, group depth), oldest first;
    /// those inside groups since closed are dropped. A tight list gives its last paragraph at its
    /// own depth the space after the list (``RTFBuilder/writeList(_:_:)``).
    private(set) var zeroSpaceAfter: [(offset: Int, depth: Int)] = []
    /// The byte count right after the last `\par` written by ``par()``.
    private(set) var parEnd = -1

    /// `{`.
    mutating func open() {
        bytes.append(UInt8(ascii: "{"))
        pendingDelimiter = false
        depth += 1
    }

    /// `}`.
    mutating func close() {
        bytes.append(UInt8(ascii: "}"))
        pendingDelimiter = false
        depth -= 1
        while let last = zeroSpaceAfter.last, last.depth > depth { zeroSpaceAfter.removeLast() }
    }

    /// A control word without a parameter, `\name`.
    @inline(__always)
    mutating func word(_ name: StaticString) {
        bytes.append(0x5C)
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        pendingDelimiter = true
    }

    /// A control word with a parameter, `\nameN` (N signed decimal).
    @inline(__always)
    mutating func word(_ name: StaticString, _ parameter: Int) {
        bytes.append(0x5C)
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        number(parameter)
        pendingDelimiter = true
    }

    /// Control words without text between them written as one literal, for example
    /// `\pard\plain`: `words` starts with `\` and ends with a control word (which needs a
    /// delimiter before text, as after ``word(_:)``).
    @inline(__always)
    mutating func words(_ words: StaticString) {
        words.withUTF8Buffer { bytes.append(contentsOf: $0) }
        pendingDelimiter = true
    }

    /// ``words(_:)`` from bytes (control words written earlier with another writer).
    mutating func words(_ words: [UInt8]) {
        bytes.append(contentsOf: words)
        pendingDelimiter = true
    }

    /// A control word named at run time, with an optional parameter. (Its own label: a literal
    /// name takes the `StaticString` overloads above, which copy no string.)
    mutating func word(named name: String, _ parameter: Int?) {
        bytes.append(0x5C)
        bytes.append(contentsOf: name.utf8)
        if let parameter { number(parameter) }
        pendingDelimiter = true
    }

    /// `\saN`, remembering where a `\sa0` is (see ``zeroSpaceAfter``).
    mutating func spaceAfter(_ twips: Int) {
        if twips == 0 { zeroSpaceAfter.append((bytes.count, depth)) }
        word("sa", twips)
    }

    /// Forgets the `\sa0` words written so far (when no list is open, none can change any more).
    mutating func forgetZeroSpaceAfter() { zeroSpaceAfter.removeAll(keepingCapacity: true) }

    /// Sets the last `\sa0` written at the current depth at or after byte `start` to `\saN`
    /// (`twips`), as if that node had been written with `twips`. Nothing when there is none.
    mutating func setLastZeroSpaceAfter(since start: Int, to twips: Int) {
        guard let last = zeroSpaceAfter.last, last.depth == depth, last.offset >= start, twips != 0 else { return }
        zeroSpaceAfter.removeLast()
        var digits = RTFWriter()
        digits.number(twips)
        // `\sa0` → `\saN`: the `0` is the byte after `\sa`.
        bytes.replaceSubrange(last.offset + 3 ..< last.offset + 4, with: digits.bytes)
        if parEnd > last.offset { parEnd += digits.bytes.count - 1 }
    }

    /// `\par`, remembering where it ends (``removeTrailingPar(since:)``).
    mutating func par() {
        word("par")
        parEnd = bytes.count
    }

    /// Removes a `\par` that is the last thing written, when it was written at or after byte
    /// `start` (a footnote's last paragraph ends with the group instead).
    mutating func removeTrailingPar(since start: Int) {
        guard parEnd == bytes.count, parEnd - 4 >= start else { return }
        bytes.removeLast(4)
        parEnd = -1
    }

    /// A control symbol `\c`.
    mutating func symbol(_ c: Character) {
        bytes.append(0x5C)
        bytes.append(contentsOf: String(c).utf8)
        pendingDelimiter = false
    }

    /// A hexadecimal byte `\'hh`.
    mutating func hex(_ b: UInt8) {
        let digits: StaticString = "0123456789abcdef"
        bytes.append(0x5C); bytes.append(UInt8(ascii: "'"))
        digits.withUTF8Buffer { d in bytes.append(d[Int(b >> 4)]); bytes.append(d[Int(b & 15)]) }
        pendingDelimiter = false
    }

    /// Binary data as hexadecimal digits (a picture's bytes), 128 to a line.
    mutating func hexData(_ data: [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        bytes.reserveCapacity(bytes.count + data.count * 2 + data.count / 64 + 1)
        digits.withUTF8Buffer { d in
            for (k, b) in data.enumerated() {
                if k > 0 && k % 64 == 0 { bytes.append(0x0A) }
                bytes.append(d[Int(b >> 4)]); bytes.append(d[Int(b & 15)])
            }
        }
        pendingDelimiter = false
    }

    /// User text, escaped; an empty result writes nothing (not even a delimiter).
    mutating func text(_ t: String) {
        let mark = bytes.count
        if pendingDelimiter { bytes.append(0x20) }
        let start = bytes.count
        RTFSerializer.appendEscapedText(t, to: &bytes)
        if bytes.count == start {
            bytes.removeSubrange(mark..<start)
            return
        }
        // An escaped text may end with a control word (`\tab`); escapeText delimits it.
        pendingDelimiter = false
    }

    /// The structural `;`.
    mutating func semicolon() {
        bytes.append(UInt8(ascii: ";"))
        pendingDelimiter = false
    }

    /// A line break for readability (ignored by readers).
    mutating func newline() {
        if pendingDelimiter { bytes.append(0x20) }
        bytes.append(0x0A)
        pendingDelimiter = false
    }

    /// A signed decimal, as `String(n)` writes it.
    mutating func number(_ n: Int) {
        if n < 0 { bytes.append(UInt8(ascii: "-")) }
        var m = n.magnitude
        // Most parameters (sizes, indents, colour and font indices) have four digits or fewer.
        if m < 10 { bytes.append(0x30 + UInt8(m)); return }
        if m < 100 {
            bytes.append(0x30 + UInt8(m / 10)); bytes.append(0x30 + UInt8(m % 10))
            return
        }
        if m < 1000 {
            bytes.append(0x30 + UInt8(m / 100)); bytes.append(0x30 + UInt8(m / 10 % 10)); bytes.append(0x30 + UInt8(m % 10))
            return
        }
        if m < 10000 {
            bytes.append(0x30 + UInt8(m / 1000)); bytes.append(0x30 + UInt8(m / 100 % 10))
            bytes.append(0x30 + UInt8(m / 10 % 10)); bytes.append(0x30 + UInt8(m % 10))
            return
        }
        var tmp: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                  UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &tmp) { buf in
            while m > 0 {
                buf[19 - count] = 0x30 + UInt8(m % 10)
                m /= 10
                count += 1
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buf[(20 - count)...]))
        }
    }

    /// One node (and, for a group, its children).
    mutating func write(_ node: RTFNode) {
        switch node {
        case .group(let children):
            open()
            write(children)
            close()
        case .word(let name, let parameter):
            if name == "sa", parameter == 0 { zeroSpaceAfter.append((bytes.count, depth)) }
            word(named: name, parameter)
        case .symbol(let c): symbol(c)
        case .hex(let b): hex(b)
        case .text(let t): text(t)
        case .semicolon: semicolon()
        case .newline: newline()
        }
    }

    /// Nodes in order.
    mutating func write(_ nodes: [RTFNode]) {
        for node in nodes { write(node) }
    }
}
