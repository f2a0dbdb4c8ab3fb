import NotepressAST
import NotepressThemes

/// `--toc` in RTF: a `Contents` caption in the heading-2 style, then one body-style paragraph per
/// ``TableOfContents`` entry, indented a quarter inch per nesting depth (``RTFEmitter/indentStep``),
/// whose text is an internal link: `{\field{\*\fldinst {HYPERLINK \\l "_TocN"}}{\fldrslt …}}`
/// (RTF 1.9.1, "Fields": the `\l` switch names a bookmark). Each listed heading starts with the
/// bookmark `{\*\bkmkstart _TocN}{\*\bkmkend _TocN}` (N = 1, 2, … in table order), Word's own
/// naming for table-of-contents targets: letters, digits and `_` only, as Word requires of
/// bookmark names; LibreOffice follows these links, also into exported PDF.
extension RTFBuilder {
    /// The bookmark name of table entry `index` (0-based).
    static func bookmarkName(_ index: Int) -> String { "_Toc\(index + 1)" }

    /// Writes the caption and entry paragraphs; nothing for an empty table.
    mutating func writeTableOfContents(_ toc: TableOfContents) {
        guard !toc.isEmpty else { return }
        let caption = theme.style(for: .heading(2))
        beginParagraph()
        out.word("sb", 240); out.spaceAfter(120); writeLineProps(caption); writeCharProps(caption)
        writePendingPrefix()
        out.text("Contents")
        endParagraph()
        let s = theme.style(for: .body)
        for (i, e) in toc.entries.enumerated() {
            let indent = min(e.depth * RTFEmitter.indentStep, RTFEmitter.maxIndent)
            beginParagraph()
            if indent > 0 { out.word("li", indent) }
            out.spaceAfter(60); writeLineProps(s); writeCharProps(s)
            writePendingPrefix()
            out.write(.group([
                .word("field"),
                .group([.symbol("*"), .word("fldinst"), .group([.text("HYPERLINK \\l \"" + Self.bookmarkName(i) + "\"")])]),
                .group([.word("fldrslt"), .group([.word("cf", Self.colorLink), .word("ul"), .text(e.text)])]),
            ]))
            endParagraph()
        }
    }

    /// The bookmark a heading of the table starts with.
    static func bookmark(_ index: Int) -> [RTFNode] { bookmark(named: bookmarkName(index)) }

    /// An empty bookmark called `name` (`{\*\bkmkstart name}{\*\bkmkend name}`).
    static func bookmark(named name: String) -> [RTFNode] {
        [.group([.symbol("*"), .word("bkmkstart"), .text(name)]), .group([.symbol("*"), .word("bkmkend"), .text(name)])]
    }

    /// The bookmark name of a block id (a heading's GitHub id, a block anchor `^id`), one to one
    /// within Word's rule for bookmark names (a letter first, then ASCII letters, digits and `_`,
    /// at most 40 characters). An id of lower-case ASCII letters, digits and `-` only is `id_`
    /// then the id with `-` as `_` (`getting-started` → `id_getting_started`); a block anchor
    /// `^x` of those is `bk_` then `x` so written. Any other id, or one too long for that, is
    /// `ix_`, its first 20 characters so written (other characters as `_`), `_` and the 16
    /// hex digits of its FNV-1a 64-bit hash (UTF-8): `a_b` and `a-b` never share a bookmark, so
    /// a reader never renames one and a link never lands on the other. Links to `#id` use the
    /// same name.
    static func bookmarkName(forID id: String) -> String {
        let anchor = id.hasPrefix("^")
        let body = anchor ? id.utf8.dropFirst() : id.utf8[...]
        let plain = body.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2D }
        if plain && !body.isEmpty && body.count <= 37 {
            return (anchor ? "bk_" : "id_") + String(decoding: body.map { $0 == 0x2D ? UInt8(ascii: "_") : $0 }, as: UTF8.self)
        }
        // Every character written is ASCII: the name's length in bytes is its length.
        var out: [UInt8] = Array("ix_".utf8)
        for u in id.unicodeScalars {
            if out.count == 23 { break }
            let v = u.value
            let keep = (0x30...0x39).contains(v) || (0x41...0x5A).contains(v) || (0x61...0x7A).contains(v)
            out.append(keep ? UInt8(v) : UInt8(ascii: "_"))
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in id.utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return String(decoding: out, as: UTF8.self) + "_" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
