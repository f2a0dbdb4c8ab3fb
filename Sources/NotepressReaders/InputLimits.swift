import CCmarkGFM
import Foundation
import NotepressAST

/// Bounds on the Markdown shapes that libcmark-gfm 0.29.0.gfm.6 (the Debian library we parse
/// with) handles in more than linear time or memory, or that make its output grow faster than
/// its input. Later upstream releases fixed these in the library (0.29.0.gfm.7: autocompleted
/// table cells; gfm.12/13: the table parser's quadratic columns); until the library we link has
/// the fixes, a document past a bound is refused before it is parsed, with the line and column
/// where the bound is crossed, the bound, and the option that lifts it (`--no-input-limits`).
///
/// Measured on this project's machine (Benchmarks/run, "hostile inputs"): a table of 16 000
/// columns took 1.25 s to parse and 4× more per doubling; a header of 100 columns over
/// one-cell rows gave 189 MB of RTF from 7 KB; a paragraph of 16 000 e-mail addresses took
/// 930 MB of memory in libcmark-gfm's autolink extension; a reference definition used
/// 1 000 times wrote 10 MB of HTML from 14 KB. With the bounds each of these at 1 MB of input
/// parses in well under a second and every format's output stays within the documented
/// multiple of the input (README, "Limits").
///
/// The scan is one pass over the bytes, before libcmark-gfm sees them, and approximates the
/// parser on the safe side: it counts in every paragraph, including those the parser would read
/// as something else (an indented code block), and skips only fenced code blocks.
package struct InputLimits: Sendable, Equatable {
    /// Most columns of a table (the delimiter row's cells). libcmark-gfm 0.29.0.gfm.6 parses a
    /// table's rows in time quadratic in its columns (fixed in 0.29.0.gfm.12).
    package var tableColumns = 256
    /// Most empty cells the parser may add to short table rows, over the whole document (upstream
    /// 0.29.0.gfm.7 stops a table at 0x80000 per table; markdown-it at 0x10000): each costs output
    /// in every format with no input.
    package var autocompletedCells = 0x10000
    /// Most table cells in a document, header cells and filled-in cells included (2^18). Each
    /// cell costs about 1.5–2 µs in libcmark-gfm and the slowest writers (RTF, ANSI, TEI) and up
    /// to ~170 bytes of RTF even when empty, so 1 MB of nothing but cells (a million) took 1.2–2.4 s;
    /// at this bound a document's cells take well under half a second in every format. The
    /// largest real tables we know of (generated reference tables) have tens of thousands.
    package var tableCells = 1 << 18
    /// Most e-mail address candidates (`x@y`) in one paragraph: libcmark-gfm 0.29's autolink
    /// extension allocates memory that grows with the paragraph for each one.
    package var emailsPerParagraph = 100
    /// Link and image destinations and titles may add up to this many bytes per input byte, plus
    /// ``expansionAllowance`` (as upstream cmark bounds reference expansion since 0.30): a
    /// reference definition used many times repeats its destination in every use.
    package var expansionPerInputByte = 10
    /// See ``expansionPerInputByte``.
    package var expansionAllowance = 100_000
    /// Most steps libcmark-gfm 0.29 may take searching back for emphasis openers in a document
    /// (``EmphasisReplay``), plus ``emphasisStepsPerInputByte`` per input byte. Its searches are
    /// quadratic in the delimiters of a paragraph for shapes like `*t *t … _t*_ _t*_ …` (fixed
    /// upstream in cmark 0.30): 2·10⁸ steps, 4 s, from 160 KB. Text as people write it takes about
    /// one step per delimiter run, at most one per two bytes; at the bound a parse spends well under
    /// a second on them.
    package var emphasisSteps = 10_000_000
    /// See ``emphasisSteps``.
    package var emphasisStepsPerInputByte = 4

    /// The bounds above.
    package static let standard = InputLimits()

    package init() {}

    /// A bound crossed: where, and what to say.
    package struct Violation: Sendable, Equatable, Error {
        /// 1-based line and column in the scanned text.
        package var line: Int
        package var column: Int
        /// One line of English naming the bound, its reason and the option that lifts it.
        package var message: String
    }

    /// The option that lifts every bound, as the messages name it.
    package static let liftOption = "--no-input-limits"

    /// The first bound `bytes` crosses before parsing, or nil.
    package func check(_ bytes: UnsafeBufferPointer<UInt8>) -> Violation? {
        var scan = Scan(limits: self)
        return scan.run(bytes)
    }

    /// The bytes of link and image destinations and titles in a parsed cmark tree, checked against
    /// the expansion bound for an input of `inputBytes` bytes; the first node past it, or nil.
    package func checkExpansion(of root: OpaquePointer, inputBytes: Int) -> (node: OpaquePointer, total: Int, bound: Int)? {
        let bound = expansionPerInputByte * inputBytes + expansionAllowance
        guard let iter = cmark_iter_new(root) else { return nil }
        defer { cmark_iter_free(iter) }
        var total = 0
        while true {
            let event = cmark_iter_next(iter)
            if event == CMARK_EVENT_DONE { return nil }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iter) else { continue }
            let type = cmark_node_get_type(node)
            guard type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE else { continue }
            if let u = cmark_node_get_url(node) { total += strlen(u) }
            if let t = cmark_node_get_title(node) { total += strlen(t) }
            if total > bound { return (node, total, bound) }
        }
    }

    /// The one pass of ``check(_:)``.
    private struct Scan {
        let limits: InputLimits
        var line = 1
        /// The paragraph's emphasis delimiters, replayed at its end (``EmphasisReplay``).
        var emphasis = EmphasisReplay(bound: 0)
        /// An open fence: its character and length.
        var fence: (char: UInt8, length: Int)?
        /// Lines of the current paragraph so far (0: between paragraphs).
        var paragraphLines = 0
        var emails = 0
        /// The open table's columns (0: none), and the autocompleted cells so far.
        var tableColumns = 0
        var autocompleted = 0
        /// Table cells so far in the document (every row counts its table's columns).
        var cells = 0
        /// The previous line of the paragraph could be a table's header row.
        var previousLine: (start: Int, end: Int)?

        /// Link reference definitions (`[label]: destination "title"` at a line's start): the
        /// normalised label → the bytes after its `]:` on that line, and where it is.
        var definitions: [String: (bytes: Int, line: Int, column: Int)] = [:]
        /// `[text]` on one line outside code fences: the normalised text → how often (each may
        /// be a use of a definition of that label).
        var bracketed: [String: Int] = [:]

        mutating func run(_ b: UnsafeBufferPointer<UInt8>) -> Violation? {
            var start = 0
            let n = b.count
            guard let base = b.baseAddress else { return nil }
            let (perByte, overflow) = limits.emphasisStepsPerInputByte.multipliedReportingOverflow(by: n)
            emphasis = EmphasisReplay(bound: overflow ? Int.max : limits.emphasisSteps &+ perByte)
            while start < n {
                let end = memchr(base + start, 0x0A, n - start).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? n
                if let v = lineDone(b, start, end) { return v }
                start = end + 1
                line += 1
            }
            if let v = emphasisDone() { return v }
            return expansion(inputBytes: n)
        }

        /// libcmark-gfm copies a definition's destination and title into every link that uses it,
        /// while it parses: a 512 KB destination used 130 000 times needed 23 GB before any check
        /// after the parse could run. The uses (bracketed text equal to a label, case and spacing
        /// ignored) times each definition's size, against the expansion bound.
        func expansion(inputBytes: Int) -> Violation? {
            guard !definitions.isEmpty else { return nil }
            let bound = limits.expansionPerInputByte * inputBytes + limits.expansionAllowance
            var total = 0
            var worst: (bytes: Int, line: Int, column: Int)?
            for (label, d) in definitions {
                guard let uses = bracketed[label] else { continue }
                // A definition's own `[label]` is counted among the bracketed texts: not a use.
                let (product, overflow) = d.bytes.multipliedReportingOverflow(by: max(uses - 1, 0))
                total = overflow ? Int.max : total &+ product
                if total < 0 { total = Int.max }
                if worst == nil || d.bytes * uses > worst!.bytes { worst = (d.bytes * uses, d.line, d.column) }
            }
            guard total > bound, let w = worst else { return nil }
            return Violation(line: w.line, column: w.column, message:
                "link reference definitions used in links would repeat about \(total) bytes of destinations and titles, more than \(limits.expansionPerInputByte)× the input + \(limits.expansionAllowance) (\(bound)); \(InputLimits.liftOption) lifts the limit")
        }

        /// Lower case, runs of spaces and tabs as one space, trimmed (cmark's label matching, with
        /// ASCII and simple Unicode case folding).
        static func normalisedLabel(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> String {
            var out: [UInt8] = []
            out.reserveCapacity(to - from)
            var space = false
            for i in from..<to {
                let x = b[i]
                if x == 0x20 || x == 0x09 { space = !out.isEmpty; continue }
                if space { out.append(0x20); space = false }
                out.append(x >= 0x41 && x <= 0x5A ? x + 32 : x)
            }
            let s = String(decoding: out, as: UTF8.self)
            return s.utf8.contains(where: { $0 >= 0x80 }) ? s.lowercased() : s
        }

        /// Counts the line's bracketed texts (innermost `[…]` of at most 999 bytes, cmark's label
        /// limit) and records a definition when the line starts with `[label]:`.
        mutating func brackets(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ c: Int, _ end: Int) {
            let base = b.baseAddress!
            guard memchr(base + c, 0x5D, end - c) != nil else { return }
            var open = -1
            var i = c
            while i < end {
                let x = b[i]
                if x == 0x5C { i += 2; continue }
                if x == 0x5B { open = i } else if x == 0x5D, open >= 0 {
                    if i - open - 1 <= 999 {
                        let label = Self.normalisedLabel(b, open + 1, i)
                        if !label.isEmpty {
                            bracketed[label, default: 0] += 1
                            if open == c, i + 1 < end, b[i + 1] == 0x3A, c - start <= 3 || b[start] == 0x3E {
                                let size = end - (i + 2)
                                if size > (definitions[label]?.bytes ?? -1) { definitions[label] = (size, line, c - start + 1) }
                            }
                        }
                    }
                    open = -1
                }
                i += 1
            }
        }

        /// The offset of a line's content after container markers (`>`, spaces, tabs).
        static func contentStart(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
            var i = start
            while i < end, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x3E || b[i] == 0x0D { i += 1 }
            return i
        }

        mutating func lineDone(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Violation? {
            let c = Self.contentStart(b, start, end)
            // Fenced code: nothing inside counts.
            if c + 2 < end, b[c] == 0x60 || b[c] == 0x7E, b[c + 1] == b[c], b[c + 2] == b[c] {
                var k = c
                while k < end, b[k] == b[c] { k += 1 }
                if let f = fence {
                    if f.char == b[c], k - c >= f.length { fence = nil }
                } else {
                    fence = (b[c], k - c)
                    if let v = emphasisDone() { return v }
                    endParagraph()
                }
                return nil
            }
            if fence != nil { return nil }
            if c >= end {
                if let v = emphasisDone() { return v }
                endParagraph()
                return nil
            }
            brackets(b, start, c, end)
            emphasis.scanLine(b, start, c, end, line: line)
            paragraphLines += 1
            // E-mail candidates: an `@` between two letters, digits or `.-_+` (memchr: most lines
            // have none, and the scan stays a small part of a conversion).
            let base = b.baseAddress!
            var i = c
            while i < end, let at = memchr(base + i, 0x40, end - i) {
                i = UnsafeRawPointer(at) - UnsafeRawPointer(base)
                if i > c, i + 1 < end, Self.isAddressByte(b[i - 1]), Self.isAddressByte(b[i + 1]) {
                    emails += 1
                    if emails > limits.emailsPerParagraph {
                        return Violation(line: line, column: i - start + 1, message:
                            "a paragraph with more than \(limits.emailsPerParagraph) e-mail addresses (libcmark-gfm 0.29's autolink extension needs memory growing with the paragraph for each); \(InputLimits.liftOption) lifts the limit")
                    }
                }
                i += 1
            }
            // Tables: a delimiter row under a header row opens one; later rows are its body (in
            // GFM a line without `|` is a row of one cell too). A line without `|` opens none.
            let hasPipe = memchr(base + c, 0x7C, end - c) != nil
            if tableColumns > 0 {
                if let v = countCells(tableColumns, start, c) { return v }
                let cells = hasPipe ? Self.cells(b, c, end) : 1
                if cells < tableColumns {
                    autocompleted += tableColumns - cells
                    if autocompleted > limits.autocompletedCells {
                        return Violation(line: line, column: c - start + 1, message:
                            "table rows short of their header would be filled with more than \(limits.autocompletedCells) empty cells in this document (output with no input: upstream cmark-gfm bounds them too); \(InputLimits.liftOption) lifts the limit")
                    }
                }
            } else if hasPipe, paragraphLines >= 2, previousLine != nil, Self.isDelimiterRow(b, c, end) {
                let columns = Self.cells(b, c, end)
                if columns > limits.tableColumns {
                    return Violation(line: line, column: c - start + 1, message:
                        "a table of \(columns) columns (limit \(limits.tableColumns): libcmark-gfm 0.29 parses a table in time quadratic in its columns); \(InputLimits.liftOption) lifts the limit")
                }
                tableColumns = columns
                // The header row, and the delimiter row (which adds no cells).
                if let v = countCells(columns, start, c) { return v }
            }
            previousLine = (c, end)
            return nil
        }

        /// Adds one row of `columns` cells to the document's count; the violation past the bound.
        mutating func countCells(_ columns: Int, _ start: Int, _ c: Int) -> Violation? {
            cells += columns
            guard cells > limits.tableCells else { return nil }
            return Violation(line: line, column: c - start + 1, message:
                "tables with more than \(limits.tableCells) cells in this document (each cell costs time and output in every format, even empty); \(InputLimits.liftOption) lifts the limit")
        }

        /// The paragraph's emphasis replayed: the violation when the document's steps pass the bound.
        mutating func emphasisDone() -> Violation? {
            guard let at = emphasis.finishParagraph() else { return nil }
            return Violation(line: at.line, column: at.column, message:
                "emphasis delimiters (`*`, `_`, `~`) that libcmark-gfm 0.29 would match in more than \(emphasis.bound) steps (limit \(limits.emphasisSteps) + \(limits.emphasisStepsPerInputByte) per input byte: its search for an opener is quadratic in a paragraph's delimiters for some shapes); \(InputLimits.liftOption) lifts the limit")
        }

        mutating func endParagraph() {
            paragraphLines = 0
            emails = 0
            tableColumns = 0
            previousLine = nil
        }

        static func isAddressByte(_ x: UInt8) -> Bool {
            (x >= 0x30 && x <= 0x39) || (x >= 0x41 && x <= 0x5A) || (x >= 0x61 && x <= 0x7A)
                || x == 0x2E || x == 0x2D || x == 0x5F || x == 0x2B
        }

        /// `|---|:--:|`: only `|`, `-`, `:`, spaces and tabs, at least one `-` and one `|`.
        static func isDelimiterRow(_ b: UnsafeBufferPointer<UInt8>, _ c: Int, _ end: Int) -> Bool {
            var dash = false, pipe = false
            for i in c..<end {
                switch b[i] {
                case 0x2D: dash = true
                case 0x7C: pipe = true
                case 0x3A, 0x20, 0x09, 0x0D: break
                default: return false
                }
            }
            return dash && pipe
        }

        /// The cells of a table row: unescaped `|` separators, less a leading and a trailing one.
        static func cells(_ b: UnsafeBufferPointer<UInt8>, _ c: Int, _ end: Int) -> Int {
            var last = end
            while last > c, b[last - 1] == 0x20 || b[last - 1] == 0x09 || b[last - 1] == 0x0D { last -= 1 }
            guard last > c else { return 0 }
            var pipes = 0
            var i = c
            while i < last {
                if b[i] == 0x5C { i += 2; continue }
                if b[i] == 0x7C { pipes += 1 }
                i += 1
            }
            var cells = pipes + 1
            if b[c] == 0x7C { cells -= 1 }
            if last - 1 > c, b[last - 1] == 0x7C, last < 2 || b[last - 2] != 0x5C { cells -= 1 }
            return max(cells, 1)
        }
    }
}
