import NotepressAST

/// Raw HTML read into AST nodes for the formats that do not write HTML (RTF, terminal text, TEI,
/// man pages, the JSON dump), so that they keep every word: the mapping of elements to spans.
package enum RawHTMLReading {
    /// The span a kept element reads as, or `nil` for one whose text is read without a span.
    /// `b`/`strong` strong; `i`, `em`, `cite`, `dfn`, `var` emphasis; `code`, `kbd`, `samp`, `tt`
    /// code; `del`, `s`, `strike` struck; `mark` highlighted; `sup`, `sub`; `a href` a link;
    /// `summary` strong (a line of its own: ``lowered(_:)``, ``BlockReader``).
    static func spanKind(_ e: RawHTMLElement) -> InlineSpan.Kind? {
        switch e.name {
        case "b", "strong": return .strong
        case "i", "em", "cite", "dfn", "var": return .emphasis
        case "code", "kbd", "samp", "tt": return .code
        case "del", "s", "strike": return .strikethrough
        case "mark": return .highlight
        case "summary": return .strong
        case "sup": return .superscript
        case "sub": return .subscript
        case "a":
            guard let href = e.attribute("href"), !href.isEmpty else { return nil }
            return .link(Link(destination: href, title: e.attribute("title") ?? ""))
        default: return nil
        }
    }

    /// Whether `c` holds raw inline HTML.
    static func hasRawHTML(_ c: Inlines) -> Bool {
        // A plain loop (no closure): every document without raw HTML pays this scan.
        for run in c.runs { if case .rawHTML = run.content { return true } }
        return false
    }

    /// `c` with its raw inline HTML read: each kept start tag that maps to a span
    /// (``spanKind(_:)``) opens it for the runs up to its end tag (or up to the end of the
    /// Markdown span it opened in, or of `c`); `<br>` is a hard break, `<img>` an image whose
    /// description is its `alt`; a `<details>` after text and a `</summary>` end the line (the
    /// summary is a line of its own, not run into the body: "Sx"); the runs between `<script>`/`<style>`/… and their end tag are
    /// left out; every other tag gives nothing and the text around it stays.
    static func lowered(_ c: Inlines) -> Inlines {
        var anchors: [String] = []
        return lowered(c, anchors: &anchors)
    }

    /// ``lowered(_:)``, adding the ids kept start tags name (``RawHTMLPolicy/anchorIDs(of:)``)
    /// to `anchors`, in order; `keepingUnread`: a tag that reads as nothing stays a raw HTML run.
    static func lowered(_ c: Inlines, anchors: inout [String], keepingUnread: Bool = false, position: SourcePosition? = nil) -> Inlines {
        /// A raw element open across runs: its span and the Markdown spans open where it opened.
        struct Open { var name: String; var kind: InlineSpan.Kind; var chain: [Int] }
        enum Key: Equatable { case markdown(Int), raw(Int) }
        var b = InlinesBuilder()
        var raw: [Open] = [], rawIDs: [Int] = [], nextID = 0
        var current: [Key] = []
        var dropping: String?
        /// A `</summary>` was read: a hard break goes before the next content, outside the summary.
        var breakBefore = false
        var previousChain: [Int] = []
        for (i, run) in c.runs.enumerated() {
            let chain = c.spanChain(ofRun: i)
            // An empty text in no new Markdown span (GFM's autolinks leave them) opens no raw span.
            if case .text(let t) = run.content, t.isEmpty, chain == previousChain { continue }
            previousChain = chain
            // A raw element ends with the Markdown span it opened in.
            while let last = raw.last, last.chain.count > chain.count || Array(chain.prefix(last.chain.count)) != last.chain {
                raw.removeLast(); rawIDs.removeLast()
            }
            // A raw `<a>` ends where a Markdown link inside it starts, with what opened inside it
            // (links do not nest: as a browser parses it, and as the HTML writer's `endRawLink()`).
            if let k = raw.firstIndex(where: { $0.name == "a" }),
               chain[raw[k].chain.count...].contains(where: { if case .link(let l) = c.spans[$0].kind { return !l.isMissing } else { return false } }) {
                raw.removeSubrange(k...); rawIDs.removeSubrange(k...)
            }
            var wanted: [Key] = []
            var r = 0
            for d in 0...chain.count {
                while r < raw.count, raw[r].chain.count == d { wanted.append(.raw(rawIDs[r])); r += 1 }
                if d < chain.count { wanted.append(.markdown(chain[d])) }
            }
            var common = 0
            while common < current.count, common < wanted.count, current[common] == wanted[common] { common += 1 }
            while current.count > common { b.pop(); current.removeLast() }
            for key in wanted[common...] {
                switch key {
                case .markdown(let s): b.push(c.spans[s].kind)
                case .raw(let id): b.push(raw[rawIDs.firstIndex(of: id)!].kind)
                }
                current.append(key)
            }
            guard case .rawHTML(let h) = run.content else {
                if dropping == nil {
                    if breakBefore { b.append(.hardBreak); breakBefore = false }
                    b.append(run.content)
                }
                continue
            }
            let token = RawHTMLPolicy.inlineToken(h)
            if let name = dropping {
                if token == .end(name) { dropping = nil }
                continue
            }
            switch token {
            case .start(let e):
                anchors += RawHTMLPolicy.anchorIDs(of: e)
                if e.name == "br" { b.append(.hardBreak); continue }
                if e.name == "details", !b.isEmpty {
                    b.removeSuffixOfLastText(" ")
                    b.append(.hardBreak)
                }
                if e.name == "img" { appendImage(e, to: &b, position: position); continue }
                // At most ``ASTLimits/maxNestingDepth`` raw spans open: deeper start tags give nothing.
                guard let kind = spanKind(e), raw.count < ASTLimits.maxNestingDepth else { continue }
                raw.append(Open(name: e.name, kind: kind, chain: chain)); rawIDs.append(nextID); nextID += 1
            case .end(let name):
                if let k = raw.lastIndex(where: { $0.name == name }) { raw.removeSubrange(k...); rawIDs.removeSubrange(k...) }
                if name == "summary" { breakBefore = true }
            case .startDroppingContent(let name):
                dropping = name
            case .nothing:
                if keepingUnread { b.append(run.content) }
            }
        }
        while !current.isEmpty { b.pop(); current.removeLast() }
        return b.take()
    }

    /// An `<img>`: an image span around its `alt` text (nothing without `src` and `alt`), its
    /// `width` and `height` (``RawHTMLPolicy/dimension(_:)``: pixels) the image's size, at
    /// `position` (an HTML block's: where a writer's warning about it points).
    static func appendImage(_ e: RawHTMLElement, to b: inout InlinesBuilder, position: SourcePosition? = nil) {
        let src = e.attribute("src") ?? ""
        let alt = e.attribute("alt") ?? ""
        guard !src.isEmpty || !alt.isEmpty else { return }
        var link = Link(destination: src, title: e.attribute("title") ?? "", position: position)
        link.width = e.attribute("width").flatMap(RawHTMLPolicy.dimension).flatMap { Int($0) }
        link.height = e.attribute("height").flatMap(RawHTMLPolicy.dimension).flatMap { Int($0) }
        b.push(.image(link))
        if !alt.isEmpty { b.append(.text(alt)) }
        b.pop()
    }
}
