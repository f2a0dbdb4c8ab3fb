import NotepressAST
import NotepressThemes

/// Inline content as attributed text: emphasis, strong, strike, code, links, footnote
/// references, super- and subscripts, highlights (see ``PDFEmitter``).
extension PDFEmitter {
    /// The text of `inlines` in the theme style `base` (its colour `color`); `omitting` an image
    /// drawn beside the text (its description, and the spaces after it, left out).
    func attributed(_ inlines: Inlines, _ base: ResolvedStyle, color: RGBColor? = nil, omitting: Link? = nil) -> AttributedText {
        var out = AttributedText()
        let plain = RunStyle(base, color: color ?? colors.text)
        // One pass over the span tree (``InlineAttributeTable``): a run's attributes by walking
        // its chain of spans would cost depth × runs, quadratic in nested emphasis.
        let table = InlineAttributeTable(inlines)
        for i in inlines.runs.indices {
            let a = table[run: inlines.runs[i]].attributes
            if let omitting {
                if a.image == omitting { continue }
                if out.isEmpty, case .softBreak = inlines.runs[i].content { continue }
            }
            var s = style(of: a, plain, base)
            if let image = a.image, warnedInlineImages.insert(image.position ?? SourcePosition(line: 0, column: i)).inserted {
                // Only an image alone in its paragraph is drawn (``soleImage(_:)``); one within
                // text is its description, and said so.
                diagnostics.append(Diagnostic(.warning, "PDF: image \(image.destination) within text is written as its "
                                                  + "description (only an image alone in its paragraph is drawn)",
                                              file: document.metadata.sourcePath, position: image.position))
            }
            switch inlines.runs[i].content {
            case .text(let t):
                out.append(omitting != nil && out.isEmpty ? String(t.drop { $0.isWhitespace }) : t, s)
            case .softBreak:
                out.append(a.code ? "\n" : " ", s)
            case .hardBreak:
                out.append("\u{2028}", s)
            case .footnoteReference(_, let number, _):
                s.size *= 0.7
                s.rise = base.size * 0.35
                s.color = colors.link
                s.link = footnoteNumbers.contains(number) ? "dest=" + PDFFonts.quoted(footnoteDestination(number)) : nil
                s.footnote = pageFootnotes.contains(number) ? footnoteBase + number : 0
                out.append("\(number)", s)
            case .rawHTML:
                break
            }
        }
        // Pango lays out a line's attributes in time quadratic in their number: a paragraph of
        // more styled runs than this is written in its plain style, and said so.
        if out.runs.count > Self.maxStyledRuns {
            diagnostics.append(Diagnostic(.warning, "PDF: a paragraph of \(out.runs.count) styled runs is written without its "
                                              + "styles (at most \(Self.maxStyledRuns))", file: document.metadata.sourcePath, position: blockPosition))
            out.runs = [(0..<out.bytes.count, plain)]
        }
        return out
    }

    /// The most styled runs one paragraph keeps (``attributed(_:_:color:omitting:)``).
    static let maxStyledRuns = 2_000

    /// A run's style from its flattened attributes over the block's `plain` style.
    func style(of a: InlineAttributes, _ plain: RunStyle, _ base: ResolvedStyle) -> RunStyle {
        var s = plain
        if let t = a.textStyle { s.size = theme.style(t).size }
        if a.strong { s.weight = max(700, base.weight.steppedUp.cssValue) }
        if a.emphasis || a.image != nil { s.italic = true }
        if a.strikethrough { s.strike = true }
        if a.insert { s.underline = true }
        if a.script { s.family = PDFFonts.familyList(theme.theme.scriptFont) }
        if a.code || a.math != nil {
            s.family = codeFamily
            s.noHyphens = true
            s.size *= 0.9
            s.background = colors.codeBackground
        }
        if a.highlight { s.background = RGBColor(red: 0xFF, green: 0xF0, blue: 0x8A) }
        if a.marker || a.letterpress { s.color = colors.secondary }
        if a.colorRole == .alert { s.color = colors.alert }
        if a.superscript || a.subscript {
            s.rise = s.size * (a.superscript ? 0.35 : -0.15)
            s.size *= 0.75
        }
        if a.tag != nil { s.color = colors.link }
        if let link = a.link, let target = linkAttribute(link.destination) {
            s.link = target
            s.noHyphens = true
            s.color = colors.link
            s.underline = true
        }
        return s
    }

    /// cairo's link attributes for a destination: `dest='id'` for `#id` of a heading or
    /// paragraph of this document, for a chapter of the book (`ch002.xhtml`, `ch002.xhtml#id`:
    /// the heading, else the chapter's start), `uri='…'` for anything else but a dangerous URL
    /// (unless ``PDFOptions/unsafe``); `nil`: no link.
    func linkAttribute(_ destination: String) -> String? {
        if destination.hasPrefix("#") {
            let id = self.destination(String(destination.dropFirst()))
            return destinations.contains(id) ? "dest=" + PDFFonts.quoted(id) : nil
        }
        if book != nil, let target = chapterDestination(destination) { return "dest=" + PDFFonts.quoted(target) }
        guard !destination.isEmpty, options.unsafe || !URLSafety.isDangerous(destination) else { return nil }
        return "uri=" + PDFFonts.quoted(destination)
    }

    /// The destination of a link to a chapter (`ch002.xhtml#id`, its fragment percent-encoded):
    /// the heading or paragraph, else the chapter's start; `nil` when it names no chapter.
    func chapterDestination(_ link: String) -> String? {
        var path = Substring(link), fragment: Substring?
        if let h = path.firstIndex(of: "#") { fragment = path[path.index(after: h)...]; path = path[..<h] }
        guard !path.isEmpty, destinations.contains(String(path)) else { return nil }
        if let fragment, !fragment.isEmpty {
            let id = String(path) + "#" + (String(fragment).removingPercentEncoding ?? String(fragment))
            if destinations.contains(id) { return id }
        }
        return String(path)
    }
}
