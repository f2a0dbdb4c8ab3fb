import NotepressAST

/// What raw HTML points at and names, for a site run: `id`/`name` anchors that links may target,
/// and `a href`, `img src`/`srcset` and `source srcset` destinations to check and copy like
/// Markdown's links and images. Only what ``RawHTMLPolicy`` keeps counts.
package struct RawHTMLReferences: Sendable, Equatable {
    /// `id` and `name` values, in document order.
    package var anchors: [String] = []
    /// Link (`a href`) and image (`img src`, `srcset` URLs) destinations, with where their HTML
    /// starts (the block's position).
    package var destinations: [(link: Link, image: Bool)] = []
    /// The `src` of each kept `img` (its `alt` the link's title), with where its HTML starts: the
    /// pictures a writer that keeps raw HTML as HTML (EPUB) must carry.
    package var imageSources: [Link] = []

    package static func == (a: RawHTMLReferences, b: RawHTMLReferences) -> Bool {
        a.anchors == b.anchors && a.destinations.map(\.link) == b.destinations.map(\.link)
            && a.destinations.map(\.image) == b.destinations.map(\.image)
    }

    /// The references of `document`'s raw HTML (none, without a parse, when it has none).
    package static func of(_ document: Document) -> RawHTMLReferences {
        var r = RawHTMLReferences()
        guard RawHTMLReading.has(document, inline: true) else { return r }
        document.forEachBlock { block, _ in
            switch block.kind {
            case .htmlBlock(let h):
                r.add(RawHTMLPolicy.sanitized(RawHTMLParser.parse(h)), at: block.position)
            case .paragraph(let c), .heading(_, let c): r.add(c, at: block.position)
            case .table(let t): for row in [t.header] + t.rows { for cell in row { r.add(cell, at: block.position) } }
            default: break
            }
        }
        return r
    }

    /// The kept start tags of raw inline HTML in `c`.
    mutating func add(_ c: Inlines, at position: SourcePosition?) {
        for run in c.runs {
            guard case .rawHTML(let h) = run.content, case .start(let e) = RawHTMLPolicy.inlineToken(h) else { continue }
            add(e, at: position)
        }
    }

    /// Kept nodes, depth-first (the parser bounds their depth).
    mutating func add(_ nodes: [RawHTMLNode], at position: SourcePosition?) {
        for case .element(let e) in nodes {
            add(e, at: position)
            add(e.children, at: position)
        }
    }

    /// One element's anchors and destinations.
    mutating func add(_ e: RawHTMLElement, at position: SourcePosition?) {
        for a in e.attributes where !a.value.isEmpty {
            switch a.name {
            case "id", "name": anchors.append(a.value)
            case "href": destinations.append((Link(destination: a.value, position: position), false))
            case "src":
                destinations.append((Link(destination: a.value, position: position), true))
                if e.name == "img" { imageSources.append(Link(destination: a.value, title: e.attribute("alt") ?? "", position: position)) }
            case "srcset":
                for url in RawHTMLPolicy.srcsetURLs(a.value) { destinations.append((Link(destination: url, position: position), true)) }
            default: continue
            }
        }
    }
}
