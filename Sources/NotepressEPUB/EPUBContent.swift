import Foundation
import NotepressAST
import NotepressContainer
import NotepressHTML
import NotepressRawHTML

/// One chapter's XHTML content document (EPUB 3.3 §6.1): the HTML writer's body (``HTMLEmitter``,
/// raw HTML kept only as pages keep it without `--unsafe`: ``RawHTMLPolicy``) parsed back by gumbo
/// (``RawHTMLParser``, the tree a browser builds) and written again through libxml2's writer
/// (``XMLStreamWriter``): well-formed XML whatever the body held, void elements closed, character
/// references decoded (only the XML five are escaped).
///
/// What a reading system cannot use or a package may not hold is made safe in the tree:
/// - an `id` already used in the chapter is dropped (ids are unique per document);
/// - a link into the book (``EPUBLinkTargets``) keeps its fragment only when the target chapter
///   has that id; a relative link to anything else becomes a `span` of its text (the preparation warned);
/// - an image whose `src` is not a packaged image (``EPUBLinkTargets/images``), nor raw HTML's
///   image packaged (``EPUBChapter/rawHTMLImages``), becomes its `alt` text; `srcset` and `<source>` go (they would name files not in the package);
/// - math spans (`<span class="math …">`) become MathML when ``EPUBMath`` can write the TeX,
///   else the TeX as `<code class="math …">`;
/// - attributes HTML5 made obsolete (`align`, `name` on `a`, `type` on `ul`) go, as does anything
///   not a plain attribute name.
struct EPUBChapterTree {
    /// The body's nodes.
    var nodes: [RawHTMLNode]
    /// The ids the chapter will have (first occurrences), for links into it.
    var ids: Set<String>

    /// The tree of `body` (HTML from ``HTMLEmitter``) and the ids it holds.
    init(body: String) {
        nodes = RawHTMLParser.parse(body)
        ids = []
        var stack: [RawHTMLNode] = nodes
        // Depth is bounded by the parser (``ASTLimits/maxNestingDepth``); a stack all the same.
        while let n = stack.popLast() {
            guard case .element(let e) = n else { continue }
            if let id = e.attribute("id"), Self.isValidID(id) { ids.insert(id) }
            stack.append(contentsOf: e.children)
        }
    }

    /// An `id` XHTML accepts: not empty, no white space.
    static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && !id.unicodeScalars.contains { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }
    }
}

/// Where links and images of a chapter may point: the chapters' file names with their ids, and
/// the packaged images' paths.
struct EPUBLinkTargets {
    /// Chapter file name (`ch001.xhtml`) → the ids it holds.
    var chapters: [String: Set<String>]
    /// Packaged image paths (`images/001-pic.png`).
    var images: Set<String>
}

/// Writes a ``EPUBChapterTree`` as XHTML.
struct EPUBXHTMLWriter {
    let targets: EPUBLinkTargets
    /// The chapter's own file name (for `#fragment` links).
    let fileName: String
    /// Whether a math span was written as MathML (the manifest item's `mathml` property).
    private(set) var wroteMathML = false
    private var seenIDs = Set<String>()
    private let w: XMLStreamWriter

    /// Raw HTML's images: `src` (percent-decoded) → packaged path (``EPUBChapter/rawHTMLImages``).
    let rawHTMLImages: [String: String]

    init(writer: XMLStreamWriter, targets: EPUBLinkTargets, fileName: String, rawHTMLImages: [String: String] = [:]) {
        w = writer
        self.targets = targets
        self.fileName = fileName
        self.rawHTMLImages = rawHTMLImages
    }

    /// Attributes written as they are (values escaped by the writer), after the checks below.
    static let plainAttributes: Set<String> = [
        "id", "class", "dir", "lang", "title", "alt", "colspan", "rowspan", "start", "reversed", "value", "open",
        "datetime", "cite", "style", "role", "checked", "disabled", "abbr", "scope",
    ]

    /// Writes `nodes` (depth bounded by the parser).
    mutating func write(_ nodes: [RawHTMLNode]) {
        for n in nodes {
            switch n {
            case .text(let t): w.text(t)
            case .element(let e): element(e)
            }
        }
    }

    private mutating func element(_ e: RawHTMLElement) {
        switch e.name {
        case "", "picture":
            write(e.children)  // unknown or foreign element: its content
            return
        case "source", "wbr":
            return
        case "img":
            image(e)
            return
        case "input":
            checkbox(e)
            return
        case "span" where (e.attribute("class") ?? "").hasPrefix("math "):
            math(e)
            return
        case "a":
            anchor(e)
            return
        default:
            break
        }
        w.start(e.name, attributeList: attributes(e))
        write(e.children)
        w.end()
    }

