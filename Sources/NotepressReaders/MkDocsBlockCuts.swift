import NotepressAST

/// Where an admonition ends without a blank line after it (``MkDocsBlocks/quoteCut``,
/// ``MkDocsBlocks/outCut``): libcmark-gfm reads the rewritten block quote on over such a line (a
/// `>` line continues it, an unindented line is a lazy continuation), Python-Markdown does not
/// (its admonition takes the indented lines only; a marker line starts a new admonition). The
/// ``TreeBuilder`` cuts the block quote at each such line: what comes before is the admonition,
/// what comes after a block quote of its own (another admonition, a callout, a quote) or blocks
/// outside any quote.
///
/// A cut found in a block quote nested in the admonition's body (a lazy line after a quote in
/// the body) is resolved by that inner quote: its rest stays in the admonition.
extension TreeBuilder {
    /// What follows a cut.
    enum AdmonitionCut {
        /// A block quote of its own.
        case quote
        /// Blocks outside any quote.
        case out
    }

    /// The blocks a block quote of `items` (at `position`) is read as, cut at every cut line.
    func resolvedQuote(_ items: [Block], position: SourcePosition?) -> [Block] {
        var out: [Block] = []
        var rest = items, inQuote = true, at = position
        while true {
            guard let s = Self.splitAtCut(rest) else {
                if inQuote { out.append(quoteBlock(rest, position: at)) } else { out += rest }
                return out
            }
            if !s.before.isEmpty {
                if inQuote { out.append(quoteBlock(s.before, position: at)) } else { out += s.before }
            }
            rest = s.after
            inQuote = s.cut == .quote
            at = s.after.first?.position
        }
    }

    /// `blocks` split at their first cut line (in document order; lists and nested containers
    /// searched too), the cut sentinel taken off; `nil` when there is none.
    static func splitAtCut(_ blocks: [Block]) -> (before: [Block], cut: AdmonitionCut, after: [Block])? {
        for (i, b) in blocks.enumerated() {
            switch b.kind {
            case .paragraph(let inl):
                guard let (k, cut) = cutRun(inl) else { continue }
                var before = Array(blocks[..<i])
                // The line break before the cut line ends the first part.
                if k > 1 { before.append(Block(.paragraph(MkDocsSyntax.compacted(inl.subrange(0..<(k - 1)))), position: b.position)) }
                var tail = MkDocsSyntax.compacted(inl.subrange(k..<inl.runs.count))
                if case .text(let t) = tail.runs[0].content {
                    let stripped = String(t.unicodeScalars.dropFirst())
                    if stripped.isEmpty { tail.runs.removeFirst() } else { tail.runs[0].content = .text(stripped) }
                }
                let breaks = inl.runs[..<k].filter { if case .softBreak = $0.content { return true }; if case .hardBreak = $0.content { return true }; return false }.count
                let position = b.position.map { SourcePosition(line: $0.line + breaks, column: $0.column) }
                let after = (tail.runs.isEmpty ? [] : [Block(.paragraph(tail), position: position)]) + Array(blocks[(i + 1)...])
                return (before, cut, after)
            case .list(let l):
                for (j, item) in l.items.enumerated() {
                    guard let s = splitAtCut(item.blocks) else { continue }
                    var before = Array(blocks[..<i])
                    var head = l
                    head.items = Array(l.items[..<j])
                    if !s.before.isEmpty {
                        var it = item
                        it.blocks = s.before
                        head.items.append(it)
                    }
                    if !head.items.isEmpty { before.append(Block(.list(head), position: b.position)) }
                    var after = s.after
                    if j + 1 < l.items.count {
                        var tail = l
                        tail.items = Array(l.items[(j + 1)...])
                        after.append(Block(.list(tail), position: tail.items.first?.position))
                    }
                    return (before, s.cut, after + Array(blocks[(i + 1)...]))
                }
            default: continue
            }
        }
        return nil
    }

    /// The index of the first run of `inl` that starts a line with a cut sentinel (at the
    /// start or after a line break), and which cut it is.
    static func cutRun(_ inl: Inlines) -> (Int, AdmonitionCut)? {
        var lineStart = true
        for (k, r) in inl.runs.enumerated() {
            switch r.content {
            case .softBreak, .hardBreak: lineStart = true
            case .text(let t) where lineStart && r.span == nil:
                if let s = t.unicodeScalars.first, s == MkDocsBlocks.quoteCut || s == MkDocsBlocks.outCut {
                    return (k, s == MkDocsBlocks.quoteCut ? .quote : .out)
                }
                lineStart = false
            default: lineStart = false
            }
        }
        return nil
    }

    /// The block a block quote of `items` is: an admonition, content tabs, a GitHub alert (at
    /// the top level), an Obsidian callout, else a block quote.
    func quoteBlock(_ items: [Block], position p: SourcePosition?) -> Block {
        if admonitions, let admonition = Self.admonition(items) {
            return Block(.alert(admonition), position: p)
        } else if admonitions, let tabs = Self.tabbedSet(items) {
            return Block(tabs, position: p)
        } else if alerts, case .root? = stack.last, let alert = Self.alert(items) {
            return Block(.alert(alert), position: p)
        } else if callouts, let callout = Self.callout(items) {
            return Block(.alert(callout), position: p)
        }
        return Block(.blockQuote(items), position: p)
    }
}
