import Foundation
import NotepressAST
import NotepressThemes

/// Finished lines to text: SGR and OSC 8 where style and link change (see ``ANSIEmitter``).
extension Renderer {

    /// Writes `lines` joined by `"\n"` into `out`, a `"\n"` before the first one when
    /// `separate` (the previous lines' last line ended without one).
    func write(_ lines: [Line], into out: inout [UInt8], separate: inout Bool) {
        for l in lines {
            if separate { out.append(0x0A) }
            render(l, into: &out)
            separate = true
        }
    }

    /// One line as text: SGR only where the style changes, OSC 8 opened and closed within the
    /// line, a reset at the end, no trailing spaces.
    func render(_ line: Line) -> String {
        var out: [UInt8] = []
        render(line, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// ``render(_:)`` appending its UTF-8 bytes to `out`.
    func render(_ line: Line, into out: inout [UInt8]) {
        // A last byte other than a space (the usual line): no trailing space Character to drop.
        if line.isEmpty { return }
        if let b = line[line.count - 1].text.utf8.last, b != 0x20 {
            line.withUnsafeBufferPointer { renderSegments($0, into: &out) }
            return
        }
        var segs = line
        while let last = segs.last {
            if let b = last.text.utf8.last, b != 0x20 { break }
            let trimmed = String(last.text.reversed().drop { $0 == " " }.reversed())
            if trimmed.isEmpty { segs.removeLast(); continue }
            if trimmed.count != last.text.count { segs[segs.count - 1] = Seg(trimmed, last.style, link: last.link) }
            break
        }
        segs.withUnsafeBufferPointer { renderSegments($0, into: &out) }
    }

    /// The segments of a line without trailing spaces as text (see ``render(_:)``).
    private func renderSegments(_ segs: UnsafeBufferPointer<Seg>, into out: inout [UInt8]) {
        var style = TerminalStyle()
        var link: String?
        let osc = options.hyperlinks
        let closeLink: StaticString = "\u{1B}]8;;\u{1B}\\"
        for i in segs.indices {
            if osc && segs[i].link != link {
                if link != nil { closeLink.withUTF8Buffer { out.append(contentsOf: $0) } }
                if let l = segs[i].link {
                    out.append(0x1B); out.append(contentsOf: "]8;;".utf8)
                    out.append(contentsOf: l.utf8)
                    out.append(0x1B); out.append(0x5C)
                }
                link = segs[i].link
            }
            if segs[i].style != style {
                style = segs[i].style
                appendUTF8(style.isPlain ? sgr.reset : sgrCache.sequence(style, sgr), to: &out)
            }
            appendUTF8(segs[i].text, to: &out)
        }
        if !style.isPlain { appendUTF8(sgr.reset, to: &out) }
        if osc && link != nil { closeLink.withUTF8Buffer { out.append(contentsOf: $0) } }
    }
}

/// Appends the UTF-8 bytes of `s` to `out` in one copy (the same bytes as `s.utf8`).
@inline(__always)
func appendUTF8(_ s: String, to out: inout [UInt8]) {
    var s = s
    s.withUTF8 { out.append(contentsOf: $0) }
}
