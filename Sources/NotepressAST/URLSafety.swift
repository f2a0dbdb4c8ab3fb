/// The one rule for which link and image destinations an output may make live (an HTML `href` or
/// `src`, an RTF `HYPERLINK` field, a TEI `@target` or `graphic/@url`, a man page's `.UR`, an OSC 8
/// terminal link, a URL printed after link text). Every writer asks it; without `--unsafe` a
/// dangerous destination is dropped and only the link text (or image description) is written.
///
/// Dangerous (libcmark-gfm's `_scan_dangerous_url`, `src/scanners.re`): a destination that starts
/// with `javascript:`, `vbscript:`, `file:` or `data:`, ASCII case-insensitively, except
/// `data:image/png`, `data:image/gif`, `data:image/jpeg` and `data:image/webp`.
///
/// Before the comparison the destination is normalised the way a URL consumer would read it, so
/// that what a browser, word processor or terminal runs cannot slip past the prefix test
/// (WHATWG URL Standard, "basic URL parser": leading and trailing C0 control or space are
/// stripped, every ASCII tab or newline is removed, the scheme is ASCII case-insensitive):
/// - leading scalars up to U+0020, DEL and C1 controls, other Unicode White_Space and
///   default-ignorable scalars (U+00AD, U+200B, U+FEFF …) are skipped;
/// - tab, line feed, carriage return and default-ignorable scalars inside the prefix are skipped
///   (`java\tscript:` is `javascript:`), and so are all other C0 and C1 controls and DEL, which
///   the RTF and roff escapers drop (`java\u{1}script:` would come out as `javascript:`);
/// - ASCII letters are lowercased; no other folding (a browser takes no non-ASCII letter in a
///   scheme, so `ｊavascript:` is a relative reference).
/// Character references and backslash escapes are already decoded by the readers (`&#x6A;` is
/// `j`); percent-encoding is not decoded (`%6Aavascript:` has no valid scheme either).
///
/// This is stricter than cmark-gfm, which tests the raw prefix: for destinations that start with
/// whitespace or hold a tab or newline before the colon, `--fragment` HTML writes `href=""` where
/// cmark-gfm writes an (inert) percent-encoded one.
public enum URLSafety {
    /// Whether `url` is a destination that safe output never makes live (see the type's rules).
    public static func isDangerous(_ url: String) -> Bool {
        // The longest prefix compared is "data:image/jpeg" (15 bytes).
        var prefix: [UInt8] = []
        prefix.reserveCapacity(16)
        var leading = true
        for u in url.unicodeScalars {
            let v = u.value
            if leading && (v <= 0x20 || (v >= 0x7F && (v <= 0x9F || u.properties.isWhitespace || u.properties.isDefaultIgnorableCodePoint))) {
                continue
            }
            leading = false
            if v < 0x20 || (v >= 0x7F && v <= 0x9F) || (v >= 0x80 && u.properties.isDefaultIgnorableCodePoint) { continue }
            if v >= 0x80 { break }  // no prefix compared has a non-ASCII scalar
            let b = UInt8(v)
            prefix.append(b >= 0x41 && b <= 0x5A ? b + 32 : b)
            if prefix.count == 16 { break }
        }
        func has(_ p: StaticString) -> Bool {
            p.withUTF8Buffer { p in p.count <= prefix.count && zip(p, prefix).allSatisfy { $0 == $1 } }
        }
        if has("data:image/png") || has("data:image/gif") || has("data:image/jpeg") || has("data:image/webp") {
            return false
        }
        return has("javascript:") || has("vbscript:") || has("file:") || has("data:")
    }

    /// The destination a writer may make live: `url` itself with `unsafe` (`--unsafe`) or when it
    /// is not dangerous, else the empty string, which every writer treats as "no destination"
    /// (HTML `href=""` as cmark-gfm writes; elsewhere the text alone).
    public static func destination(_ url: String, unsafe: Bool) -> String {
        unsafe || !isDangerous(url) ? url : ""
    }
}
