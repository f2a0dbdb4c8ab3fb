import Foundation
import NotepressAST
import NotepressThemes

/// Finished lines to text: SGR and OSC 8 where style and link change (see ``ANSIEmitter``).
extension Renderer {

    /// Writes `lines` joined by `"\n"` into `out`, a `"\n"` before the first one when
    /// `separate` (the previous lines' last line ended without one).
    func write(_ lines: [Line], into out: inout OutputBytes, separate: inout Bool) {
        for l in lines {
            if separate { out.append(0x0A) }
            render(l, into: &out)
            separate = true
        }
    }

    /// One line as text: SGR only where the style changes, OSC 8 opened and closed within the
    /// line, a reset at the end, no trailing spaces.
    func render(_ line: Line) -> String {
        var out = OutputBytes()
        render(line, into: &out)
        return String(decoding: out.finish(), as: UTF8.self)
    }

    /// ``render(_:)`` appending its UTF-8 bytes to `out`.
    func render(_ line: Line, into out: inout OutputBytes) {
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
    private func renderSegments(_ segs: UnsafeBufferPointer<Seg>, into out: inout OutputBytes) {
        var style = TerminalStyle()
        var link: String?
        let osc = options.hyperlinks
        let closeLink: StaticString = "\u{1B}]8;;\u{1B}\\"
        let reset = sgr.reset
        for i in segs.indices {
            if osc && segs[i].link != link {
                if link != nil { closeLink.withUTF8Buffer { out.append($0) } }
                if let l = segs[i].link {
                    out.append(0x1B); appendUTF8("]8;;", to: &out)
                    appendUTF8(l, to: &out)
                    out.append(0x1B); out.append(0x5C)
                }
                link = segs[i].link
            }
            let next = segs[i].style
            if next != style {
                style = next
                appendUTF8(style.isPlain ? reset : sgrCache.sequence(style, sgr), to: &out)
            }
            appendUTF8(segs[i].text, to: &out)
        }
        if !style.isPlain { appendUTF8(reset, to: &out) }
        if osc && link != nil { closeLink.withUTF8Buffer { out.append($0) } }
    }
}

/// Appends the UTF-8 bytes of `s` to `out` in one copy (the same bytes as `s.utf8`).
@inline(__always)
func appendUTF8(_ s: String, to out: inout OutputBytes) {
    // Native strings (all of ours) lend their bytes without a copy of the string.
    if s.utf8.withContiguousStorageIfAvailable({ out.append($0) }) != nil { return }
    var s = s
    s.withUTF8 { out.append($0) }
}

/// The output being written: bytes appended in place, each append a bounds check and one copy
/// (`Array.append(contentsOf:)` costs several times that for the short pieces of a line).
/// `buffer` holds the output in its first `count` bytes and zeros after them (room, doubled when
/// full, so appending is amortised linear); ``finish()`` drops the room without copying.
struct OutputBytes {
    private var buffer: [UInt8] = []
    private var count = 0

    /// Appends one byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == buffer.count { grow(1) }
        buffer[count] = byte
        count += 1
    }

    /// Appends the bytes of `bytes`.
    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        let n = bytes.count
        guard n > 0, let src = bytes.baseAddress else { return }
        if buffer.count - count < n { grow(n) }
        let at = count
        buffer.withUnsafeMutableBufferPointer { dst in (dst.baseAddress! + at).update(from: src, count: n) }
        count += n
    }

    /// Makes room for at least `n` more bytes (doubling).
    private mutating func grow(_ n: Int) {
        let room = max(buffer.count, n, 4096)
        buffer.append(contentsOf: repeatElement(0, count: room))
    }

    /// The bytes written.
    mutating func finish() -> [UInt8] {
        buffer.removeLast(buffer.count - count)
        let out = buffer
        buffer = []
        count = 0
        return out
    }
}
