// TreeBuilder: what each cmark node does when the iterator enters and leaves it.
import CCmarkGFM
import NotepressAST

extension TreeBuilder {
    mutating func enter(_ node: OpaquePointer, _ kind: NodeKind) {
        let pos = position(node)
        switch kind {
        case .block_quote: pushContainer(.blockQuote(pos, Box()), node)
        case .list:
            let ordered = cmark_node_get_list_type(node) == CMARK_ORDERED_LIST
            let delim = cmark_node_get_list_delim(node)
            let list = ListBlock(
                type: ordered ? .ordered : .bullet, start: ordered ? Int(cmark_node_get_list_start(node)) : 1,
                delimiter: ordered ? (delim == CMARK_PAREN_DELIM ? .parenthesis : .period) : nil,
                tight: cmark_node_get_list_tight(node) != 0, items: [])
            pushContainer(.list(pos, list, Box()), node)
        case .item, .tasklist:
            var task: ListItem.TaskState?
            if kind == .tasklist { task = cmark_gfm_extensions_get_tasklist_item_checked(node) ? .checked : .unchecked }
            pushContainer(.item(pos, task, Box()), node)
        case .footnote_definition:
            pushContainer(.footnote(pos, footnoteLabel(node), Box()), node)
        case .paragraph: stack.append(.paragraph(pos))
        case .heading: stack.append(.heading(pos, Int(cmark_node_get_heading_level(node))))
        case .code_block:
            let info = literal(Self.string(cmark_node_get_fence_info(node)))
            let code = literal(Self.string(cmark_node_get_literal(node)))
            if mathBlocks, Self.isMathInfo(info) {
                append(block: Self.mathBlock(code, pos))
            } else {
                append(block: Block(.codeBlock(info: info, literal: code), position: pos))
            }
        case .html_block:
            sawRawHTML = true
            append(block: Block(.htmlBlock(literal(Self.string(cmark_node_get_literal(node)))), position: pos))
        case .thematic_break: append(block: Block(.thematicBreak, position: pos))
        case .table:
            let n = Int(cmark_gfm_extensions_get_table_columns(node))
            var aligns: [Table.Alignment] = []
            if let a = cmark_gfm_extensions_get_table_alignments(node) {
                for i in 0..<n {
                    switch a[i] {
                    case UInt8(ascii: "l"): aligns.append(.left)
                    case UInt8(ascii: "c"): aligns.append(.center)
                    case UInt8(ascii: "r"): aligns.append(.right)
                    default: aligns.append(.none)
                    }
                }
            }
            stack.append(.table(pos, aligns, Box(), Box()))
        case .table_header, .table_row:
            stack.append(.row(cmark_gfm_extensions_get_table_row_is_header(node) != 0, Box()))
        case .table_cell: stack.append(.cell)
        default: enterInline(node, kind, pos)
        }
    }

