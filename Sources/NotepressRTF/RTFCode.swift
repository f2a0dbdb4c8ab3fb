import NotepressAST
import NotepressThemes

/// Highlighted code blocks: each role's run in a group of its own with the theme's light code
/// colour (a colour table entry, ``RTFBuilder/extraColor(_:)``), `\b` and `\i`; plain runs and
/// line breaks (`\line`) as in an unhighlighted block. One monospace face throughout.
extension RTFBuilder {
    mutating func writeHighlightedCode(_ literal: String, _ highlight: CodeHighlight) {
        var text = Substring(literal)
        if text.hasSuffix("\n") { text = text.dropLast() }
        let palette = theme.theme.codeLight
        for (role, piece) in highlight.pieces(of: String(text)) {
            let lines = piece.split(separator: "\n", omittingEmptySubsequences: false)
            let style = role == .plain ? nil : palette.styles[role]
            for (i, line) in lines.enumerated() {
                if i > 0 { out.word("line") }
                guard !line.isEmpty else { continue }
                guard let style else { out.text(String(line)); continue }
                out.open()
                out.word("cf", extraColor(style.color))
                if style.bold { out.word("b") }
                if style.italic { out.word("i") }
                out.text(String(line))
                out.close()
            }
        }
    }
}
