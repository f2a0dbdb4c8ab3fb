import NotepressAST
import NotepressThemes

/// Code blocks (see ``ANSIEmitter``), highlighted in the theme's light or dark code palette
/// (``ANSIOptions/codePalette``) at the colour depth in use, or at 16 colours in the terminal's own
/// colours (``CodePalette/ansi16(_:)``); with no colour (`NO_COLOR`) only the text.
extension Renderer {
    /// A code block: each line indented by two columns (none below five columns of width), tabs
    /// expanded to stops of 4, trailing blanks dropped. A line wider than the room is wrapped,
    /// never cut: each piece but the last ends with the continuation mark `↩` (U+21A9; a backslash
    /// with `--ascii`) in the last column, as terminals and editors mark soft-wrapped lines, and the
    /// next piece starts at the same indent. A character wider than the room (a wide character in
    /// a one- or two-column room) is put on a piece of its own. With `highlight`, each run is
    /// drawn in its role's style. Time is linear in the line length.
    func codeBlock(_ literal: String, highlight: CodeHighlight?, width: Int) -> [Line] {
        let indent = width > 4 ? 2 : 0
        let room = max(width - indent, 1)
        let style = body.merged(TerminalStyleTable.style(.code))
        let mark = ascii ? "\\" : "↩"
        let lead: Line = indent > 0 ? [Seg(spaces(indent))] : []
        var out: [Line] = []
        for raw in codeLines(literal, highlight: highlight, base: style) {
            let line = visibleLine(raw)
            if line.isEmpty { out.append([]); continue }
            let lineColumns = line.reduce(0) { $0 + $1.width }
            if room < 2 || lineColumns <= room {
                out.append(lead + line)
                continue
            }
            // Pieces of at most room - 1 columns, each followed by the mark.
            var pieceLine: Line = []
            var piece = ""
            var pieceStyle = style
            var w = 0
            for seg in line {
                if !piece.isEmpty && seg.style != pieceStyle {
                    pieceLine.append(Seg(piece, pieceStyle))
                    piece = ""
                }
                pieceStyle = seg.style
                for c in seg.text {
                    let cw = TerminalWidth.columns(c)
                    if w + cw > room - 1 && (!piece.isEmpty || !pieceLine.isEmpty) {
                        if !piece.isEmpty { pieceLine.append(Seg(piece, pieceStyle)) }
                        out.append(lead + pieceLine + [Seg(mark, TerminalStyleTable.style(.marker))])
                        pieceLine = []
                        piece = ""
                        w = 0
                    }
                    piece.append(c)
                    w += cw
                }
            }
            if !piece.isEmpty { pieceLine.append(Seg(piece, pieceStyle)) }
            out.append(lead + pieceLine)
        }
        return out
    }

    /// The literal's lines (without the last line feed) as runs of text and style: one run per
    /// line without `highlight`, else one per role run.
    private func codeLines(_ literal: String, highlight: CodeHighlight?, base: TerminalStyle) -> [[(text: Substring, style: TerminalStyle)]] {
        var text = literal
        if text.hasSuffix("\n") { text.removeLast() }
        // Lines split at line feeds. Without a carriage return every `\n` is a Character of its
        // own (UAX #29 GB4, GB5: only CR LF joins it), so splitting the bytes gives the same lines
        // as splitting the Characters, without segmenting the text.
        func split(_ s: Substring) -> [Substring] {
            s.utf8.contains(0x0D) ? s.split(separator: "\n", omittingEmptySubsequences: false)
                : s.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { Substring($0) }
        }
        guard let highlight else { return split(Substring(text)).map { [($0, base)] } }
        let palette = options.codePalette ?? options.theme.theme.codeLight
        var lines: [[(text: Substring, style: TerminalStyle)]] = [[]]
        for (role, piece) in highlight.pieces(of: text) {
            let s = role == .plain ? base : base.merged(codeStyle(role, palette))
            for (k, part) in split(piece).enumerated() {
                if k > 0 { lines.append([]) }
                if !part.isEmpty { lines[lines.count - 1].append((part, s)) }
            }
        }
        return lines
    }

    /// The terminal style of `role`: the palette's colour (the 16-colour code at that depth),
    /// bold and italic.
    private func codeStyle(_ role: CodeRole, _ palette: CodePalette) -> TerminalStyle {
        let c = palette.style(role, fallback: options.theme.theme.light.text)
        // A role with no 16-colour code (operators) keeps the code's own colour at every depth.
        guard let code16 = CodePalette.ansi16(role) else { return TerminalStyle(bold: c.bold, italic: c.italic) }
        return TerminalStyle(bold: c.bold, italic: c.italic, color: .fixed(c.color, ansi16: code16))
    }

    /// A line's runs made visible (``TerminalText/visible(_:tabs:)``), tabs expanded to stops of
    /// 4 counted from the line's start across runs, trailing blanks dropped.
    private func visibleLine(_ runs: [(text: Substring, style: TerminalStyle)]) -> Line {
        var line: Line = []
        var column = 0
        for (text, style) in runs {
            var s = ""
            for (k, part) in text.split(separator: "\t", omittingEmptySubsequences: false).enumerated() {
                if k > 0 {
                    let n = 4 - column % 4
                    s += spaces(n)
                    column += n
                }
                let v = TerminalText.visible(String(part))
                column += TerminalWidth.columns(v)
                s += v
            }
            if !s.isEmpty { line.append(Seg(s, style)) }
        }
        while var last = line.last {
            while last.text.last == " " { last.text.removeLast() }
            line.removeLast()
            if last.text.isEmpty { continue }
            line.append(Seg(last.text, last.style))
            break
        }
        return line
    }
}
