import CNotepressPDF
import Foundation
import NotepressAST
import NotepressThemes

/// The look of a run of text: font, colour and decorations, and the link it is part of.
struct RunStyle: Equatable {
    /// A Pango family list (``PDFFonts/familyList(_:)``).
    var family: String
    /// Points.
    var size: Double
    /// 100…900.
    var weight: Int
    var italic = false
    var color: RGBColor
    var background: RGBColor?
    var underline = false
    var strike = false
    /// Points up (superscript) or down (negative).
    var rise = 0.0
    /// cairo's link attributes (`uri='…'`, `dest='…'`), or `nil`.
    var link: String?
    /// The footnote a reference refers to (drawn at the foot of its page), or 0.
    var footnote = 0
    /// A word too long for a line is broken without a hyphen (a URL, code: a hyphen there would
    /// read as part of it).
    var noHyphens = false

    /// The style of a theme style's font in `color`.
    init(_ style: ResolvedStyle, color: RGBColor) {
        family = PDFFonts.familyList(style.font)
        size = style.size
        weight = style.weight.cssValue
        self.color = color
    }
}

/// Text of one paragraph (UTF-8) and its runs, each a byte range with one ``RunStyle``.
struct AttributedText {
    var bytes: [UInt8] = []
    var runs: [(range: Range<Int>, style: RunStyle)] = []

    var isEmpty: Bool { bytes.isEmpty }

    /// Appends `text` in `style` (``layoutText(_:)``), extending the last run when its style is
    /// the same.
    mutating func append(_ text: String, _ style: RunStyle) {
        let text = Self.layoutText(text)
        guard !text.isEmpty else { return }
        let start = bytes.count
        bytes += Array(text.utf8)
        if let last = runs.last, last.style == style, last.range.upperBound == start {
            runs[runs.count - 1].range = last.range.lowerBound..<bytes.count
        } else {
            runs.append((start..<bytes.count, style))
        }
    }

    /// `text` without the control characters, which have no glyph (a font draws a box for one):
    /// C0 controls other than tab and line feed, DEL and C1 controls are left out, as the other
    /// document writers leave them out (RTF's escaper, XML's character data in DOCX, ODT, TEI).
    static func layoutText(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A || $0 == 0x7F || $0 == 0xC2 }) else { return text }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: text.unicodeScalars.lazy.filter { u in
            !(u.value < 0x20 && u.value != 0x09 && u.value != 0x0A) && !(0x7F...0x9F).contains(u.value)
        })
        return String(out)
    }

    /// The text without a trailing line separator.
    mutating func trimTrailingBreak() {
        let separator = Array("\u{2028}".utf8)
        while bytes.count >= 3, Array(bytes.suffix(3)) == separator {
            bytes.removeLast(3)
            runs = runs.compactMap { r in
                let upper = min(r.range.upperBound, bytes.count)
                return r.range.lowerBound < upper ? (r.range.lowerBound..<upper, r.style) : nil
            }
        }
    }
}

/// Fonts and C strings for the shim: family lists for Pango, and each string given to C kept
/// alive (once) until the document is finished.
final class PDFStrings {
    private var strings: [String: UnsafeMutablePointer<CChar>] = [:]

    /// A C string of `s` that lives as long as this pool.
    func c(_ s: String) -> UnsafeMutablePointer<CChar> {
        if let p = strings[s] { return p }
        let p = strdup(s)!
        strings[s] = p
        return p
    }

    deinit { for p in strings.values { Foundation.free(p) } }

    /// The C runs of `text` (its strings from this pool).
    func runs(_ text: AttributedText) -> [np_pdf_run] {
        text.runs.map { r in
            let s = r.style
            return np_pdf_run(start: UInt32(r.range.lowerBound), end: UInt32(r.range.upperBound), family: UnsafePointer(c(s.family)),
                              size: s.size, weight: Int32(s.weight), italic: s.italic ? 1 : 0, no_hyphens: s.noHyphens ? 1 : 0,
                              color: PDFFonts.rgb(s.color), background: s.background.map(PDFFonts.rgb) ?? 0,
                              has_background: s.background == nil ? 0 : 1, underline: s.underline ? 1 : 0, strike: s.strike ? 1 : 0,
                              rise: s.rise, link: s.link.map { UnsafePointer(c($0)) }, footnote: Int32(s.footnote))
        }
    }
}

/// Font names and colours as the shim takes them.
enum PDFFonts {
    /// A Pango family list: the theme's families without the CSS system keywords
    /// (`-apple-system`), then the generic family, which fontconfig resolves.
    static func familyList(_ font: FontFamily) -> String {
        let names = font.names.filter { !FontFamily.isSystemKeyword($0) && !$0.contains(",") }
        let generic = font.generic == .systemUI ? "sans-serif" : font.generic.rawValue
        return (names + [generic]).joined(separator: ",")
    }

    /// 0xRRGGBB.
    static func rgb(_ c: RGBColor) -> UInt32 { UInt32(c.red) << 16 | UInt32(c.green) << 8 | UInt32(c.blue) }

    /// A cairo attribute value in single quotes (`\` and `'` escaped; NUL, which would end the C
    /// string the shim is given and leave the quote open, as `%00`).
    static func quoted(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
            .replacingOccurrences(of: "\u{0}", with: "%00") + "'"
    }
}
