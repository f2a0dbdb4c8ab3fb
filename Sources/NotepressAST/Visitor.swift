/// Limits every reader enforces so that no later stage can recurse without bound.
package enum ASTLimits {
    /// The deepest container nesting (block quotes, lists, list items, footnote definitions) kept
    /// in the tree. Deeper containers are flattened into their ancestor at this depth and the reader
    /// emits a warning. Emitters may therefore recurse over blocks.
    package static let maxNestingDepth = 128
}

/// Visits blocks. Every method has a default that calls ``defaultVisit(_:)``, so an emitter
/// implements only the kinds it treats specially and a new kind does not break it.
public protocol BlockVisitor {
    /// A paragraph: its inline `content` (``Block/Kind/paragraph(_:)``).
    mutating func visitParagraph(_ content: Inlines, _ block: Block)
    /// A heading of `level` 1…6 with its inline `content`.
    mutating func visitHeading(level: Int, _ content: Inlines, _ block: Block)
    /// A block quote and the blocks in it.
    mutating func visitBlockQuote(_ children: [Block], _ block: Block)
    /// A list (its items hold their blocks).
    mutating func visitList(_ list: ListBlock, _ block: Block)
    /// A code block: its info string (`""` when none) and literal text.
    mutating func visitCodeBlock(info: String, literal: String, _ block: Block)
    /// A raw HTML block, verbatim.
    mutating func visitHTMLBlock(_ html: String, _ block: Block)
    /// A thematic break (`---`).
    mutating func visitThematicBreak(_ block: Block)
    /// A GFM table.
    mutating func visitTable(_ table: Table, _ block: Block)
    /// A footnote definition: its label and the blocks in it.
    mutating func visitFootnoteDefinition(label: String, _ children: [Block], _ block: Block)
    /// A node this version does not know: its type name and children.
    mutating func visitUnknown(typeName: String, _ children: [Block], _ block: Block)
    /// A GitHub alert.
    mutating func visitAlert(_ alert: Alert, _ block: Block)
    /// A definition list (MkDocs `def_list`).
    mutating func visitDefinitionList(_ items: [DefinitionItem], _ block: Block)
    /// Called by every `visit…` method that is not implemented. The default visits children
    /// (block quotes, alerts, list items, footnotes, unknown nodes) and ignores leaf blocks.
    mutating func defaultVisit(_ block: Block)
}

extension BlockVisitor {
    /// Dispatches one block to its `visit…` method.
    public mutating func visit(_ block: Block) {
        switch block.kind {
        case .paragraph(let c): visitParagraph(c, block)
        case .heading(let l, let c): visitHeading(level: l, c, block)
        case .blockQuote(let b): visitBlockQuote(b, block)
        case .list(let l): visitList(l, block)
        case .codeBlock(let i, let l): visitCodeBlock(info: i, literal: l, block)
        case .htmlBlock(let h): visitHTMLBlock(h, block)
        case .thematicBreak: visitThematicBreak(block)
        case .table(let t): visitTable(t, block)
        case .footnoteDefinition(let l, let b): visitFootnoteDefinition(label: l, b, block)
        case .unknown(let n, let b): visitUnknown(typeName: n, b, block)
        case .alert(let a): visitAlert(a, block)
        case .definitionList(let items): visitDefinitionList(items, block)
        }
    }

    /// Visits blocks in order.
    public mutating func visit(_ blocks: [Block]) {
        for b in blocks { visit(b) }
    }

    public mutating func visitParagraph(_ content: Inlines, _ block: Block) { defaultVisit(block) }
    public mutating func visitHeading(level: Int, _ content: Inlines, _ block: Block) { defaultVisit(block) }
    public mutating func visitBlockQuote(_ children: [Block], _ block: Block) { defaultVisit(block) }
    public mutating func visitList(_ list: ListBlock, _ block: Block) { defaultVisit(block) }
    public mutating func visitCodeBlock(info: String, literal: String, _ block: Block) { defaultVisit(block) }
    public mutating func visitHTMLBlock(_ html: String, _ block: Block) { defaultVisit(block) }
    public mutating func visitThematicBreak(_ block: Block) { defaultVisit(block) }
    public mutating func visitTable(_ table: Table, _ block: Block) { defaultVisit(block) }
    public mutating func visitFootnoteDefinition(label: String, _ children: [Block], _ block: Block) { defaultVisit(block) }
    public mutating func visitUnknown(typeName: String, _ children: [Block], _ block: Block) { defaultVisit(block) }
    public mutating func visitAlert(_ alert: Alert, _ block: Block) { defaultVisit(block) }
    public mutating func visitDefinitionList(_ items: [DefinitionItem], _ block: Block) { defaultVisit(block) }

    public mutating func defaultVisit(_ block: Block) {
        visit(block.children)
    }
}

extension Block {
    /// Child blocks of a container, in order (list items' blocks concatenated); `[]` for leaves.
    public var children: [Block] {
        switch kind {
        case .blockQuote(let b), .footnoteDefinition(_, let b), .unknown(_, let b): return b
        case .alert(let a): return a.blocks
        case .list(let l): return l.items.flatMap(\.blocks)
        case .definitionList(let items): return items.flatMap { $0.definitions.flatMap { $0 } }
        default: return []
        }
    }
}

extension Document {
    /// All blocks in document order (pre-order), iteratively, with their container depth (0 = top).
    public func forEachBlock(_ body: (Block, Int) throws -> Void) rethrows {
        var stack: [(Block, Int)] = blocks.reversed().map { ($0, 0) }
        while let (b, d) = stack.popLast() {
            try body(b, d)
            for c in b.children.reversed() { stack.append((c, d + 1)) }
        }
    }
}

extension Document {
    /// The footnote definitions of `blocks` at any depth, the first of each label, in document
    /// order (pre-order): what the writers that place notes themselves (RTF, DOCX, ODT) number and
    /// look up. A later definition of a label already seen is left out, as cmark-gfm does.
    package static func footnoteDefinitions(in blocks: [Block]) -> (byLabel: [String: [Block]], order: [String]) {
        var byLabel: [String: [Block]] = [:], order: [String] = []
        var stack: [Block] = blocks.reversed()
        while let b = stack.popLast() {
            if case .footnoteDefinition(let label, let bs) = b.kind, byLabel[label] == nil {
                byLabel[label] = bs
                order.append(label)
            }
            stack.append(contentsOf: b.children.reversed())
        }
        return (byLabel, order)
    }

    /// The ids raw HTML anchors name (``Block/anchors``) that no block has as its own id: the
    /// targets word processors' writers (RTF, DOCX) add a bookmark for where the anchor stands.
    package var rawAnchorsWithoutBlock: Set<String> {
        var ids = Set<String>(), raw = Set<String>()
        forEachBlock { b, _ in
            if let id = b.id { ids.insert(id) }
            raw.formUnion(b.anchors)
        }
        return raw.subtracting(ids)
    }
}
