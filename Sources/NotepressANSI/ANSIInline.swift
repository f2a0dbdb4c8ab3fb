import Foundation
import NotepressAST
import NotepressThemes

/// Inline content: styles, links and wrapping into lines (see ``ANSIEmitter``).
extension Renderer {

    /// `base` merged with the style of each role the run of `entry` has, in the order of
    /// ``TerminalRole/allCases`` (the text style's role, then strong, emphasis, script,
    /// strikethrough, link, tag, code, alert, image, letterpress, marker), each looked up once per
    /// renderer (``InlineRoleStyles``). Plain text (the usual run) takes no role: `base` itself.
    /// A link or image is known from the entry's span indices (an innermost link or image span
    /// exactly when ``InlineAttributes/link`` or ``InlineAttributes/image`` is set), without
    /// copying the `Link`.
    func style(for entry: InlineAttributeTable.Entry, base: TerminalStyle) -> TerminalStyle {
        var s = base
        if let t = entry.attributes.textStyle {
            switch t {
            case .title1, .largeTitle: s = s.merged(roleStyles.heading1)
            case .title2: s = s.merged(roleStyles.heading2)
            case .title3: s = s.merged(roleStyles.heading3)
            case .headline: s = s.merged(roleStyles.headline)
            case .subheadline: s = s.merged(roleStyles.subheadline)
            case .caption1, .caption2: s = s.merged(roleStyles.caption)
            default: break
            }
        }
        if entry.attributes.strong { s = s.merged(roleStyles.strong) }
        if entry.attributes.emphasis { s = s.merged(roleStyles.emphasis) }
        if entry.attributes.script { s = s.merged(roleStyles.script) }
        if entry.attributes.strikethrough { s = s.merged(roleStyles.strikethrough) }
        if entry.innermostLink != nil { s = s.merged(roleStyles.link) }
        if entry.attributes.tag != nil { s = s.merged(roleStyles.tag) }
        if entry.attributes.code { s = s.merged(roleStyles.code) }
        if entry.attributes.colorRole == .alert { s = s.merged(roleStyles.alert) }
        if entry.innermostImage != nil { s = s.merged(roleStyles.image) }
        if entry.attributes.letterpress { s = s.merged(roleStyles.letterpress) }
        if entry.attributes.marker { s = s.merged(roleStyles.marker) }
        if entry.attributes.highlight { s = s.merged(roleStyles.highlight) }
        if entry.attributes.insert { s = s.merged(TerminalStyle(underline: true)) }
        return s
    }

    /// The wrapped lines of `inlines` (``LineFiller``), made in one pass: each word goes into the
    /// current line as soon as it ends.
    func inlineLines(_ inlines: Inlines, width: Int, base: TerminalStyle) -> [Line] {
        var f = fill(inlines, width: width, base: base)
        return f.finish()
    }

    /// ``inlineLines(_:width:base:)`` before ``LineFiller/finish()``: also knows the widest word.
    func fill(_ inlines: Inlines, width: Int, base: TerminalStyle) -> LineFiller {
        var f = LineFiller(width: width)
        var open: (id: Int, link: Link, text: String)?
        func close() {
            guard let o = open else { return }
            open = nil
            let url = o.link.destination
            guard !options.hyperlinks, !url.isEmpty, url != o.text, url != "mailto:" + o.text else { return }
            f.endWord()
            f.space(base, nil)
            f.appendCharacters("(" + TerminalText.visible(url) + ")", base.merged(roleStyles.linkURL), nil)
        }
        // The innermost link or image span of each run, and its flat attributes.
        let table = InlineAttributeTable(inlines)
        for run in inlines.runs {
            let style: TerminalStyle
            let link: String?
            if run.span == nil {
                // Outside every span (most text): the base style, no link or image.
                if open != nil { close() }
                style = base
                link = nil
            } else {
                let entry = table[run: run]
                // No OSC 8 link and no URL for a destination URLSafety drops (without `unsafe`).
                let t = entry.innermostTarget.flatMap { id in
                    table.link(id).flatMap { URLSafety.destination($0.destination, unsafe: options.unsafe).isEmpty ? nil : (id: id, link: $0) }
                }
                if let o = open, t?.id != o.id { close() }
                if let t, open == nil { open = (t.id, t.link, "") }
                style = self.style(for: entry, base: base)
                link = options.hyperlinks ? t.map { TerminalText.osc8URL($0.link.destination) } : nil
            }
            switch run.content {
            case .text(var text):
                // Math shows its TeX on one line (display math's own line breaks are layout).
                if run.span != nil, table[run: run].attributes.math != nil {
                    text = text.split(whereSeparator: { $0 == "\n" }).joined(separator: " ").trimmingHorizontalWhitespace()
                }
                // `2<sup>7</sup>` reads 2⁷, not 27 (``ScriptText``).
                if run.span != nil { text = ScriptText.text(text, table[run: run].attributes) }
                if open != nil { open!.text += text }
                f.appendText(TerminalText.visible(text), style, link)
            case .softBreak:
                if open != nil { open!.text += " " }
                f.endWord(); f.space(style, link)
            case .hardBreak:
                f.endWord(); f.hardBreak()
            case .footnoteReference(_, let number, _):
                f.appendCharacters("[\(number)]", style.merged(TerminalStyleTable.style(.footnoteReference)), link)
            case .rawHTML:
                break
            }
        }
        close()
        f.endWord()
        return f
    }
}

/// The styles of the roles an inline run can take (``TerminalStyleTable/style(_:theme:)``), looked
/// up once per renderer instead of once per run.
struct InlineRoleStyles {
    let heading1, heading2, heading3, headline, subheadline, caption: TerminalStyle
    let strong, emphasis, script, strikethrough, link, tag, code, alert, image, letterpress, marker, highlight: TerminalStyle
    /// The URL shown after a link's text.
    let linkURL: TerminalStyle

    init(theme: Theme) {
        func s(_ role: TerminalRole) -> TerminalStyle { TerminalStyleTable.style(role, theme: theme) }
        heading1 = s(.heading1); heading2 = s(.heading2); heading3 = s(.heading3)
        headline = s(.headline); subheadline = s(.subheadline); caption = s(.caption)
        strong = s(.strong); emphasis = s(.emphasis); script = s(.script)
        strikethrough = s(.strikethrough); link = s(.link); tag = s(.tag); code = s(.code)
        alert = s(.alert); image = s(.image); letterpress = s(.letterpress); marker = s(.marker)
        highlight = s(.highlight)
        linkURL = s(.linkURL)
    }
}