    /// ``enter(_:_:)`` for an inline node, and for a node type this builder does not know.
    mutating func enterInline(_ node: OpaquePointer, _ kind: NodeKind, _ pos: SourcePosition?) {
        switch kind {
        // Inlines
        case .text:
            var text = Self.string(cmark_node_get_literal(node))
            if dropLeadingBracket {
                dropLeadingBracket = false
                if text.hasPrefix("]") { text.removeFirst() }
                if text.isEmpty { return }
            }
            // Wiki links add their byte offset to the node's start in the parsed text (raw).
            let raw = rawPosition(node)
            if vault != nil, VaultSyntax.hasPlaceholder(text) {
                addVaultText(text, raw)
            } else {
                addPlainText(text, raw)
            }
        case .softbreak:
            if vault != nil {
                flushBreak()
                deferredSoftBreak = true
            } else {
                addRun(.softBreak)
            }
        case .linebreak: addRun(.hardBreak)
        case .code:
            flushBreak()
            inlines.append(.text(literal(Self.string(cmark_node_get_literal(node)))), in: .code)
            lastRunIsOpenText = false
        case .html_inline:
            sawRawHTML = true
            let html = literal(Self.string(cmark_node_get_literal(node)))
            if !openLinks.isEmpty, dropsNestedLinkTag(html, node) { return }
            if openLinks.isEmpty { noteRawLinkTag(html, node) }
            addRun(.rawHTML(html))
        case .footnote_reference:
            let number = Int(Self.string(cmark_node_get_literal(node))) ?? 0
            let label = number >= 1 && number <= footnoteLabels.count ? footnoteLabels[number - 1] : String(number)
            footnoteOccurrences[number, default: 0] += 1
            let ref = RunContent.footnoteReference(label: label, number: number, occurrence: footnoteOccurrences[number]!)
            if openLinks.isEmpty { addRun(ref) } else { footnotesAfterLink.append(ref) }
        case .emph: openSpan(.emphasis)
        case .strong: openSpan(.strong)
        case .strikethrough: openSpan(subscriptTilde && Self.isSingleTilde(node) ? .subscript : .strikethrough)
        case .link:
            if openLinks.isEmpty { noteLinkInsideRawLink(node) }
            linkDepth += 1
            openLinks.append(inlines.runCount)
            openSpan(.link(Link(destination: literal(Self.string(cmark_node_get_url(node))), title: literal(Self.string(cmark_node_get_title(node))),
                                position: pos)))
            if cmark_node_first_child(node) == nil { addRun(.text("")) }
        case .image:
            linkDepth += 1
            var link = Link(destination: literal(Self.string(cmark_node_get_url(node))), title: literal(Self.string(cmark_node_get_title(node))),
                            position: pos)
            (link.width, link.height) = Self.takeImageSize(node)
            openSpan(.image(link))
            if cmark_node_first_child(node) == nil { addRun(.text("")) }
        default:
            let type = Self.typeName(node)
            if warnedTypes.insert(type).inserted {
                warn("unknown node type '\(type)' written as its content", node)
            }
            if cmark_node_get_type(node).rawValue & UInt32(CMARK_NODE_TYPE_INLINE) != 0 {
                if Self.isLeaf(type) { return }
                let lit = Self.string(cmark_node_get_literal(node))
                if cmark_node_first_child(node) == nil, !lit.isEmpty { addRun(.text(lit)) }
                spanPushed.append(false)
            } else {
                pushContainer(.unknown(pos, type, Box()), node)
            }
        }
    }

    mutating func exit(_ node: OpaquePointer, _ kind: NodeKind) {
        switch kind {
        case .block_quote, .list, .item, .tasklist, .footnote_definition:
            closeContainer()
        case .paragraph, .heading:
            let content = takeRuns()
            guard let f = stack.popLast() else { return }
            if case .paragraph(let p) = f { append(block: Block(.paragraph(content), position: p)) }
            if case .heading(let p, let l) = f { append(block: Block(.heading(level: l, content: content), position: p)) }
        case .table:
            guard case .table(let p, let a, let h, let r)? = stack.popLast() else { return }
            append(block: Block(.table(Table(alignments: a, header: h.items, rows: r.items)), position: p))
        case .table_header, .table_row:
            guard case .row(let isHeader, let cells)? = stack.popLast(),
                  case .table(_, let a, let h, let r)? = stack.last else { return }
            var padded = cells.items
            while padded.count < a.count { padded.append(Inlines()) }
            if isHeader { h.items = padded } else { r.items.append(padded) }
        case .table_cell:
            let content = takeRuns()
            stack.removeLast()
            if case .row(_, let cells)? = stack.last {
                cells.items.append(content)
            }
        case .footnote_reference, .text, .softbreak, .linebreak, .code, .html_inline:
            break
        case .link, .image:
            linkDepth -= 1
            if kind == .link, openLinks.count == 1 { droppedNestedLinks = 0 }
            if kind == .link, let start = openLinks.popLast(), openLinks.isEmpty, !footnotesAfterLink.isEmpty {
                // The link keeps its (empty) text when its footnote references were all of it.
                if inlines.runCount == start { addRun(.text("")) }
                closeSpan()
                for ref in footnotesAfterLink { addRun(ref) }
                footnotesAfterLink = []
            } else {
                closeSpan()
            }
        case .emph, .strong, .strikethrough:
            closeSpan()
        default:
            if cmark_node_get_type(node).rawValue & UInt32(CMARK_NODE_TYPE_INLINE) != 0 {
                closeSpan()
            } else {
                closeContainer()
            }
        }
    }

}
