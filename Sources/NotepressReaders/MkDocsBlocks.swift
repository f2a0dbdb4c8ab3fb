import CCmarkGFM
import Foundation
import NotepressAST

/// MkDocs' block extensions `admonition` (`!!! note "Title"`) and `pymdownx.details`
/// (`??? note "Title"` folded, `???+ note` open), read as Python-Markdown reads them (its
/// `admonition` extension; PyMdown's `details`): a marker line, then a body of lines indented
/// by 4 more columns (blank lines inside), which is Markdown again (nested admonitions too).
///
/// A pass over libcmark-gfm's tree and the text, before the real parse: libcmark-gfm first
/// parses the text to find the paragraphs whose first line is a marker line (so a marker in
/// fenced code, in an HTML block or inside a paragraph stays text); each such marker and its
/// body are rewritten, line for line, as a block quote whose first line is an Obsidian callout
/// header behind a private-use sentinel (``sentinel``): `> [!note]- Title`. The
/// ``TreeBuilder`` turns such block quotes into ``Alert``s, the block GitHub alerts and
/// Obsidian callouts are, so every writer shows them. The body is rewritten the same way
/// (nesting, at most ``maxDepth`` deep). Lines keep their numbers; a body line's columns move
/// 2 left (its 4 columns of indentation become `> `).
///
/// Types: the first word after the marker (Python-Markdown takes the others as CSS classes),
/// by Obsidian's callout names and aliases (``Alert/kind(ofCalloutType:)``; MkDocs Material
/// names the same kinds). Title: the quoted text (`""`: no title), else the type capitalised.
/// A marker line that does not match Python-Markdown's pattern stays text.
package enum MkDocsBlocks {
    /// The private-use character in front of a rewritten marker line (a callout with its title).
    package static let sentinel: Unicode.Scalar = "\u{E010}"
    /// The same for an admonition written with an empty title (`!!! note ""`): no title.
    package static let untitledSentinel: Unicode.Scalar = "\u{E011}"
    /// The sentinel in front of a content tab's title (`=== "Tab"`), in a level-6 heading.
    package static let tabSentinel: Unicode.Scalar = "\u{E012}"
    /// The same for the tab selected at first (`===+ "Tab"`).
    package static let selectedTabSentinel: Unicode.Scalar = "\u{E013}"
    /// The private-use character in front of a line that ends the admonition before it and
    /// starts a block quote of its own (a marker line, or a `> ` quote, right after an
    /// admonition's body, no blank line between): ``TreeBuilder`` cuts the block quote there.
    package static let quoteCut: Unicode.Scalar = "\u{E014}"
    /// The same for a line that ends the admonition before it and is no quote (an unindented
    /// line right after the body, which libcmark-gfm would take as a lazy continuation):
    /// Python-Markdown's admonition reads only the indented lines, the rest is a block of its own.
    package static let outCut: Unicode.Scalar = "\u{E015}"
    /// Deepest nesting of admonitions rewritten (deeper markers stay text).
    package static let maxDepth = 16

    /// A marker line's parts.
    struct Header: Equatable {
        /// The type (first word) as written.
        var type: String
        /// `???` folded, `???+` open; `nil` for `!!!`.
        var fold: Alert.Fold?
        /// The quoted title; `""` when written empty; `nil` when none was written.
        var title: String?
        /// A content tab (`===`): selected at first (`===+`).
        var tab = false
        var selected = false
        /// `===!`: the tab starts a new set.
        var newSet = false
    }

    /// Whether `bytes` may hold a marker line the `extensions` read (a line whose first
    /// non-blank bytes are `!!!` or `???`): the quick test before any work.
    static func mayHoldMarker(_ bytes: UnsafeBufferPointer<UInt8>, _ extensions: Set<MkDocsExtension>) -> Bool {
        let bang = extensions.contains(.admonition), question = extensions.contains(.details)
        let equals = extensions.contains(.tabbed)
        guard bang || question || equals else { return false }
        var atLineStart = true
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b == 0x0A || b == 0x0D { atLineStart = true; i += 1; continue }
            if atLineStart {
                if b == 0x20 || b == 0x09 || b == 0x3E || b == 0x2D || b == 0x2A || b == 0x2B { i += 1; continue }
                if i + 2 < n, (bang && b == 0x21) || (question && b == 0x3F) || (equals && b == 0x3D),
                   bytes[i + 1] == b, bytes[i + 2] == b { return true }
                atLineStart = false
            }
            i += 1
        }
        return false
    }

    /// A paragraph that starts like a marker line but is not one (`!!! note "unclosed`): left
    /// as text, reported. 1-based line and byte column in the text given.
    package struct Literal: Sendable, Equatable {
        package var line: Int
        package var column: Int
        /// The marker line as written.
        package var text: String
    }

    /// `bytes` with the admonitions the `extensions` turn on rewritten (see the type), `nil`
    /// when there is none; and the marker-like lines left as text.
    package static func rewrite(_ bytes: UnsafeBufferPointer<UInt8>, extensions: Set<MkDocsExtension>) -> (bytes: [UInt8]?, literal: [Literal]) {
        guard mayHoldMarker(bytes, extensions) else { return (nil, []) }
        let lines = Lines(Array(bytes))
        var literal: [Literal] = []
        let out = rewrite(lines, extensions: extensions, depth: 0, at: (0, 0), literal: &literal)
        return (out.changed ? out.bytes : nil, literal)
    }

    /// Whether `s` starts as a marker line the `extensions` read would (`!!!`, `???`, `===`).
    static func looksLikeMarker(_ s: ArraySlice<UInt8>, _ extensions: Set<MkDocsExtension>) -> Bool {
        let u = Array(s.prefix(3))
        guard u.count == 3, u[0] == u[1], u[1] == u[2] else { return false }
        return (u[0] == 0x21 && extensions.contains(.admonition)) || (u[0] == 0x3F && extensions.contains(.details))
            || (u[0] == 0x3D && extensions.contains(.tabbed))
    }

    /// A text's lines: each line's bytes without its ending, and the ending.
    struct Lines {
        var content: [ArraySlice<UInt8>] = []
        var endings: [ArraySlice<UInt8>] = []

        init(_ text: [UInt8]) {
            var start = 0, i = 0
            let n = text.count
            while i < n {
                let b = text[i]
                guard b == 0x0A || b == 0x0D else { i += 1; continue }
                var end = i + 1
                if b == 0x0D, end < n, text[end] == 0x0A { end += 1 }
                content.append(text[start..<i])
                endings.append(text[i..<end])
                start = end
                i = end
            }
            if start < n { content.append(text[start..<n]); endings.append([]) }
        }

        init(content: [ArraySlice<UInt8>], endings: [ArraySlice<UInt8>]) {
            self.content = content
            self.endings = endings
        }

        var joined: [UInt8] {
            var out: [UInt8] = []
            for k in content.indices { out += content[k]; out += endings[k] }
            return out
        }
    }

    /// The positions (0-based line, 0-based byte column) of the paragraphs whose first line
    /// libcmark-gfm read starting at a marker, in order.
    /// `literal`: the paragraphs that start like one and are not (0-based line and column).
    static func markerParagraphs(_ text: [UInt8], _ lines: Lines, _ extensions: Set<MkDocsExtension>,
                                 literal: inout [(line: Int, column: Int)]) -> [(line: Int, column: Int)] {
        var found: [(line: Int, column: Int)] = []
        MarkdownReader.withLibraryLock {
            guard let parser = cmark_parser_new(0) else { return }
            defer { cmark_parser_free(parser) }
            text.withUnsafeBufferPointer { buf in
                buf.withMemoryRebound(to: CChar.self) { if let base = $0.baseAddress { cmark_parser_feed(parser, base, $0.count) } }
            }
            guard let root = cmark_parser_finish(parser) else { return }
            defer { cmark_node_free(root) }
            guard let iter = cmark_iter_new(root) else { return }
            defer { cmark_iter_free(iter) }
            while true {
                let ev = cmark_iter_next(iter)
                if ev == CMARK_EVENT_DONE { break }
                guard ev == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iter),
                      cmark_node_get_type(node) == CMARK_NODE_PARAGRAPH else { continue }
                let line = Int(cmark_node_get_start_line(node)) - 1, column = Int(cmark_node_get_start_column(node)) - 1
                guard line >= 0, line < lines.content.count, column >= 0 else { continue }
                let c = lines.content[line]
                guard column < c.count, header(c.dropFirst(column), extensions) != nil else {
                    if column < c.count, looksLikeMarker(c.dropFirst(column), extensions) { literal.append((line, column)) }
                    continue
                }
                found.append((line, column))
                // A marker at the same column on a later line of the paragraph (a marker right
                // after the body of the one before, no blank line between) starts a block too.
                let end = min(Int(cmark_node_get_end_line(node)), lines.content.count)
                for k in (line + 1)..<max(line + 1, end) {
                    let l = lines.content[k]
                    if l.count > column, l.prefix(column).allSatisfy({ $0 == 0x20 }) || l.prefix(column).elementsEqual(c.prefix(column)),
                       header(l.dropFirst(column), extensions) != nil { found.append((k, column)) }
                }
            }
        }
        return found
    }

    /// The marker line `s` (from its `!!!` or `???`), or `nil` (Python-Markdown's patterns:
    /// `!!! ?TYPE( +CLASS)*( +"TITLE")? *`, and `???+?` likewise).
    static func header(_ s: ArraySlice<UInt8>, _ extensions: Set<MkDocsExtension>) -> Header? {
        var u = Array(s)
        while let last = u.last, last == 0x20 || last == 0x09 { u.removeLast() }
        guard u.count > 3, u[0] == u[1], u[1] == u[2] else { return nil }
        if u[0] == 0x3D { return extensions.contains(.tabbed) ? tabHeader(u) : nil }
        var fold: Alert.Fold?
        var i = 3
        switch u[0] {
        case 0x21 where extensions.contains(.admonition): break
        case 0x3F where extensions.contains(.details):
            fold = .closed
            if u[3] == 0x2B { fold = .open; i = 4 }
        default: return nil
        }
        while i < u.count, u[i] == 0x20 { i += 1 }
        func isWord(_ b: UInt8) -> Bool { b == 0x2D || b == 0x5F || (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A) || b >= 0x80 }
        let typeStart = i
        while i < u.count, isWord(u[i]) { i += 1 }
        guard i > typeStart else { return nil }
        let type = String(decoding: u[typeStart..<i], as: UTF8.self)
        // Further words (CSS classes), then an optional quoted title, then the end.
        while i < u.count {
            guard u[i] == 0x20 else { return nil }
            while i < u.count, u[i] == 0x20 { i += 1 }
            if i < u.count, u[i] == 0x22 {
                guard u.count - i >= 2, u[u.count - 1] == 0x22 else { return nil }
                let title = String(decoding: u[(i + 1)..<(u.count - 1)], as: UTF8.self)
                return Header(type: type, fold: fold, title: title)
            }
            while i < u.count, isWord(u[i]) { i += 1 }
        }
        return Header(type: type, fold: fold, title: nil)
    }

    /// A content tab's marker line `u` (PyMdown's `tabbed`: `===[+!]* +"TITLE" *`), or `nil`.
    static func tabHeader(_ u: [UInt8]) -> Header? {
        var h = Header(type: "", tab: true)
        var i = 3
        while i < u.count, u[i] == 0x2B || u[i] == 0x21 {
            if u[i] == 0x2B { h.selected = true } else { h.newSet = true }
            i += 1
        }
        let blanks = i
        while i < u.count, u[i] == 0x20 { i += 1 }
        guard i > blanks, u.count - i >= 2, u[i] == 0x22, u[u.count - 1] == 0x22 else { return nil }
        h.title = String(decoding: u[(i + 1)..<(u.count - 1)], as: UTF8.self)
        return h
    }

    /// Whether `line` is blank (spaces and tabs only) once its first `prefix` bytes are skipped.
    static func isBlank(_ line: ArraySlice<UInt8>, after prefix: Int) -> Bool {
        line.dropFirst(prefix).allSatisfy { $0 == 0x20 || $0 == 0x09 } || line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x3E }
    }

    /// The body of `line` when it is indented 4 columns (4 spaces or a tab) past `prefix`
    /// bytes, else `nil`.
    static func indentedBody(_ line: ArraySlice<UInt8>, prefix: Int) -> ArraySlice<UInt8>? {
        let rest = line.dropFirst(prefix)
        guard line.count > prefix else { return nil }
        if rest.first == 0x09 { return rest.dropFirst() }
        var spaces = 0
        for b in rest.prefix(4) { if b == 0x20 { spaces += 1 } else if b == 0x09 { return rest.dropFirst(spaces + 1) } else { break } }
        return spaces == 4 ? rest.dropFirst(4) : nil
    }

    /// `lines` rewritten; `changed`: whether anything was. `at`: the 0-based line and column of
    /// `lines`' start in the text first given (for `literal`).
    static func rewrite(_ lines: Lines, extensions: Set<MkDocsExtension>, depth: Int, at: (line: Int, column: Int),
                        literal: inout [Literal]) -> (bytes: [UInt8], changed: Bool) {
        let text = lines.joined
        guard depth < maxDepth else { return (text, false) }
        var missed: [(line: Int, column: Int)] = []
        let markers = markerParagraphs(text, lines, extensions, literal: &missed)
        for m in missed {
            var t = Array(lines.content[m.line].dropFirst(m.column))
            while t.last == 0x20 || t.last == 0x09 { t.removeLast() }
            literal.append(Literal(line: at.line + m.line + 1, column: at.column + m.column + 1, text: String(decoding: t, as: UTF8.self)))
        }
        guard !markers.isEmpty else { return (text, false) }
        var out = lines
        var claimedUntil = -1
        // Lines that end the admonition before them (``quoteCut``, ``outCut``), and the lines
        // that may be lazy continuations of one (checked once the text is rewritten).
        var cuts: [Int: Unicode.Scalar] = [:]
        var lazy: [(quoteLine: Int, line: Int, column: Int)] = []
        let markerLines = Set(markers.map(\.line))
        for (index, m) in markers.enumerated() where m.line > claimedUntil {
            let marker = lines.content[m.line]
            guard let h = header(marker.dropFirst(m.column), extensions) else { continue }
            // The body: the following lines indented 4 past the marker, blank lines inside.
            var last = m.line
            var k = m.line + 1
            while k < lines.content.count {
                if isBlank(lines.content[k], after: m.column) { k += 1; continue }
                guard indentedBody(lines.content[k], prefix: m.column) != nil else { break }
                last = k
                k += 1
            }
            claimedUntil = last
            let bodyRange = (m.line + 1)..<(last + 1)
            let inner = Lines(content: bodyRange.map { indentedBody(lines.content[$0], prefix: m.column) ?? [] },
                              endings: bodyRange.map { lines.endings[$0] })
            let rewritten = Lines(rewrite(inner, extensions: extensions, depth: depth + 1,
                                          at: (at.line + m.line + 1, at.column + m.column + 4), literal: &literal).bytes)
            var head = Array(marker.prefix(m.column)) + Array("> ".utf8)
            if h.tab {
                // A tab: a level-6 heading (one line, it interrupts the tab before) in the set's
                // block quote, which goes on over the blank lines up to the next tab of the set.
                let sentinel = h.selected ? selectedTabSentinel : tabSentinel
                head += Array(("###### " + String(Character(sentinel)) + (h.title ?? "")).utf8)
                if index + 1 < markers.count, case let next = markers[index + 1], next.column == m.column,
                   let nh = header(lines.content[next.line].dropFirst(next.column), extensions), nh.tab, !nh.newSet,
                   ((last + 1)..<next.line).allSatisfy({ isBlank(lines.content[$0], after: m.column) }) {
                    for k in (last + 1)..<next.line { out.content[k] = (Array(lines.content[k].prefix(m.column)) + [0x3E])[...] }
                }
            }
            if !h.tab {
                // Right after a line that is not blank (another admonition's body, no blank line
                // between): a new admonition, as Python-Markdown starts one at each marker line.
                if m.line > 0, !isBlank(lines.content[m.line - 1], after: m.column) { head += Array(String(Character(quoteCut)).utf8) }
                head += Array(String(h.title == "" ? Character(untitledSentinel) : Character(sentinel)).utf8)
                head += Array("[!\(h.type)]".utf8)
                if let f = h.fold { head.append(f == .open ? 0x2B : 0x2D) }
                if let t = h.title, !t.isEmpty { head += Array((" " + t).utf8) }
            }
            out.content[m.line] = head[...]
            for (j, k) in bodyRange.enumerated() {
                let prefix = Array(lines.content[k].prefix(m.column))
                let body = j < rewritten.content.count ? rewritten.content[j] : []
                out.content[k] = (prefix + (body.isEmpty ? Array(">".utf8) : Array("> ".utf8) + body))[...]
            }
            if let next = followingLine(lines, after: last, column: m.column), !markerLines.contains(next.line) {
                if next.quote { cuts[next.line] = quoteCut } else { lazy.append((m.line, next.line, next.column)) }
            }
        }
        if !lazy.isEmpty {
            let ends = quoteEnds(out.joined)
            for l in lazy where (ends[l.quoteLine] ?? -1) >= l.line { cuts[l.line] = outCut }
        }
        for (line, cut) in cuts {
            guard let column = cut == quoteCut ? quoteContentColumn(out.content[line]) : contentColumn(out.content[line]) else { continue }
            var c = Array(out.content[line])
            c.insert(contentsOf: Array(String(Character(cut)).utf8), at: column)
            out.content[line] = c[...]
        }
        return (out.joined, true)
    }

    /// The line right after an admonition's last line `last` (its marker's `column`) when it is
    /// not blank: its index, whether it is a block quote line holding a callout marker or text
    /// (`> [!warning]`, `> Text`), and the byte column where its text starts.
    static func followingLine(_ lines: Lines, after last: Int, column: Int) -> (line: Int, quote: Bool, column: Int)? {
        let k = last + 1
        guard k < lines.content.count, !isBlank(lines.content[k], after: column) else { return nil }
        if let q = quoteContentColumn(lines.content[k]) { return (k, true, q) }
        guard let c = contentColumn(lines.content[k]) else { return nil }
        return (k, false, c)
    }

    /// The column after a line's leading blanks, `nil` for a blank line.
    static func contentColumn(_ line: ArraySlice<UInt8>) -> Int? {
        line.firstIndex { $0 != 0x20 && $0 != 0x09 }.map { $0 - line.startIndex }
    }

    /// The column of a block quote line's text (after up to 3 blanks, `>` and one blank) when
    /// that text is a callout marker (`[!`), a letter or a rewritten marker line, else `nil`
    /// (a heading, list or code in the quote keeps its reading).
    static func quoteContentColumn(_ line: ArraySlice<UInt8>) -> Int? {
        let u = Array(line)
        var i = 0
        while i < u.count, i < 3, u[i] == 0x20 { i += 1 }
        guard i < u.count, u[i] == 0x3E else { return nil }
        i += 1
        if i < u.count, u[i] == 0x20 { i += 1 }
        guard i < u.count else { return nil }
        let b = u[i]
        let letter = (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A
        let callout = b == 0x5B && i + 1 < u.count && u[i + 1] == 0x21
        return letter || callout || b == 0xEE ? i : nil
    }

    /// The 0-based last line of each block quote of `text` (the outermost of those starting on a
    /// line), by its 0-based first line.
    static func quoteEnds(_ text: [UInt8]) -> [Int: Int] {
        var ends: [Int: Int] = [:]
        MarkdownReader.withLibraryLock {
            guard let parser = cmark_parser_new(0) else { return }
            defer { cmark_parser_free(parser) }
            text.withUnsafeBufferPointer { buf in
                buf.withMemoryRebound(to: CChar.self) { if let base = $0.baseAddress { cmark_parser_feed(parser, base, $0.count) } }
            }
            guard let root = cmark_parser_finish(parser) else { return }
            defer { cmark_node_free(root) }
            guard let iter = cmark_iter_new(root) else { return }
            defer { cmark_iter_free(iter) }
            while case let ev = cmark_iter_next(iter), ev != CMARK_EVENT_DONE {
                guard ev == CMARK_EVENT_ENTER, let n = cmark_iter_get_node(iter), cmark_node_get_type(n) == CMARK_NODE_BLOCK_QUOTE else { continue }
                let start = Int(cmark_node_get_start_line(n)) - 1
                if ends[start] == nil { ends[start] = Int(cmark_node_get_end_line(n)) - 1 }
            }
        }
        return ends
    }
}

