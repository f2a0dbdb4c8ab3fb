/// One node of an RTF document tree (RTF 1.9.1 specification, "RTF Syntax"). The emitter writes
/// its output node by node through ``RTFWriter`` (the same bytes ``RTFSerializer`` writes for the
/// tree of those nodes), building small trees only for rare parts (header, badge, prefixes).
package indirect enum RTFNode: Sendable, Equatable {
    /// A group `{…}`.
    case group([RTFNode])
    /// A control word `\name` or `\nameN` (`parameter` is a signed decimal). The serialiser
    /// guarantees the word is delimited so that following text cannot merge into it.
    case word(String, Int?)
    /// A control symbol `\c`, for example `\*` (ignorable destination) or `\~`.
    case symbol(Character)
    /// A hexadecimal byte `\'hh` (used for list level text lengths and placeholders).
    case hex(UInt8)
    /// User text. Escaped by ``RTFSerializer/escapeText(_:)``, the only path text takes to output.
    case text(String)
    /// The structural `;` that ends font, colour and list-text entries.
    case semicolon
    /// A line break in the file for readability; readers ignore it (RTF 1.9.1, "RTF Syntax":
    /// CR and LF not preceded by a backslash are ignored).
    case newline

    /// A control word without a parameter.
    package static func word(_ name: String) -> RTFNode { .word(name, nil) }
}

/// Serialises an ``RTFNode`` tree to RTF text (7-bit ASCII) with ``RTFWriter``.
package enum RTFSerializer {
    /// Writes `nodes` in order.
    ///
    /// A control word is followed by a space delimiter whenever the next thing written is text
    /// (the space is consumed by readers as the delimiter, so text spaces are never eaten).
    package static func serialize(_ nodes: [RTFNode]) -> String {
        String(decoding: serializeBytes(nodes), as: UTF8.self)
    }

    /// ``serialize(_:)`` as UTF-8 bytes (the output is ASCII), written into one byte buffer.
    package static func serializeBytes(_ nodes: [RTFNode]) -> [UInt8] {
        var writer = RTFWriter()
        writer.write(nodes)
        return writer.bytes
    }

    /// Serialises one node.
    package static func serialize(_ node: RTFNode) -> String { serialize([node]) }

    /// The one escaping function for RTF text (RTF 1.9.1, "Conventions of an RTF Reader" and
    /// `\uN`): `\`, `{`, `}` become `\\`, `\{`, `\}`; a tab becomes `\tab ` (space-delimited);
    /// C0/C1 control characters and DEL are dropped (line structure is expressed with nodes);
    /// printable ASCII is copied; every other character becomes `\uN?` where N is the UTF-16 code
    /// unit as a signed 16-bit decimal (values above 32767 written as N − 65536), characters above
    /// U+FFFF as their surrogate pair, and `?` the one-byte fallback skipped under `\uc1`.
    package static func escapeText(_ text: String) -> String {
        var out: [UInt8] = []
        appendEscapedText(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// ``escapeText(_:)`` appended to bytes: runs of printable ASCII are copied as they are;
    /// other scalars are decoded from the (valid) UTF-8 and written by the rules above.
    package static func appendEscapedText(_ text: String, to out: inout [UInt8]) {
        func unit(_ u: UInt32) {
            let signed = u > 32767 ? Int(u) - 65536 : Int(u)
            out.append(0x5C); out.append(UInt8(ascii: "u"))
            out.append(contentsOf: String(signed).utf8)
            out.append(UInt8(ascii: "?"))
        }
        var text = text
        text.withUTF8 { b in
            let n = b.count
            var i = 0
            var start = 0
            while i < n {
                let c = b[i]
                if c >= 0x20 && c < 0x7F && c != 0x5C && c != 0x7B && c != 0x7D { i += 1; continue }
                if start < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: b[start..<i])) }
                if c < 0x80 {
                    switch c {
                    case 0x5C: out.append(0x5C); out.append(0x5C)
                    case 0x7B: out.append(0x5C); out.append(0x7B)
                    case 0x7D: out.append(0x5C); out.append(0x7D)
                    case 0x09: out.append(contentsOf: "\\tab ".utf8)
                    default: break  // C0 controls and DEL
                    }
                    i += 1
                } else {
                    var v: UInt32
                    let length: Int
                    if c < 0xE0 { v = UInt32(c & 0x1F); length = 2 } else if c < 0xF0 { v = UInt32(c & 0x0F); length = 3 } else { v = UInt32(c & 0x07); length = 4 }
                    for k in 1..<length { v = v << 6 | UInt32(b[i + k] & 0x3F) }
                    i += length
                    if v >= 0x10000 {
                        unit(0xD800 + ((v - 0x10000) >> 10)); unit(0xDC00 + ((v - 0x10000) & 0x3FF))
                    } else if v >= 0xA0 {
                        unit(v)
                    }  // C1 controls (U+0080–U+009F) are dropped
                }
                start = i
            }
            if start < n { out.append(contentsOf: UnsafeBufferPointer(rebasing: b[start..<n])) }
        }
    }
}
