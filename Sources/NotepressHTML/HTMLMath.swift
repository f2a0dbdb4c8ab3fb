import Foundation
import NotepressAST

/// Math in HTML pages: ``HTMLEmitter`` writes each math span as its TeX source in
/// `<span class="math math-inline">` (or `math-display`), and the page draws it offline with
/// KaTeX from Debian's `libjs-katex`, read from the system at build time (never shipped with
/// Notepress): a site copies KaTeX's script, stylesheet and fonts to `_notepress/katex/` and its
/// pages link them by relative paths (``SiteAssets`` in NotepressSite); a single page carries the
/// script and stylesheet in itself (its fonts then fall back to the system's: no file beside it).
/// Either way a page opened from `file://` draws its formulas with no request to a server.
/// Without `libjs-katex` the TeX source stays visible, as written.
package enum HTMLMath {
    /// Where KaTeX is read from; `NOTEPRESS_KATEX` names another folder (with `katex.min.js`,
    /// `katex.min.css` and `fonts/`).
    package static var folder: String {
        ProcessInfo.processInfo.environment["NOTEPRESS_KATEX"] ?? "/usr/share/javascript/katex"
    }
    /// The site's copy, below the HTML root.
    package static let siteFolder = "_notepress/katex"
    /// The site's render script (`Templates/html/math.js`).
    package static let renderPath = "_notepress/math.js"

    /// KaTeX's script, or `nil` when it is not installed.
    package static let script: String? = read("katex.min.js")
    /// ``script`` as a page carries it in a `<script>` element: Unicode noncharacters (KaTeX
    /// 0.16 has a literal U+FFFF in a string), which HTML forbids in text, written as JavaScript
    /// escapes (`\uFFFF`, the same string).
    package static let inlineScript: String? = script.map { js in
        var out = ""
        out.unicodeScalars.reserveCapacity(js.unicodeScalars.count)
        for u in js.unicodeScalars {
            let v = u.value
            if (0xFDD0...0xFDEF).contains(v) || (v & 0xFFFE) == 0xFFFE {
                if v > 0xFFFF {
                    // Outside the BMP: the surrogate pair.
                    let w = v - 0x10000
                    out += "\\u" + hex4(0xD800 + (w >> 10)) + "\\u" + hex4(0xDC00 + (w & 0x3FF))
                } else {
                    out += "\\u" + hex4(v)
                }
            } else {
                out.unicodeScalars.append(u)
            }
        }
        return out
    }

    static func hex4(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }

    /// KaTeX's stylesheet, or `nil`.
    package static let stylesheet: String? = read("katex.min.css")

    static func read(_ name: String) -> String? {
        FileManager.default.contents(atPath: folder + "/" + name).map { String(decoding: $0, as: UTF8.self) }
    }

    /// KaTeX's font files (`fonts/NAME`), sorted by name, with their bytes.
    package static func fonts() -> [(name: String, bytes: [UInt8])] {
        let dir = folder + "/fonts"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
        return names.compactMap { n in
            guard n.hasSuffix(".woff2") || n.hasSuffix(".woff") || n.hasSuffix(".ttf"),
                  let d = FileManager.default.contents(atPath: dir + "/" + n) else { return nil }
            return (n, [UInt8](d))
        }
    }

    /// Whether a body written by ``HTMLEmitter`` holds a math span. One pass over the bytes.
    package static func hasMath(_ body: [UInt8]) -> Bool {
        HTMLPage.contains(Array("<span class=\"math math-".utf8), in: body)
    }
}
