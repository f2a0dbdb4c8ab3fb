import NotepressAST

/// How ``LineLayout`` measures a non-ASCII text: text with emoji sequences
/// (``TerminalWidth/joinsEmoji(_:)``) per grapheme cluster, with the columns before each byte
/// offset (before the cluster that contains it) and whether the offset starts a cluster (or is
/// the end); other text per scalar (`perCluster` false, no tables). Linear in the text's length.
struct ClusterMeasure {
    var perCluster = false
    var columnsBefore: [Int32] = []
    var boundary: [Bool] = []

    init(_ text: [UInt8]) {
        let string = String(decoding: text, as: UTF8.self)
        perCluster = string.unicodeScalars.contains(where: TerminalWidth.joinsEmoji)
        guard perCluster else { return }
        let n = text.count
        columnsBefore = [Int32](repeating: 0, count: n + 1)
        boundary = [Bool](repeating: false, count: n + 1)
        var w: Int32 = 0
        var off = 0
        for c in string {
            let next = off + c.utf8.count
            boundary[off] = true
            for k in off..<next { columnsBefore[k] = w }
            w += Int32(TerminalWidth.columns(c))
            off = next
        }
        columnsBefore[n] = w
        boundary[n] = true
    }
}

/// The greedy filling of ``LineFiller/finish()``: pieces of the paragraph text placed in order.
/// Consecutive text of one style run on one line becomes one ``Seg`` (made when the line or the
/// run ends), so a line of many short pieces (CJK) costs one string, not one per piece.
struct LineLayout {
    let text: [UInt8]
    let runs: [(start: Int, style: TerminalStyle, link: String?)]
    let ascii: Bool
    let width: Int
    /// Text with emoji sequences (``TerminalWidth/joinsEmoji(_:)``) is measured per grapheme
    /// cluster: the columns before each byte offset (before the cluster that contains it) and
    /// whether the offset starts a cluster (or is the end). Other text is measured per scalar
    /// when a range is asked for (the same widths, without segmenting it or a table per byte),
    /// and segmented only where a piece must be cut.
    private let columnsBefore: [Int32]
    private let boundary: [Bool]
    private let perCluster: Bool
    var lines: [Line] = []
    private var cur: Line = []
    /// Text of the current line not yet made a ``Seg``: `text[start..<end]`, all in run `run`.
    private var open: (start: Int, end: Int, run: Int)?
    var curW = 0
    /// Offset of the space to write before the next piece on this line, if any.
    var pendingSpace: Int?
    var widestPiece = 0
    /// The run that contains the last offset written (offsets are written in ascending order).
    private var run = 0

    /// `clusters` is the measure of `text` (``ClusterMeasure``), `nil` when `ascii`.
    init(text: [UInt8], runs: [(start: Int, style: TerminalStyle, link: String?)], ascii: Bool, width: Int,
         clusters: ClusterMeasure?) {
        self.text = text; self.runs = runs; self.ascii = ascii; self.width = width
        perCluster = clusters?.perCluster ?? false
        columnsBefore = clusters?.columnsBefore ?? []
        boundary = clusters?.boundary ?? []
    }

    /// Whether a line may end at `offset` without cutting a grapheme cluster (ICU breaks fall on
    /// scalar boundaries; per-scalar text is taken as ICU segments it).
    func isClusterBoundary(_ offset: Int) -> Bool { !perCluster || boundary[offset] }

    /// Columns of `text[a..<e]` (a grapheme cluster cut by `e` counts in the piece holding its
    /// start). `a` and `e` are scalar boundaries.
    func columns(_ a: Int, _ e: Int) -> Int {
        if ascii { return e - a }
        if perCluster { return Int(columnsBefore[e] - columnsBefore[a]) }
        var w = 0
        var i = a
        while i < e {
            let b0 = UInt32(text[i])
            if b0 < 0x80 {
                w += b0 < 0x20 ? 0 : (b0 == 0x7F ? TerminalWidth.scalarWidth("\u{7F}") : 1)
                i += 1
                continue
            }
            // UTF-8 decoding (valid input: the text came from Strings).
            let len = b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : 2
            var v = b0 & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07)
            for k in 1..<len { v = v << 6 | (UInt32(text[i + k]) & 0x3F) }
            w += TerminalWidth.scalarWidth(Unicode.Scalar(v) ?? "\u{FFFD}")
            i += len
        }
        return w
    }

    private var lineIsEmpty: Bool { cur.isEmpty && open == nil }

    /// Places the piece `text[a..<e]` (``LineFiller`` rules).
    mutating func placePiece(_ a: Int, _ e: Int) {
        let w = columns(a, e)
        widestPiece = max(widestPiece, w)
        if lineIsEmpty {
            place(a, e, w)
        } else if curW + (pendingSpace == nil ? 0 : 1) + w <= width {
            if let s = pendingSpace { write(s, s + 1); curW += 1 }
            place(a, e, w)
        } else {
            newLine()
            place(a, e, w)
        }
        pendingSpace = nil
    }

    mutating func newLine() {
        flush()
        lines.append(cur); cur = []; curW = 0; pendingSpace = nil
    }

    /// The piece on the current line, cut between grapheme clusters when it does not fit.
    private mutating func place(_ a: Int, _ e: Int, _ w: Int) {
        if curW + w <= width {
            write(a, e); curW += w
            return
        }
        for (k, next) in clusters(a, e) {
            let cw = columns(k, next)
            if curW + cw > width && curW > 0 { newLine() }
            write(k, next); curW += cw
        }
    }

    /// The grapheme clusters of `text[a..<e]` as offset ranges.
    private func clusters(_ a: Int, _ e: Int) -> [(Int, Int)] {
        var out: [(Int, Int)] = []
        if ascii {
            for k in a..<e { out.append((k, k + 1)) }
        } else if perCluster {
            var k = a
            while k < e {
                var next = k + 1
                while next < e && !boundary[next] { next += 1 }
                out.append((k, next))
                k = next
            }
        } else {
            var k = a
            for c in text.withUnsafeBufferPointer({ String(decoding: UnsafeBufferPointer(rebasing: $0[a..<e]), as: UTF8.self) }) {
                let next = k + c.utf8.count
                out.append((k, next))
                k = next
            }
        }
        return out
    }

    /// Adds `text[a..<e]` to the current line (extending the open text when it continues it).
    private mutating func write(_ a: Int, _ e: Int) {
        var x = a
        while x < e {
            while run + 1 < runs.count && runs[run + 1].start <= x { run += 1 }
            let end = run + 1 < runs.count ? min(e, runs[run + 1].start) : e
            if let o = open, o.end == x, o.run == run {
                open = (o.start, end, run)
            } else {
                flush()
                open = (x, end, run)
            }
            x = end
        }
    }

    /// Makes the open text a ``Seg`` (merged into the last one when style and link are the same).
    private mutating func flush() {
        guard let o = open else { return }
        open = nil
        // Whole scalars (pieces end at cluster, scalar or run boundaries): valid UTF-8.
        let piece = text.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[o.start..<o.end]), as: UTF8.self) }
        let w = columns(o.start, o.end)
        let last = cur.count - 1
        if last >= 0, cur[last].style == runs[o.run].style, cur[last].link == runs[o.run].link {
            cur[last].text.append(piece); cur[last].width += w
        } else {
            cur.append(Seg(piece, runs[o.run].style, link: runs[o.run].link, width: w))
        }
    }

    mutating func finish() -> [Line] {
        flush()
        if !cur.isEmpty || lines.isEmpty { lines.append(cur) }
        return lines
    }
}
