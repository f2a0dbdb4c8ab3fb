import NotepressAST
import NotepressThemes

/// Paragraph building (see ``RTFEmitter``): the properties paragraphs share and the prefix a
/// list item or a bookmarked block puts before the next paragraph's content.
/// What the next paragraph starts with (``RTFBuilder/writePendingPrefix()``).
enum PendingPrefix {
    /// Content written first (bookmarks, a footnote's mark).
    case content([RTFNode])
    /// A list item's paragraph properties and `\listtext` (``RTFBuilder/writeList(_:_:)``).
    case listItem(ListItemPrefix)
}

/// The start of a list item's first paragraph: `\lsN\ilvlN\fi\li\tx`, then the `\listtext`
/// group with the marker in the marker's formatting, then the task box, if any.
struct ListItemPrefix {
    /// The `\ls` override number.
    var list: Int
    /// The list level (`\ilvl`).
    var level: Int
    /// The hanging indent in twips.
    var indent: Int
    /// The item's left indent (and tab stop) in twips.
    var leftIndent: Int
    /// Numbers are bold, bullets not.
    var ordered: Bool
    /// `3.` or the level's bullet.
    var marker: String
    var markerFont: Int
    /// The marker size in half-points.
    var markerSize: Int
    var task: ListItem.TaskState?
}

extension RTFBuilder {
    /// Writes the character properties of a style for a paragraph: the East Asian font
    /// (`\dbch\af`), the complex-script font, size and weight (`\rtlch\af\afs\ab`), the Latin
    /// ones (`\ltrch\f\fs\b`), the text colour. See ``RTFEmitter`` for the order.
    /// The words are written once per style and font and copied after that (``charPropsCache``).
    mutating func writeCharProps(_ style: ResolvedStyle, font: Int? = nil) {
        // The entry used last first: paragraphs in a row mostly share their style.
        let last = charPropsCache.last
        if last >= 0, charPropsCache.fonts[last] == font, charPropsCache.styles[last] == style {
            out.words(charPropsCache.bytes[last])
            return
        }
        for i in charPropsCache.styles.indices where charPropsCache.fonts[i] == font && charPropsCache.styles[i] == style {
            charPropsCache.last = i
            out.words(charPropsCache.bytes[i])
            return
        }
        let f = font ?? self.font(of: style)
        let size = RTFEmitter.halfPoints(style.size)
        let bold = style.weight.isBold
        var w = RTFWriter()
        w.word("dbch"); w.word("af", eastAsianFont); w.word("rtlch"); w.word("af", f); w.word("afs", size)
        if bold { w.word("ab") }
        w.word("ltrch"); w.word("f", f); w.word("fs", size)
        if bold { w.word("b") }
        w.word("cf", Self.colorText)
        charPropsCache.styles.append(style); charPropsCache.fonts.append(font); charPropsCache.bytes.append(w.bytes)
        charPropsCache.last = charPropsCache.styles.count - 1
        out.words(w.bytes)
    }

    /// Writes line spacing from the style's leading: `\slN\slmult0`, N = line height × 20 (twips).
    mutating func writeLineProps(_ style: ResolvedStyle) {
        out.word("sl", RTFEmitter.twips(style.lineHeight)); out.word("slmult", 0)
    }

    /// Writes the paragraph direction: `\rtlpar\qr` for right-to-left text, else `\ltrpar`.
    mutating func writeDirection(_ direction: TextDirection?) {
        if direction == .rightToLeft { out.word("rtlpar"); out.word("qr") } else { out.word("ltrpar") }
    }

    /// Writes the indentation and quote or alert bar of a context.
    mutating func writeIndentProps(_ ctx: BlockContext) {
        if ctx.indent > 0 { out.word("li", ctx.indent) }
        if let alert = ctx.alertColor {
            out.word("brdrl"); out.word("brdrs"); out.word("brdrw", 40); out.word("brsp", 80); out.word("brdrcf", alert)
        } else if ctx.quoteDepth > 0 {
            out.word("brdrl"); out.word("brdrs"); out.word("brdrw", 20); out.word("brsp", 80)
            out.word("brdrcf", Self.colorSecondary)
        }
    }

    /// Starts a paragraph: a newline and `\pard\plain`. The caller then writes the paragraph's
    /// properties, calls ``writePendingPrefix()``, writes the content and calls ``endParagraph()``.
    mutating func beginParagraph() {
        out.newline(); out.words(#"\pard\plain"#)
    }

    /// Writes the pending list prefix (properties, then content: list text, task box,
    /// bookmarks), if any, and clears it.
    mutating func writePendingPrefix() {
        defer {
            if !pendingBookmarks.isEmpty {
                out.write(pendingBookmarks)
                pendingBookmarks.removeAll()
            }
        }
        guard let prefix = pendingPrefix else { return }
        pendingPrefix = nil
        switch prefix {
        case .content(let nodes):
            out.write(nodes)
        case .listItem(let item):
            out.word("ls", item.list); out.word("ilvl", item.level); out.word("fi", -item.indent)
            out.word("li", item.leftIndent); out.word("tx", item.leftIndent)
            out.open()
            out.word("listtext"); out.word("pard"); out.word("plain"); out.word("rtlch"); out.word("af", item.markerFont)
            out.word("afs", item.markerSize)
            if item.ordered { out.word("ab") }
            out.word("ltrch"); out.word("f", item.markerFont); out.word("fs", item.markerSize)
            if item.ordered { out.word("b") }
            out.word("cf", Self.colorText); out.text(item.marker); out.word("tab")
            out.close()
            // ☒ for checked: ☑ (U+2611) has emoji presentation, and LibreOffice draws it with the
            // colour emoji font, which its PDF export leaves blank.
            if let task = item.task { out.text(task == .checked ? "\u{2612} " : "\u{2610} ") }
        }
    }

    /// Ends a paragraph: `\par`.
    mutating func endParagraph() { out.par() }

    /// `\pard\plain` + props + (pending list prefix) + content + `\par`, for rare paragraphs
    /// whose properties and content are given as nodes.
    mutating func paragraph(props: [RTFNode], content: [RTFNode]) {
        beginParagraph()
        out.write(props)
        writePendingPrefix()
        out.write(content)
        endParagraph()
    }
}
