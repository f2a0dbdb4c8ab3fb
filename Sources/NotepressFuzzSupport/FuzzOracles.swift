import Notepress
import NotepressAST

/// Checks of writer outputs that hold for every input (``FuzzHarness``). Each returns a message
/// naming the problem, or `nil`.
///
/// - Without `unsafe`, no live link or image source is dangerous (``URLSafety``): HTML `href` and
///   `src` values (entities decoded), RTF `HYPERLINK` field arguments (RTF escapes and field
///   quoting undone), TEI `@target` and `@url` values (XML references decoded), man `.UR`
///   arguments (roff escapes undone), ANSI OSC 8 URLs. Writers only escape a safe destination
///   (percent-encoding, dropping controls URLSafety skips too), so a decoded value that is
///   dangerous means a dangerous destination went through.
/// - Terminal and man output hold no bidi embedding, override or isolate control
///   (``BidiControl``); terminal output holds no C1 control and no C0 control but line feed and
///   ESC; man output is ASCII.
enum FuzzOracles {
    static func check(_ writer: OutputFormat, _ bytes: [UInt8], unsafe: Bool) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        switch writer {
        case .html, .tei:
            if unsafe { return nil }
            // Attributes are inside tags; text content has no `<` (escaped), so each `<` starts one.
            for tag in text.split(separator: "<").dropFirst() {
                let inside = String(tag.prefix { $0 != ">" })
                for name in [" href=\"", " src=\"", " target=\"", " url=\""] {
                    for value in values(in: inside, after: name, until: "\"") where URLSafety.isDangerous(xmlUnescaped(value)) {
                        return "\(writer): live dangerous\(name)\(value)"
                    }
                }
            }
        case .rtf:
            if unsafe { return nil }
            // Text cannot spell `{\*\fldinst{` (its braces and backslashes are escaped).
            for value in values(in: text, after: "{\\*\\fldinst{HYPERLINK \"", until: nil) {
                let url = rtfFieldArgument(value)
                if URLSafety.isDangerous(url) { return "rtf: live dangerous HYPERLINK \(url.debugDescription)" }
            }
        case .man:
            if let b = bytes.firstIndex(where: { $0 >= 0x80 }) { return "man: non-ASCII byte at \(b)" }
            if !unsafe {
                for line in text.split(separator: "\n") where line.hasPrefix(".UR ") {
                    let url = roffUnescaped(String(line.dropFirst(4)))
                    if URLSafety.isDangerous(url) { return "man: live dangerous .UR \(url.debugDescription)" }
                }
            }
        case .ansi:
            for u in text.unicodeScalars {
                if BidiControl.contains(u) { return "ansi: bidi control U+\(String(u.value, radix: 16))" }
                if (u.value < 0x20 && u != "\n" && u != "\u{1B}") || (u.value >= 0x7F && u.value <= 0x9F) {
                    return "ansi: control character U+\(String(u.value, radix: 16))"
                }
            }
            if !unsafe {
                for value in values(in: text, after: "\u{1B}]8;;", until: "\u{1B}") where URLSafety.isDangerous(value) {
                    return "ansi: live dangerous OSC 8 \(value.debugDescription)"
                }
            }
        case .json, .pdf, .docx, .odt, .epub:
            break  // packages and PDF: ``FuzzPackages``
        }
        return nil
    }

    /// The texts that follow each `start` up to `end` (or to the end of the line when `end` is
    /// `nil`, or to the end of the text).
    static func values(in text: String, after start: String, until end: String?) -> [String] {
        var out: [String] = []
        var rest = text[...]
        while let r = rest.range(of: start) {
            let from = r.upperBound
            let stop = end.flatMap { rest[from...].range(of: $0)?.lowerBound }
                ?? rest[from...].firstIndex(of: "\n") ?? rest.endIndex
            out.append(String(rest[from..<stop]))
            rest = rest[stop...]
        }
        return out
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;` and numeric character references decoded.
    static func xmlUnescaped(_ s: String) -> String {
        guard s.contains("&") else { return s }
        var out = ""
        var rest = s[...]
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";") else { out += rest[amp...]; return out }
            let name = rest[rest.index(after: amp)..<semi]
            switch name {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                let hex = name.hasPrefix("#x") || name.hasPrefix("#X")
                if name.hasPrefix("#"), let v = UInt32(name.dropFirst(hex ? 2 : 1), radix: hex ? 16 : 10), let u = Unicode.Scalar(v) {
                    out.unicodeScalars.append(u)
                } else {
                    out += rest[amp...semi]
                }
            }
            rest = rest[rest.index(after: semi)...]
        }
        return out + rest
    }

    /// The argument of a `HYPERLINK "…"` field instruction as written by the RTF writer (text
    /// after the opening quote): RTF escapes undone (`\\`, `\{`, `\}`, `\tab`, `\uN?`), then the
    /// field quoting (`\\`, `\"`), up to the closing quote.
    static func rtfFieldArgument(_ s: String) -> String {
        var units: [UInt16] = []
        let b = Array(s.utf8)
        var i = 0
        while i < b.count {
            if b[i] == 0x5C, i + 1 < b.count {
                let c = b[i + 1]
                if c == 0x5C || c == 0x7B || c == 0x7D { units.append(UInt16(c)); i += 2; continue }
                if c == 0x75 {  // \uN?
                    var j = i + 2
                    var n = 0, sign = 1
                    if j < b.count && b[j] == 0x2D { sign = -1; j += 1 }
                    while j < b.count, b[j] >= 0x30, b[j] <= 0x39 { n = n * 10 + Int(b[j] - 0x30); j += 1 }
                    units.append(UInt16(truncatingIfNeeded: sign * n))
                    i = j + 1  // the ? replacement character
                    continue
                }
                if b[(i + 1)...].starts(with: Array("tab ".utf8)) { units.append(9); i += 5; continue }
            }
            if b[i] == 0x7D { break }  // the end of the instruction group
            units.append(UInt16(b[i]))
            i += 1
        }
        // Field quoting: `\x` is `x`; an unescaped `"` ends the argument.
        let decoded = Array(String(decoding: units, as: UTF16.self).unicodeScalars)
        var out = String.UnicodeScalarView()
        var k = 0
        while k < decoded.count {
            let u = decoded[k]
            if u == "\\" && k + 1 < decoded.count { out.append(decoded[k + 1]); k += 2; continue }
            if u == "\"" { break }
            out.append(u)
            k += 1
        }
        return String(out)
    }

    /// A roff macro argument with the writer's escapes undone: `\:` and `\&` removed, `\-` → `-`,
    /// `\e` → `\`, `\(dq` → `"`, `\[uXXXX]` → the scalar, `\~` → no-break space; quotes around
    /// the argument removed.
    static func roffUnescaped(_ s: String) -> String {
        var t = s
        if t.hasPrefix("\""), t.hasSuffix("\""), t.count >= 2 { t = String(t.dropFirst().dropLast()) }
        var out = ""
        var rest = t[...]
        while let slash = rest.firstIndex(of: "\\") {
            out += rest[..<slash]
            let after = rest[rest.index(after: slash)...]
            if after.hasPrefix(":") || after.hasPrefix("&") { rest = after.dropFirst(); continue }
            if after.hasPrefix("-") { out += "-"; rest = after.dropFirst(); continue }
            if after.hasPrefix("e") { out += "\\"; rest = after.dropFirst(); continue }
            if after.hasPrefix("~") { out += "\u{A0}"; rest = after.dropFirst(); continue }
            if after.hasPrefix("(dq") { out += "\""; rest = after.dropFirst(3); continue }
            if after.hasPrefix("[u"), let close = after.firstIndex(of: "]"),
               let v = UInt32(after[after.index(after.startIndex, offsetBy: 2)..<close], radix: 16), let u = Unicode.Scalar(v) {
                out.unicodeScalars.append(u)
                rest = after[after.index(after: close)...]
                continue
            }
            out += "\\"
            rest = after
        }
        return out + rest
    }
}
