import Foundation
import NotepressAST
import NotepressThemes

/// Finished lines to text: SGR and OSC 8 where style and link change (see ``ANSIEmitter``).
extension Renderer {

    /// Writes `lines` joined by `"\n"` into `out`, a `"\n"` before the first one when
    /// `separate` (the previous lines' last line ended without one).
    func write(_ lines: [Line], into out: inout String, separate: inout Bool) {
        for l in lines {
            if separate { out.append("\n") }
            render(l, into: &out)
            separate = true
        }
    }

    /// One line as text: SGR only where the style changes, OSC 8 opened and closed within the
    /// line, a reset at the end, no trailing spaces.
    func render(_ line: Line) -> String {
        var out = ""
        render(line, into: &out)
        return out
    }

    /// ``render(_:)`` appending to `out`.
    func render(_ line: Line, into out: inout String) {
        var segs = line
        while let last = segs.last {
            // A last byte other than a space: no trailing space Character (fast path).
            if let b = last.text.utf8.last, b != 0x20 { break }
            let trimmed = String(last.text.reversed().drop { $0 == " " }.reversed())
            if trimmed.isEmpty { segs.removeLast(); continue }
            if trimmed.count != last.text.count { segs[segs.count - 1] = Seg(trimmed, last.style, link: last.link) }
            break
        }
        var style = TerminalStyle()
        var link: String?
        let osc = options.hyperlinks
        for s in segs {
            if osc && s.link != link {
                if link != nil { out += "\u{1B}]8;;\u{1B}\\" }
                if let l = s.link { out += "\u{1B}]8;;" + l + "\u{1B}\\" }
                link = s.link
            }
            if s.style != style {
                out += s.style.isPlain ? sgr.reset : sgrCache.sequence(s.style, sgr)
                style = s.style
            }
            out += s.text
        }
        if !style.isPlain { out += sgr.reset }
        if osc && link != nil { out += "\u{1B}]8;;\u{1B}\\" }
    }
}