extension TreeBuilder {
    /// The admonition a block quote of `blocks` is (``MkDocsBlocks``' rewrite: its first run
    /// starts with the sentinel, then a callout header), or `nil`.
    static func admonition(_ blocks: [Block]) -> Alert? {
        guard let head = blocks.first, case .paragraph(var inl) = head.kind, let first = inl.runs.first,
              first.span == nil, case .text(let t) = first.content, let s = t.unicodeScalars.first,
              s == MkDocsBlocks.sentinel || s == MkDocsBlocks.untitledSentinel else { return nil }
        inl.runs[0].content = .text(String(t.unicodeScalars.dropFirst()))
        var rest = blocks
        rest[0] = Block(.paragraph(inl), position: head.position)
        guard var alert = callout(rest) else { return nil }
        if s == MkDocsBlocks.untitledSentinel { alert.title = "" }
        // No marker in the source: a writer that gives a GitHub alert back as the block quote
        // it was read from (an HTML fragment) writes this one as an alert.
        alert.marker = ""
        return alert
    }
}

extension TreeBuilder {
    /// The content tabs a block quote of `blocks` is (``MkDocsBlocks``' rewrite: its first block
    /// a level-6 heading whose text starts with a tab sentinel; each such heading starts a tab),
    /// as ``ContentTabs`` has them, or `nil`.
    static func tabbedSet(_ blocks: [Block]) -> Block.Kind? {
        guard let first = blocks.first, tabLabel(first) != nil else { return nil }
        var tabs: [Block] = []
        for b in blocks {
            if let (label, selected) = tabLabel(b) {
                let name = selected ? ContentTabs.selectedTab : ContentTabs.tab
                tabs.append(Block(.unknown(typeName: name, blocks: [Block(.paragraph(strong(label)), position: b.position)]),
                                  position: b.position))
            } else if let k = tabs.indices.last, case .unknown(let name, var content) = tabs[k].kind {
                content.append(b)
                tabs[k].kind = .unknown(typeName: name, blocks: content)
            }
        }
        return .unknown(typeName: ContentTabs.set, blocks: tabs)
    }

    /// A rewritten tab heading's label (sentinel taken off) and whether it is selected at first.
    static func tabLabel(_ b: Block) -> (Inlines, Bool)? {
        guard case .heading(6, var inl) = b.kind, let first = inl.runs.first, first.span == nil,
              case .text(let t) = first.content, let s = t.unicodeScalars.first,
              s == MkDocsBlocks.tabSentinel || s == MkDocsBlocks.selectedTabSentinel else { return nil }
        let rest = String(t.unicodeScalars.dropFirst())
        if rest.isEmpty { inl.runs.removeFirst() } else { inl.runs[0].content = .text(rest) }
        return (inl, s == MkDocsBlocks.selectedTabSentinel)
    }

    /// `inl` inside one strong span.
    static func strong(_ inl: Inlines) -> Inlines {
        var spans = [InlineSpan(.strong)]
        for var s in inl.spans {
            s.parent = (s.parent ?? -1) + 1
            spans.append(s)
        }
        let runs = inl.runs.map { r -> InlineRun in var r = r; r.span = (r.span ?? -1) + 1; return r }
        return Inlines(runs: runs, spans: spans)
    }
}
