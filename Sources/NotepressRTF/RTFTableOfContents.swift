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

    /// The bookmark name of a block id (``WordBookmark/name(forID:)``, shared with DOCX).
    static func bookmarkName(forID id: String) -> String { WordBookmark.name(forID: id) }
}
