import NotepressAST

/// The HTML of MkDocs constructs (``MarkupAttributes`` on blocks, links and images; definition
/// lists), beside the other blocks of ``HTMLEmitter``'s body writer.
extension HTMLBodyWriter {
    /// ` id="…" class="…" key="…"` of an attribute list (``MarkupAttributes``): the id given
    /// (`nil`: none), the classes, the pairs ``MarkupAttributes/htmlAttributes(skipping:)`` allows,
    /// all escaped by ``HTMLEscape``.
    mutating func putAttributes(_ a: MarkupAttributes, id: String?, skipping skip: Set<String> = []) {
        if let id { out.append(contentsOf: " id=\"".utf8); HTMLEscape.appendAttribute(id, to: &out); out.append(contentsOf: "\"".utf8) }
        if let c = a.classValue { out.append(contentsOf: " class=\"".utf8); HTMLEscape.appendAttribute(c, to: &out); out.append(contentsOf: "\"".utf8) }
        for p in a.htmlAttributes(skipping: skip) {
            out.append(contentsOf: " ".utf8); HTMLEscape.appendAttribute(p.key.lowercased(), to: &out)
            out.append(contentsOf: "=\"".utf8); HTMLEscape.appendAttribute(p.value, to: &out); out.append(contentsOf: "\"".utf8)
        }
    }

    /// A definition list: `<dl>`, each term a `<dt>`, each definition a `<dd>` (a definition of
    /// one paragraph without its `<p>`, as Python-Markdown writes a tight list).
    mutating func visitDefinitionList(_ items: [DefinitionItem], _ block: Block) {
        cr(); out.append(contentsOf: "<dl>\n".utf8)
        for item in items {
            cr(); out.append(contentsOf: "<dt".utf8); putDir(); out.append(contentsOf: ">".utf8); inlines(item.term); out.append(contentsOf: "</dt>\n".utf8)
            for d in item.definitions {
                cr(); out.append(contentsOf: "<dd".utf8); putDir(); out.append(contentsOf: ">".utf8)
                let tight: Bool
                if d.count == 1, case .paragraph = d[0].kind { tight = true } else { tight = false }
                blocks(d, tight: tight)
                if !tight { cr() }
                out.append(contentsOf: "</dd>\n".utf8)
            }
        }
        cr(); out.append(contentsOf: "</dl>\n".utf8)
    }
}
