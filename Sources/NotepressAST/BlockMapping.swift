/// Copy-on-change rewriting of block trees: the one walker behind every pass that changes a few
/// blocks of a document (site link rewriting, block anchors) and must not copy the rest.
extension Block {
    /// The blocks with `f` applied to each, `nil` when `f` returned `nil` (no change) for all of
    /// them. The array is copied once, at the first change.
    package static func changing(_ blocks: [Block], _ f: (Block) -> Block?) -> [Block]? {
        var out: [Block]?
        for (i, b) in blocks.enumerated() {
            if let n = f(b) {
                if out == nil { out = blocks }
                out![i] = n
            }
        }
        return out
    }

    /// This block with `f` applied to its direct child blocks (those of block quotes, list
    /// items, footnote definitions, alerts and unknown containers), `nil` when it has none or
    /// `f` changed none. Leaves (paragraphs, headings, code, HTML, breaks, tables) give `nil`.
    package func changingChildren(_ f: (Block) -> Block?) -> Block? {
        var b = self
        switch kind {
        case .blockQuote(let children):
            guard let n = Block.changing(children, f) else { return nil }
            b.kind = .blockQuote(n)
        case .list(var list):
            var changed = false
            for (i, item) in list.items.enumerated() {
                if let n = Block.changing(item.blocks, f) {
                    list.items[i].blocks = n
                    changed = true
                }
            }
            guard changed else { return nil }
            b.kind = .list(list)
        case .footnoteDefinition(let label, let children):
            guard let n = Block.changing(children, f) else { return nil }
            b.kind = .footnoteDefinition(label: label, blocks: n)
        case .unknown(let name, let children):
            guard let n = Block.changing(children, f) else { return nil }
            b.kind = .unknown(typeName: name, blocks: n)
        case .alert(var alert):
            guard let n = Block.changing(alert.blocks, f) else { return nil }
            alert.blocks = n
            b.kind = .alert(alert)
        case .definitionList(var items):
            var changed = false
            for i in items.indices {
                for j in items[i].definitions.indices {
                    if let n = Block.changing(items[i].definitions[j], f) {
                        items[i].definitions[j] = n
                        changed = true
                    }
                }
            }
            guard changed else { return nil }
            b.kind = .definitionList(items)
        case .paragraph, .heading, .codeBlock, .htmlBlock, .thematicBreak, .table:
            return nil
        }
        return b
    }
}