    /// The attributes of `e` kept (see the type's documentation), in order.
    private mutating func attributes(_ e: RawHTMLElement) -> [(String, String)] {
        var out: [(String, String)] = []
        for a in e.attributes {
            let n = a.name
            if n == "id" {
                guard EPUBChapterTree.isValidID(a.value), seenIDs.insert(a.value).inserted else { continue }
                out.append((n, a.value))
            } else if n == "type" {
                if e.name == "ol", ["1", "a", "A", "i", "I"].contains(a.value) { out.append((n, a.value)) }
            } else if n == "width" || n == "height" {
                if e.name == "img", !a.value.isEmpty, a.value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { out.append((n, a.value)) }
            } else if Self.plainAttributes.contains(n) || Self.isDataOrARIA(n) {
                if n == "start" && e.name != "ol" || n == "value" && e.name != "li" { continue }
                out.append((n, a.value))
            }
        }
        return out
    }

    /// `data-*` and `aria-*` with a plain name (lower-case letters, digits, `-`).
    static func isDataOrARIA(_ n: String) -> Bool {
        guard n.hasPrefix("data-") || n.hasPrefix("aria-"), n.utf8.count > 5 else { return false }
        return n.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
    }

    private mutating func anchor(_ e: RawHTMLElement) {
        var attrs = attributes(e).filter { $0.0 != "href" }
        guard let href = e.attribute("href"), let fixed = link(href) else {
            // Points at nothing in the book: its text, not something that looks like a link.
            w.start("span", attributeList: attrs)
            write(e.children)
            w.end()
            return
        }
        attrs.insert(("href", fixed), at: 0)
        if (e.attribute("class") ?? "").contains("footnote-ref") || e.attribute("data-footnote-ref") != nil {
            attrs.append(("epub:type", "noteref"))
        }
        w.start("a", attributeList: attrs)
        write(e.children)
        w.end()
    }

    /// `href` as the package holds it, or `nil` when it points at nothing in the book.
    func link(_ href: String) -> String? {
        if href.isEmpty { return nil }
        if href.hasPrefix("#") {
            let id = EPUBPaths.percentDecoded(String(href.dropFirst()))
            return targets.chapters[fileName]?.contains(id) == true ? href : nil
        }
        if href.hasPrefix("//") { return "https:" + href }
        if EPUBPaths.hasScheme(href) { return href }
        var path = Substring(href)
        var fragment: Substring?
        if let h = path.firstIndex(of: "#") { fragment = path[path.index(after: h)...]; path = path[..<h] }
        if let q = path.firstIndex(of: "?") { path = path[..<q] }
        let name = EPUBPaths.percentDecoded(String(path))
        guard let ids = targets.chapters[name] else { return nil }
        if let fragment, ids.contains(EPUBPaths.percentDecoded(String(fragment))) { return String(path) + "#" + fragment }
        return String(path)
    }

    private mutating func image(_ e: RawHTMLElement) {
        var src = EPUBPaths.percentDecoded(e.attribute("src") ?? "")
        if !targets.images.contains(src), let packaged = rawHTMLImages[src] { src = packaged }
        guard targets.images.contains(src) else {
            // Not in the package (missing, not an image, remote: the preparation warned).
            w.text(e.attribute("alt") ?? "")
            return
        }
        var attrs: [(String, String)] = [("src", src), ("alt", e.attribute("alt") ?? "")]
        attrs += attributes(e).filter { $0.0 != "alt" }
        w.start("img", attributeList: attrs)
        w.end()
    }

    private func checkbox(_ e: RawHTMLElement) {
        guard e.attribute("type") == "checkbox" else { return }
        var attrs: [(String, String)] = [("type", "checkbox")]
        if e.attribute("checked") != nil { attrs.append(("checked", "checked")) }
        attrs.append(("disabled", "disabled"))
        w.start("input", attributeList: attrs)
        w.end()
    }

    private mutating func math(_ e: RawHTMLElement) {
        let tex = Self.text(of: e.children)
        let display = (e.attribute("class") ?? "").contains("math-display")
        if EPUBMath.write(tex, display: display, to: w) {
            wroteMathML = true
            return
        }
        w.start("code", ["class": display ? "math math-display" : "math math-inline"])
        w.text(tex)
        w.end()
    }

    /// The text of `nodes`, elements' content included.
    static func text(of nodes: [RawHTMLNode]) -> String {
        var s = ""
        var stack = Array(nodes.reversed())
        while let n = stack.popLast() {
            switch n {
            case .text(let t): s += t
            case .element(let e): stack.append(contentsOf: e.children.reversed())
            }
        }
        return s
    }
}

/// Paths and URLs inside the package.
package enum EPUBPaths {
    /// Whether `s` starts with a URL scheme (`https:`, `mailto:`).
    package static func hasScheme(_ s: String) -> Bool {
        var first = true
        for b in s.utf8 {
            if b == 0x3A { return !first }
            let letter = (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A
            if first { guard letter else { return false }; first = false; continue }
            guard letter || (b >= 0x30 && b <= 0x39) || b == 0x2B || b == 0x2D || b == 0x2E else { return false }
        }
        return false
    }

    /// `s` with `%XX` escapes decoded (invalid UTF-8 or escapes: `s` as it is).
    package static func percentDecoded(_ s: String) -> String {
        guard s.utf8.contains(0x25) else { return s }
        return s.removingPercentEncoding ?? s
    }
}
