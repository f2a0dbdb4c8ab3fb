import NotepressAST

/// The one policy for raw HTML written in Markdown (CommonMark §4.6 HTML blocks, §6.6 raw
/// inline HTML) in pages without `--unsafe`, in the manner of GitHub's sanitizer:
///
/// - the elements of ``keptElements`` are kept, with the attributes of ``keptAttributes``
///   (`href` on `a` only, `src` on `img` and `source`, `srcset` on `img` and `source`, `cite` on
///   `blockquote`, `q`, `del` and `ins`);
/// - a URL attribute (`href`, `src`, `cite`, each candidate of `srcset`) whose value
///   ``URLSafety`` calls dangerous (`javascript:`, `vbscript:`, `file:`, `data:` other than
///   PNG, GIF, JPEG and WebP images), after the parser decoded its character references, is
///   removed;
/// - every other element is removed and its content kept where it is text; the elements of
///   ``droppedContentElements`` (`script`, `style`, `iframe`, `object`, `embed`, `noscript`,
///   `template`, `title`, `base`, `meta`, …) go with their content; comments go;
/// - every other attribute is removed (event handlers `on…`, `style`, `srcdoc`, `formaction`, …).
///
/// The kept tree is written again by the HTML writer with its own escaping, so what a page holds
/// is only what this policy kept, whatever the parser made of the input.
package enum RawHTMLPolicy {
    /// The elements kept (GitHub's list of elements people write in READMEs and books).
    package static let keptElements: Set<String> = [
        "a", "abbr", "b", "bdi", "bdo", "blockquote", "br", "caption", "cite", "code", "dd", "del", "details", "dfn",
        "div", "dl", "dt", "em", "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "ins",
        "kbd", "li", "mark", "ol", "p", "picture", "pre", "q", "rp", "rt", "ruby", "s", "samp", "small", "source",
        "span", "strike", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr",
        "tt", "u", "ul", "var", "wbr",
    ]

    /// Kept elements that have no end tag (HTML Living Standard §13.1.2, void elements).
    package static let voidElements: Set<String> = ["br", "hr", "img", "source", "wbr"]

    /// The attributes kept on any kept element (URL attributes: ``urlAttributeElements``).
    package static let keptAttributes: Set<String> = [
        "alt", "title", "width", "height", "align", "id", "name", "class", "colspan", "rowspan", "open", "start",
        "type", "datetime", "lang", "dir",
    ]

    /// The URL attributes kept and the elements each is kept on; values go through ``URLSafety``.
    package static let urlAttributeElements: [String: Set<String>] = [
        "href": ["a"], "src": ["img", "source"], "srcset": ["img", "source"], "cite": ["blockquote", "q", "del", "ins"],
    ]

    /// Elements removed together with their content: code, styles, embedded documents and
    /// alternatives to them, and the document's head.
    package static let droppedContentElements: Set<String> = [
        "script", "style", "template", "iframe", "frame", "frameset", "object", "embed", "applet", "param", "noscript",
        "noembed", "noframes", "title", "xmp", "base", "meta", "link", "head",
    ]

    /// Whether element `name` goes with its content (see ``droppedContentElements``).
    package static func dropsContent(_ name: String) -> Bool {
        droppedContentElements.contains(name)
    }

    /// Whether element `name` is kept.
    package static func keeps(_ name: String) -> Bool {
        keptElements.contains(name)
    }

    /// Whether element `name` has no end tag.
    package static func isVoid(_ name: String) -> Bool {
        voidElements.contains(name)
    }

    /// `element` with only the attributes the policy keeps (children untouched); `nil` when the
    /// element itself is not kept.
    package static func keptAttributes(of element: RawHTMLElement) -> RawHTMLElement? {
        guard keeps(element.name) else { return nil }
        var e = element
        e.attributes = element.attributes.filter { keepsAttribute($0, on: element.name) }
        if element.name == "img" || element.name == "source" {
            e.attributes = e.attributes.compactMap { a in
                guard a.name == "width" || a.name == "height" else { return a }
                return dimension(a.value).map { RawHTMLAttribute(name: a.name, value: $0) }
            }
        }
        return e
    }

    /// The link targets a kept element names (`<a id="x">`, `<a name="x">`, `<span id="x">`,
    /// `<h2 id="x">`): its non-empty `id` and `name` values, in that order, without repeats;
    /// none for an element the policy drops (its `id` never reaches a page either). Formats that
    /// do not write the HTML write these as bookmarks or anchors (``Block/anchors``).
    package static func anchorIDs(of element: RawHTMLElement) -> [String] {
        guard keeps(element.name) else { return [] }
        var out: [String] = []
        for a in element.attributes where (a.name == "id" || a.name == "name") && !a.value.isEmpty && !out.contains(a.value) {
            out.append(a.value)
        }
        return out
    }

    /// An image's `width` or `height` as HTML requires it, a non-negative integer of CSS pixels:
    /// `60`, and the `60px` or `60px;` READMEs often write, give `60`; anything else (`50%`,
    /// `auto`) gives `nil` (the attribute is left out and the image keeps its own size).
    package static func dimension(_ value: String) -> String? {
        let bytes = Array(value.utf8).drop { $0 == 0x20 || $0 == 0x09 }
        let digits = bytes.prefix { (0x30...0x39).contains($0) }
        guard !digits.isEmpty, digits.count <= 9 else { return nil }
        let rest = String(decoding: bytes.dropFirst(digits.count), as: UTF8.self)
            .lowercased().filter { $0 != " " && $0 != "\t" }
        guard ["", "px", "px;", ";"].contains(rest) else { return nil }
        return String(Int(String(decoding: digits, as: UTF8.self)) ?? 0)
    }

    /// Whether attribute `a` stays on element `element`.
    static func keepsAttribute(_ a: RawHTMLAttribute, on element: String) -> Bool {
        if keptAttributes.contains(a.name) { return true }
        guard let elements = urlAttributeElements[a.name], elements.contains(element) else { return false }
        if a.name == "srcset" { return srcsetURLs(a.value).allSatisfy { !URLSafety.isDangerous($0) } }
        return !URLSafety.isDangerous(a.value)
    }

    /// The URLs of a `srcset` value: each comma-separated candidate's first word (HTML Living
    /// Standard §4.8.4.3.8, image candidate strings).
    package static func srcsetURLs(_ value: String) -> [String] {
        value.split(separator: ",").compactMap { candidate in
            let words = candidate.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" })
            return words.first.map(String.init)
        }
    }

    /// The nodes the policy keeps of `nodes`: kept elements with their kept attributes, the
    /// content of other elements in their place, text as it is.
    package static func sanitized(_ nodes: [RawHTMLNode]) -> [RawHTMLNode] {
        var result: [RawHTMLNode] = []
        result.reserveCapacity(nodes.count)
        for node in nodes {
            switch node {
            case .text: result.append(node)
            case .element(let e):
                let children = sanitized(e.children)
                if var kept = keptAttributes(of: e) {
                    kept.children = isVoid(e.name) ? [] : children
                    result.append(.element(kept))
                } else {
                    result.append(contentsOf: children)
                }
            }
        }
        return result
    }

    /// Kept elements an HTML block may leave open around the Markdown blocks after it, up to the
    /// HTML block with their end tag (`<details>`, blank line, Markdown, blank line,
    /// `</details>`), as in the page GitHub renders from cmark-gfm's output: elements a browser
    /// holds Markdown's blocks in. `p`, headings and phrasing elements are closed in their own
    /// block (a browser ends a `p` at the next block anyway).
    package static let blockContainers: Set<String> = [
        "details", "summary", "div", "blockquote", "figure", "figcaption", "li", "dd", "dt", "td", "th",
    ]

    /// Kept elements that stay open with a ``blockContainers`` element inside them (a table's
    /// `tr` around an open `td`, a list around an open `li`).
    package static let containerParts: Set<String> = ["table", "thead", "tbody", "tfoot", "tr", "ul", "ol", "dl"]

    /// The elements of kept `nodes` (``sanitized(_:)``) that stay open after the HTML block they
    /// were parsed from, outermost first, without children: the ``RawHTMLElement/openAtEnd``
    /// elements on the last-node path from the top, up to the innermost ``blockContainers`` one
    /// reached through ``blockContainers`` and ``containerParts`` only; at most
    /// ``ASTLimits/maxNestingDepth`` (deeper ones close in their block).
    package static func carriedElements(_ nodes: [RawHTMLNode]) -> [RawHTMLElement] {
        var chain: [RawHTMLElement] = []
        var valid = 0
        var level = nodes
        while chain.count < ASTLimits.maxNestingDepth, case .element(var e)? = level.last, e.openAtEnd {
            let container = blockContainers.contains(e.name)
            guard container || containerParts.contains(e.name) else { break }
            level = e.children
            e.children = []
            chain.append(e)
            if container { valid = chain.count }
        }
        return Array(chain.prefix(valid))
    }

    /// One raw inline HTML fragment as libcmark-gfm delimits it (one start tag, end tag,
    /// comment, processing instruction, declaration or CDATA section, CommonMark §6.6), read by
    /// the HTML parser.
    package enum InlineToken: Equatable {
        /// The start tag of a kept element, with its kept attributes (and no children).
        case start(RawHTMLElement)
        /// The end tag of a kept, non-void element, or of a ``droppedContentElements`` one, by name.
        case end(String)
        /// The start tag of a ``droppedContentElements`` element (`<script>`): what follows up
        /// to its end tag in the same inline content is not written.
        case startDroppingContent(String)
        /// Anything else: nothing is written.
        case nothing
    }

    /// What raw inline HTML `html` is under the policy.
    package static func inlineToken(_ html: String) -> InlineToken {
        let bytes = html.utf8
        guard bytes.count >= 3, bytes.first == 0x3C else { return .nothing }
        let second = bytes[bytes.index(after: bytes.startIndex)]
        if second == 0x2F {
            // `</name>`: the parser reads the name from the start tag `<name>`.
            let name = RawHTMLParser.firstElementName("<" + String(html.dropFirst(2)))
            guard keeps(name) && !isVoid(name) || dropsContent(name) else { return .nothing }
            return .end(name)
        }
        if second == 0x21 || second == 0x3F { return .nothing }  // comment, declaration, CDATA, PI
        let name = RawHTMLParser.firstElementName(html)
        if dropsContent(name) { return isVoid(name) || name == "base" || name == "meta" || name == "link" ? .nothing : .startDroppingContent(name) }
        guard case .element(let e)? = RawHTMLParser.parse(html).first, var kept = keptAttributes(of: e) else { return .nothing }
        kept.children = []
        return .start(kept)
    }
}
