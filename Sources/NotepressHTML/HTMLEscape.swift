/// The HTML escaping functions. Every piece of user text reaches HTML output through exactly one
/// of these, chosen by context.
package enum HTMLEscape {
    /// Text content and attribute values: `&`, `<`, `>`, `"` become `&amp;`, `&lt;`, `&gt;`,
    /// `&quot;` (the set libcmark-gfm's `houdini_escape_html0` escapes in non-secure mode, so our
    /// output matches cmark's byte for byte), and control characters that HTML forbids (C0 other
    /// than tab, line feed, form feed and carriage return; DEL; C1) become U+FFFD (HTML Living
    /// Standard §13.2.5, "control-character-in-input-stream"), where cmark would copy them.
    package static func text(_ s: String) -> String {
        var s = s
        let needs = s.withUTF8 { buf in
            buf.contains { b in
                (b == 0x26 || b == 0x3C || b == 0x3E || b == 0x22 || b == 0x7F || b == 0xC2 || b < 0x20)
                    && !(b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D)
            }
        }
        if !needs { return s }
        var out = [UInt8]()
        out.reserveCapacity(s.utf8.count + 16)
        appendText(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// ``text(_:)`` appended to a UTF-8 buffer: runs without special bytes are copied whole.
    package static func appendText(_ s: String, to out: inout [UInt8]) {
        var s = s
        s.withUTF8 { buf in
            let n = buf.count
            var start = 0
            var i = 0
            while i < n {
                let b = buf[i]
                // Letters, most punctuation and UTF-8 bytes other than C1's lead byte pass at once.
                if b > 0x3E && b != 0x7F && b != 0xC2 { i += 1; continue }
                let replacement: StaticString
                switch b {
                case 0x26: replacement = "&amp;"
                case 0x3C: replacement = "&lt;"
                case 0x3E: replacement = "&gt;"
                case 0x22: replacement = "&quot;"
                case 0x09, 0x0A, 0x0C, 0x0D: i += 1; continue
                case 0x00..<0x20, 0x7F: replacement = "\u{FFFD}"
                case 0xC2 where i + 1 < n && buf[i + 1] >= 0x80 && buf[i + 1] <= 0x9F:
                    // A C1 control (U+0080–U+009F): two bytes replaced.
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[start..<i]))
                    out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                    i += 2
                    start = i
                    continue
                default: i += 1; continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[start..<i]))
                replacement.withUTF8Buffer { out.append(contentsOf: $0) }
                i += 1
                start = i
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[start..<n]))
        }
    }

    /// Attribute values (double-quoted). Same set as ``text(_:)``.
    package static func attribute(_ s: String) -> String { text(s) }

    /// ``attribute(_:)`` appended to a UTF-8 buffer.
    package static func appendAttribute(_ s: String, to out: inout [UInt8]) { appendText(s, to: &out) }

    /// A URL in `href`/`src`: bytes outside cmark's HREF_SAFE set are percent-encoded, `&` becomes
    /// `&amp;` and `'` becomes `&#x27;` (libcmark-gfm `houdini_escape_href`).
    package static func url(_ s: String) -> String {
        let safe = hrefSafe
        var s = s
        let allSafe = s.withUTF8 { buf in safe.withUnsafeBufferPointer { safe in buf.allSatisfy { $0 < 128 && safe[Int($0)] } } }
        if allSafe { return s }
        var out = [UInt8]()
        out.reserveCapacity(s.utf8.count + 16)
        appendURL(s, to: &out, safe: safe)
        return String(decoding: out, as: UTF8.self)
    }

    /// ``url(_:)`` appended to a UTF-8 buffer.
    package static func appendURL(_ s: String, to out: inout [UInt8]) {
        appendURL(s, to: &out, safe: hrefSafe)
    }

    /// Runs of safe bytes are copied whole; each other byte is replaced as ``url(_:)`` says.
    private static func appendURL(_ s: String, to out: inout [UInt8], safe: [Bool]) {
        let hex: StaticString = "0123456789ABCDEF"
        var s = s
        s.withUTF8 { buf in
            hex.withUTF8Buffer { hex in
                safe.withUnsafeBufferPointer { safe in
                    let n = buf.count
                    var start = 0
                    for i in 0..<n {
                        let b = buf[i]
                        if b < 128 && safe[Int(b)] { continue }
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[start..<i]))
                        start = i + 1
                        if b == 0x26 {
                            out.append(contentsOf: [0x26, 0x61, 0x6D, 0x70, 0x3B])  // &amp;
                        } else if b == 0x27 {
                            out.append(contentsOf: [0x26, 0x23, 0x78, 0x32, 0x37, 0x3B])  // &#x27;
                        } else {
                            out.append(0x25); out.append(hex[Int(b >> 4)]); out.append(hex[Int(b & 15)])
                        }
                    }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[start..<n]))
                }
            }
        }
    }

    /// `-_.+!*(),%#@?=;:/,+$~` and alphanumerics pass unescaped.
    private static let hrefSafe: [Bool] = {
        var t = [Bool](repeating: false, count: 128)
        for c in "-_.+!*(),%#@?=;:/,+$~".utf8 { t[Int(c)] = true }
        for c in UInt8(ascii: "a")...UInt8(ascii: "z") { t[Int(c)] = true }
        for c in UInt8(ascii: "A")...UInt8(ascii: "Z") { t[Int(c)] = true }
        for c in UInt8(ascii: "0")...UInt8(ascii: "9") { t[Int(c)] = true }
        return t
    }()

    /// GFM tagfilter (GFM spec §6.11): whether raw HTML starting at `bytes[i]` opens or closes one
    /// of the disallowed tags (`title textarea style xmp iframe noembed noframes script plaintext`).
    static func isFilteredTag(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count >= 3, bytes.first == 0x3C else { return false }
        for name in filteredTags {
            var i = bytes.startIndex + 1
            if bytes[i] == 0x2F { i += 1 }
            var ok = true
            for c in name {
                guard i < bytes.endIndex else { ok = false; break }
                var b = bytes[i]
                if b >= 0x41 && b <= 0x5A { b += 32 }
                if b != c { ok = false; break }
                i += 1
            }
            guard ok, i < bytes.endIndex else { continue }
            let b = bytes[i]
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C || b == 0x0B || b == 0x3E { return true }
            if b == 0x2F, i + 1 < bytes.endIndex, bytes[i + 1] == 0x3E { return true }
        }
        return false
    }

    private static let filteredTags: [[UInt8]] = ["title", "textarea", "style", "xmp", "iframe", "noembed",
                                                   "noframes", "script", "plaintext"].map { Array($0.utf8) }

    /// Raw HTML with GFM's tagfilter applied: the `<` of each disallowed tag becomes `&lt;`.
    package static func tagfiltered(_ html: String) -> String {
        let bytes = Array(html.utf8)
        guard bytes.contains(0x3C) else { return html }
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x3C && isFilteredTag(bytes[i...]) {
                out.append(contentsOf: Array("&lt;".utf8))
            } else {
                out.append(bytes[i])
            }
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
