import CCmarkGFM
import NotepressAST

/// ``TreeBuilder``'s side of ``VaultSyntax``: placeholders in text become math and highlight
/// spans; in literals (code, raw HTML, destinations) they become the source text again.
extension TreeBuilder {
    /// `s` as the source had it (``VaultSyntax/restore(_:)``), for literals.
    func literal(_ s: String) -> String {
        guard let vault, VaultSyntax.hasPlaceholder(s) else { return s }
        return vault.restore(s)
    }

    /// A soft break held back until the next run: dropped when the next text is the continuation
    /// line of a multi-line math span.
    mutating func flushBreak() {
        guard deferredSoftBreak else { return }
        deferredSoftBreak = false
        addRunNow(.softBreak)
    }

    /// Text that may hold placeholders.
    mutating func addVaultText(_ text: String, _ pos: SourcePosition?) {
        if text.unicodeScalars.first?.value == 0xE004 { deferredSoftBreak = false }
        for piece in VaultSyntax.pieces(text) {
            switch piece {
            case .text(let t):
                // The piece's byte offset in the node's text, for wiki links' columns.
                let offset = text.utf8.distance(from: text.utf8.startIndex, to: t.startIndex)
                addPlainText(String(t), pos.map { SourcePosition(line: $0.line, column: $0.column + offset) })
            case .comment, .continuation: continue
            case .math(let k):
                guard let vault, k < vault.math.count else { continue }
                flushBreak()
                inlines.append(.text(vault.math[k].tex), in: .math(display: vault.math[k].display))
                lastRunIsOpenText = false
            case .highlightOpen(let k):
                if let vault, k < vault.highlightClosed.count, vault.highlightClosed[k] {
                    flushBreak()
                    inlines.push(.highlight)
                    lastRunIsOpenText = false
                    highlightLevels.append(spanPushed.count)
                } else {
                    addRun(.text("=="))
                }
            case .highlightClose:
                if let level = highlightLevels.last, level == spanPushed.count {
                    flushBreak()
                    inlines.pop()
                    highlightLevels.removeLast()
                    lastRunIsOpenText = false
                } else {
                    addRun(.text("=="))
                }
            }
        }
    }

    /// Closes the highlights opened inside the inline node being exited (their closer was in
    /// another node: they end with it).
    mutating func closeInnerHighlights() {
        while let level = highlightLevels.last, level >= spanPushed.count {
            inlines.pop()
            highlightLevels.removeLast()
            lastRunIsOpenText = false
        }
    }

    /// A ```` ```math ```` block as a paragraph of one display math span.
    static func mathBlock(_ literal: String, _ pos: SourcePosition?) -> Block {
        var tex = literal
        if tex.hasSuffix("\n") { tex.removeLast() }
        var b = InlinesBuilder()
        b.append(.text(tex), in: .math(display: true))
        return Block(.paragraph(b.take()), position: pos)
    }

    /// Whether a fenced block's info string names math (its first word is `math`).
    static func isMathInfo(_ info: String) -> Bool {
        info.split(separator: " ", maxSplits: 1).first.map { $0 == "math" } ?? false
    }
}

extension TreeBuilder {
    /// The Obsidian callout a block quote of `blocks` is, or `nil`: its first paragraph starts
    /// with `[!type]` (``Alert/calloutHeader(_:)``), in no span, and the rest of that line is the
    /// title (its plain text). Any depth; the content may be empty (a callout of a title only).
    static func callout(_ blocks: [Block]) -> Alert? {
        guard let head = blocks.first, case .paragraph(let inl) = head.kind, let first = inl.runs.first,
              first.span == nil, case .text(let t) = first.content, t.hasPrefix("[!") else { return nil }
        let lineEnd = inl.runs.firstIndex { if case .softBreak = $0.content { return true }; if case .hardBreak = $0.content { return true }; return false }
        let end = lineEnd ?? inl.runs.count
        let line = inl.subrange(0..<end).plainText
        guard let header = Alert.calloutHeader(line) else { return nil }
        var content = Array(blocks.dropFirst())
        let markerEnd: Alert.MarkerEnd
        if let lineEnd {
            if case .hardBreak = inl.runs[lineEnd].content { markerEnd = .hardBreak } else { markerEnd = .softBreak }
            var rest = inl
            rest.runs.removeFirst(lineEnd + 1)
            if !rest.isEmpty {
                let position = head.position.map { SourcePosition(line: $0.line + 1, column: $0.column) }
                content.insert(Block(.paragraph(rest), position: position), at: 0)
            }
        } else {
            markerEnd = .paragraphEnd
        }
        let kind = Alert.kind(ofCalloutType: header.type)
        let title = header.title ?? (header.type.prefix(1).uppercased() + header.type.dropFirst().lowercased())
        let titleInlines = header.title == nil ? nil : calloutTitle(inl.subrange(0..<end), line: line)
        return Alert(kind: kind, marker: line, markerEnd: markerEnd, blocks: content, title: title, fold: header.fold,
                     titleInlines: titleInlines)
    }

    /// The title part of a callout's first line (`line`'s inlines): the runs after `[!type]`, its
    /// fold sign and blanks, with their spans (code, emphasis, math, links); blanks at the end
    /// dropped. `nil` when the marker is not plain text in no span (the plain title is used).
    static func calloutTitle(_ inl: Inlines, line: String) -> Inlines? {
        let u = Array(line.utf8)
        guard var skip = u.firstIndex(of: 0x5D).map({ $0 + 1 }) else { return nil }
        if skip < u.count, u[skip] == 0x2D || u[skip] == 0x2B { skip += 1 }
        while skip < u.count, u[skip] == 0x20 || u[skip] == 0x09 { skip += 1 }
        var out = inl
        while skip > 0 {
            guard let first = out.runs.first, first.span == nil, case .text(let t) = first.content else { return nil }
            let bytes = Array(t.utf8)
            if bytes.count <= skip {
                skip -= bytes.count
                out.runs.removeFirst()
            } else {
                out.runs[0].content = .text(String(decoding: bytes[skip...], as: UTF8.self))
                skip = 0
            }
        }
        if let k = out.runs.indices.last, out.runs[k].span == nil, case .text(let t) = out.runs[k].content {
            var s = Substring(t)
            while s.last == " " || s.last == "\t" { s = s.dropLast() }
            if s.isEmpty { out.runs.removeLast() } else { out.runs[k].content = .text(String(s)) }
        }
        return out.runs.isEmpty ? nil : out
    }
}

extension TreeBuilder {
    /// Obsidian's size after an image's alt text (`![alt|100x100](shot.png)`, ``WikiLinkSyntax/size(_:)``):
    /// taken off the image's last text child (the alt text loses `|100x100`) and returned as
    /// width and height; `(nil, nil)` when the alt text ends with no size.
    static func takeImageSize(_ image: OpaquePointer) -> (Int?, Int?) {
        guard let last = cmark_node_last_child(image), cmark_node_get_type(last) == CMARK_NODE_TEXT,
              let literal = cmark_node_get_literal(last) else { return (nil, nil) }
        let text = String(cString: literal)
        guard let bar = text.lastIndex(of: "|"), let size = WikiLinkSyntax.size(text[text.index(after: bar)...]) else { return (nil, nil) }
        cmark_node_set_literal(last, String(text[..<bar]).trimmingTrailingSpaces())
        return (size.width, size.height)
    }
}

extension String {
    /// Without trailing spaces and tabs.
    fileprivate func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return String(s)
    }
}
