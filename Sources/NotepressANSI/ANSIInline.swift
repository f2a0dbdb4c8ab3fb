import Foundation
import NotepressAST
import NotepressThemes

/// Inline content: styles, links and wrapping into lines (see ``ANSIEmitter``).
extension Renderer {

    func style(for a: InlineAttributes, base: TerminalStyle) -> TerminalStyle {
        // Plain text (the usual run) takes no role: the base style, without merging.
        if !a.strong && !a.emphasis && !a.script && !a.strikethrough && !a.code && a.link == nil && a.tag == nil
            && a.colorRole != .alert && a.image == nil && !a.letterpress && !a.marker && a.textStyle == nil {
            return base
        }
        var s = base
        for role in TerminalRole.allCases {
            let on: Bool
            switch role {
            case .strong: on = a.strong
            case .emphasis: on = a.emphasis
            case .script: on = a.script
            case .strikethrough: on = a.strikethrough
            case .code: on = a.code
            case .link: on = a.link != nil
            case .tag: on = a.tag != nil
            case .alert: on = a.colorRole == .alert
            case .image: on = a.image != nil
            case .letterpress: on = a.letterpress
            case .marker: on = a.marker
            case .heading1: on = a.textStyle == .title1 || a.textStyle == .largeTitle
            case .heading2: on = a.textStyle == .title2
            case .heading3: on = a.textStyle == .title3
            case .headline: on = a.textStyle == .headline
            case .subheadline: on = a.textStyle == .subheadline
            case .caption: on = a.textStyle == .caption1 || a.textStyle == .caption2
            default: on = false
            }
            if on { s = s.merged(TerminalStyleTable.style(role, theme: options.theme.theme)) }
        }
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
            f.appendCharacters("(" + TerminalText.visible(url) + ")", base.merged(TerminalStyleTable.style(.linkURL)), nil)
        }
        // The innermost link or image span of each run, and its flat attributes.
        let table = InlineAttributeTable(inlines)
        for run in inlines.runs {
            let entry = table[run: run]
            // No OSC 8 link and no URL for a destination URLSafety drops (without `unsafe`).
            let t = entry.innermostTarget.flatMap { id in
                table.link(id).flatMap { URLSafety.destination($0.destination, unsafe: options.unsafe).isEmpty ? nil : (id: id, link: $0) }
            }
            if let o = open, t?.id != o.id { close() }
            if let t, open == nil { open = (t.id, t.link, "") }
            let style = style(for: entry.attributes, base: base)
            let link = options.hyperlinks ? t.map { TerminalText.osc8URL($0.link.destination) } : nil
            switch run.content {
            case .text(let text):
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
