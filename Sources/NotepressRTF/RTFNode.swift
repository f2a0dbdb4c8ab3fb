/// One node of an RTF document tree (RTF 1.9.1 specification, "RTF Syntax"): the emitter builds
/// a tree of these and ``RTFSerializer`` writes it out. Nothing writes RTF text any other way.
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

/// Serialises an ``RTFNode`` tree to RTF text (7-bit ASCII).
package enum RTFSerializer {
    /// Writes `nodes` in order.
    ///
    /// A control word is followed by a space delimiter whenever the next thing written is text
    /// (the space is consumed by readers as the delimiter, so text spaces are never eaten).
    package static func serialize(_ nodes: [RTFNode]) -> String {
        var out = ""
        var pendingDelimiter = false
        write(nodes, into: &out, pendingDelimiter: &pendingDelimiter)
        return out
    }

    /// Serialises one node.
    package static func serialize(_ node: RTFNode) -> String { serialize([node]) }

    private static func write(_ nodes: [RTFNode], into out: inout String, pendingDelimiter: inout Bool) {
        for node in nodes {
            switch node {
            case .group(let children):
                out += "{"
                pendingDelimiter = false
                write(children, into: &out, pendingDelimiter: &pendingDelimiter)
                out += "}"
                pendingDelimiter = false
            case .word(let name, let parameter):
                out += "\\" + name
                if let parameter { out += String(parameter) }
                pendingDelimiter = true
            case .symbol(let c):
                out += "\\" + String(c)
                pendingDelimiter = false
            case .hex(let b):
                let digits = Array("0123456789abcdef")
                out += "\\'" + String(digits[Int(b >> 4)]) + String(digits[Int(b & 15)])
                pendingDelimiter = false
            case .text(let t):
                let escaped = escapeText(t)
                if escaped.isEmpty { continue }
                if pendingDelimiter { out += " " }
                out += escaped
                // An escaped text may end with a control word (`\tab`); escapeText delimits it.
                pendingDelimiter = false
            case .semicolon:
                out += ";"
                pendingDelimiter = false
            case .newline:
                if pendingDelimiter { out += " " }
                out += "\n"
                pendingDelimiter = false
            }
        }
    }

    /// The one escaping function for RTF text (RTF 1.9.1, "Conventions of an RTF Reader" and
    /// `\uN`): `\`, `{`, `}` become `\\`, `\{`, `\}`; a tab becomes `\tab ` (space-delimited);
    /// C0/C1 control characters and DEL are dropped (line structure is expressed with nodes);
    /// printable ASCII is copied; every other character becomes `\uN?` where N is the UTF-16 code
    /// unit as a signed 16-bit decimal (values above 32767 written as N − 65536), characters above
    /// U+FFFF as their surrogate pair, and `?` the one-byte fallback skipped under `\uc1`.
    package static func escapeText(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let v = scalar.value
            switch v {
            case 0x5C: out += "\\\\"
            case 0x7B: out += "\\{"
            case 0x7D: out += "\\}"
            case 0x09: out += "\\tab "
            case 0x00..<0x20, 0x7F..<0xA0: continue
            case 0x20..<0x7F: out.unicodeScalars.append(scalar)
            default:
                for unit in String(scalar).utf16 {
                    let signed = Int(unit) > 32767 ? Int(unit) - 65536 : Int(unit)
                    out += "\\u" + String(signed) + "?"
                }
            }
        }
        return out
    }
}
