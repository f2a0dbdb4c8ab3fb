import Foundation
import NotepressAST
import NotepressThemes

/// Inline content: styles, links and wrapping into lines (see ``ANSIEmitter``).
extension Renderer {

    func style(for a: InlineAttributes, base: TerminalStyle) -> TerminalStyle {
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
            case .alert: on = a.colorRole == .alert
            case .image: on = a.image != nil
            case .letterpress: on = a.letterpress
            case .marker: on = a.marker
            case .headline: on = a.textStyle == .headline
            case .subheadline: on = a.textStyle == .subheadline
            case .caption: on = a.textStyle == .caption1 || a.textStyle == .caption2
            default: on = false
            }
            if on { s = s.merged(TerminalStyleTable.style(role)) }
        }
        return s
    }

    /// The innermost link or image span of a run; `nil` when there is none or its destination is
    /// empty or one ``URLSafety`` drops (without `unsafe`): no OSC 8 link and no URL is written for it.
    func target(_ run: InlineRun) -> (id: Int, link: Link)? {
        for span in run.spans.reversed() {
            switch span.kind {
            case .link(let l), .image(let l):
                return URLSafety.destination(l.destination, unsafe: options.unsafe).isEmpty ? nil : (span.id, l)
            default: continue
            }
        }
        return nil
    }

    /// The wrapped lines of `inlines` (``LineFiller``): the runs' text collected in one pass,
    /// then filled at its UAX #14 break opportunities.
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
        for run in inlines.runs {
            let t = target(run)
            if let o = open, t?.id != o.id { close() }
            if let t, open == nil { open = (t.id, t.link, "") }
            let style = style(for: run.attributes, base: base)
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
