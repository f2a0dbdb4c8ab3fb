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
/// - the image exception holds only for a destination that starts with the allowed prefix as
///   written (nothing skipped inside it after the leading run), as cmark-gfm tests it;
/// - ASCII letters are lowercased; no other folding (a browser takes no non-ASCII letter in a
///   scheme, so `ｊavascript:` is a relative reference).
/// Character references and backslash escapes are already decoded by the readers (`&#x6A;` is
/// `j`); percent-encoding is not decoded (`%6Aavascript:` has no valid scheme either).
///
/// This is stricter than cmark-gfm, which tests the raw prefix: for destinations that start with
/// whitespace or hold a tab or newline before the colon, `--fragment` HTML writes `href=""` where
/// cmark-gfm writes an (inert) percent-encoded one.
package enum URLSafety {
    /// Whether `url` is a destination that safe output never makes live (see the type's rules).
    package static func isDangerous(_ url: String) -> Bool {
        // Shortcut, same rule: a first byte of printable ASCII (U+0021–U+007E) is neither skipped
        // nor leading whitespace, so it is the normalised prefix's first letter; every dangerous
        // prefix starts with j, v, f or d (either case), so any other first byte is safe.
        if let first = url.utf8.first, first > 0x20, first < 0x7F {
            let lower = first | 0x20
            if lower != 0x6A && lower != 0x76 && lower != 0x66 && lower != 0x64 { return false }  // j v f d
        }
        // The longest prefix compared is "data:image/jpeg" (15 bytes).
        // `prefix`: normalised (ignorables and controls inside skipped), for the dangerous schemes;
        // `exact`: nothing skipped after the leading run, for the image exception — a `data:` URL
        // is an allowed image only when written exactly so (`data:image/pn\u{202D}g` is not one,
        // as cmark-gfm's raw test says, although its normalised prefix reads `data:image/png`).
        var prefix: [UInt8] = [], exact: [UInt8] = []
        prefix.reserveCapacity(16)
        exact.reserveCapacity(16)
        var leading = true, exactOpen = true
        for u in url.unicodeScalars {
            let v = u.value
            if leading && (v <= 0x20 || (v >= 0x7F && (v <= 0x9F || u.properties.isWhitespace || u.properties.isDefaultIgnorableCodePoint))) {
                continue
            }
            leading = false
            let ascii = v < 0x80 ? UInt8(v) : nil
            if exactOpen {
                if let b = ascii, b >= 0x20, b != 0x7F, exact.count < 16 { exact.append(b >= 0x41 && b <= 0x5A ? b + 32 : b) } else { exactOpen = false }
            }
            if v < 0x20 || (v >= 0x7F && v <= 0x9F) || (v >= 0x80 && u.properties.isDefaultIgnorableCodePoint) { continue }
            guard let b = ascii else { break }  // no prefix compared has a non-ASCII scalar
            prefix.append(b >= 0x41 && b <= 0x5A ? b + 32 : b)
            if prefix.count == 16 { break }
        }
        func has(_ p: StaticString, in bytes: [UInt8]) -> Bool {
            p.withUTF8Buffer { p in p.count <= bytes.count && zip(p, bytes).allSatisfy { $0 == $1 } }
        }
        for image: StaticString in ["data:image/png", "data:image/gif", "data:image/jpeg", "data:image/webp"]
        where has(image, in: exact) {
            return false
        }
        return has("javascript:", in: prefix) || has("vbscript:", in: prefix) || has("file:", in: prefix) || has("data:", in: prefix)
    }

    /// The destination a writer may make live: `url` itself with `unsafe` (`--unsafe`) or when it
    /// is not dangerous, else the empty string, which every writer treats as "no destination"
    /// (HTML `href=""` as cmark-gfm writes; elsewhere the text alone).
    package static func destination(_ url: String, unsafe: Bool) -> String {
        unsafe || !isDangerous(url) ? url : ""
    }
}
