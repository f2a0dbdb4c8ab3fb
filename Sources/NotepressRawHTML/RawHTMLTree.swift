import CGumbo
import NotepressAST

/// One attribute of a raw HTML element, name lower-cased and value decoded by the parser.
package struct RawHTMLAttribute: Sendable, Equatable {
    /// The name, lower case (`href`).
    package var name: String
    /// The value, character references decoded (`&#106;` is `j`).
    package var value: String

    /// An attribute `name="value"`.
    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// An element of parsed raw HTML.
package struct RawHTMLElement: Sendable, Equatable {
    /// The HTML element's name, lower case; empty for an element the parser does not know or one
    /// in the SVG or MathML namespace (which no policy keeps: its text is read).
    package var name: String
    /// The attributes in source order.
    package var attributes: [RawHTMLAttribute]
    /// The children, comments and dropped content left out (``RawHTMLPolicy/dropsContent(_:)``).
    package var children: [RawHTMLNode]
    /// The input ended inside this element: no end tag, its own or an implied one, closed it
    /// (`<details>` opened by an HTML block for the Markdown blocks after it). Only elements on
    /// the last-node path from the top can be; ``RawHTMLPolicy/carriedElements(_:)`` reads them.
    package var openAtEnd: Bool

    /// An element (see the properties).
    package init(name: String, attributes: [RawHTMLAttribute] = [], children: [RawHTMLNode] = [], openAtEnd: Bool = false) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.openAtEnd = openAtEnd
    }

    /// The value of attribute `name`, if the element has it.
    package func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }
}

/// A node of parsed raw HTML: text (decoded) or an element.
package indirect enum RawHTMLNode: Sendable, Equatable {
    /// Text, character references decoded.
    case text(String)
    /// An element and its children.
    case element(RawHTMLElement)
}

/// Parses raw HTML with gumbo (Google's HTML5 parser: the WHATWG tokenizer and tree builder, so
/// the tree is the one a browser builds from the same bytes) as a fragment in a `<body>`, and
/// copies it into ``RawHTMLNode`` values once, then frees gumbo's tree.
///
/// Bounded: elements nested deeper than ``ASTLimits/maxNestingDepth`` give their text only
/// (collected without recursion); comments and the content of ``RawHTMLPolicy/dropsContent(_:)``
/// elements are never copied. gumbo's parse is linear in the input.
package enum RawHTMLParser {
    /// The nodes of `html` parsed as the content of a `<body>`.
    /// Past ``RawHTMLDepthGuard``'s bound the rest of `html` is one text node.
    package static func parse(_ html: String) -> [RawHTMLNode] {
        let cut = RawHTMLDepthGuard.cut(html)
        if cut < html.utf8.count {
            let utf8 = html.utf8
            let mid = utf8.index(utf8.startIndex, offsetBy: cut)
            // Text follows what the cut part leaves open: nothing is open at the end.
            var nodes = withTree(String(html[..<mid])) { root in children(of: root, depth: 0, open: false) } ?? []
            nodes.append(.text(String(html[mid...])))
            return nodes
        }
        return withTree(html) { root in children(of: root, depth: 0, open: true) } ?? []
    }

    /// The name of the first element `html` parses to (dropped-content elements included), or "".
    package static func firstElementName(_ html: String) -> String {
        withTree(html) { root -> String in
            let v = root.pointee.v.element.children
            for i in 0..<Int(v.length) {
                guard let c = v.data[i]?.assumingMemoryBound(to: GumboNode.self) else { continue }
                if c.pointee.type == GUMBO_NODE_ELEMENT || c.pointee.type == GUMBO_NODE_TEMPLATE { return elementName(c) }
            }
            return ""
        } ?? ""
    }

    /// Runs `body` with the root element of gumbo's tree of `html` (a body fragment), then frees it.
    /// `nil` when gumbo cannot be loaded (the first time, a warning on standard error): the raw
    /// HTML is then left out, as cmark-gfm's safe mode leaves it out.
    static func withTree<T>(_ html: String, _ body: (UnsafeMutablePointer<GumboNode>) -> T) -> T? {
        guard notepress_gumbo_load_error() == nil else { return nil }
        var options = notepress_gumbo_default_options()
        options.max_errors = 0  // no error list: nothing reads it
        options.fragment_context = GUMBO_TAG_BODY
        options.fragment_namespace = GUMBO_NAMESPACE_HTML
        var bytes = Array(html.utf8)
        bytes.append(0)
        return bytes.withUnsafeBufferPointer { buf -> T? in
            buf.withMemoryRebound(to: CChar.self) { chars in
                var opts = options
                guard let output = notepress_gumbo_parse_with_options(&opts, chars.baseAddress, buf.count - 1) else { return nil }
                defer { notepress_gumbo_destroy_output(&opts, output) }
                // A fragment's nodes are the children of the `html` element gumbo puts at the root.
                guard let root = output.pointee.root, root.pointee.type == GUMBO_NODE_ELEMENT else { return nil }
                return body(root)
            }
        }
    }

    /// The copied children of element `node` at nesting `depth`; `open`: the input ends inside
    /// `node` (its last child, if an element that gumbo closed only at the end of the input, is
    /// ``RawHTMLElement/openAtEnd`` too).
    static func children(of node: UnsafeMutablePointer<GumboNode>, depth: Int, open: Bool = false) -> [RawHTMLNode] {
        let vector = node.pointee.v.element.children
        var result: [RawHTMLNode] = []
        result.reserveCapacity(Int(vector.length))
        for i in 0..<Int(vector.length) {
            guard let child = vector.data[i]?.assumingMemoryBound(to: GumboNode.self) else { continue }
            switch child.pointee.type {
            case GUMBO_NODE_TEXT, GUMBO_NODE_WHITESPACE, GUMBO_NODE_CDATA:
                result.append(.text(string(child.pointee.v.text.text)))
            case GUMBO_NODE_ELEMENT, GUMBO_NODE_TEMPLATE:
                let name = elementName(child)
                if RawHTMLPolicy.dropsContent(name) { continue }
                if depth >= ASTLimits.maxNestingDepth {
                    let text = flattenedText(child)
                    if !text.isEmpty { result.append(.text(text)) }
                    continue
                }
                let openAtEnd = open && i == Int(vector.length) - 1
                    && child.pointee.parse_flags.rawValue & GUMBO_INSERTION_IMPLICIT_END_TAG.rawValue != 0
                result.append(.element(RawHTMLElement(name: name, attributes: attributes(of: child),
                                                      children: children(of: child, depth: depth + 1, open: openAtEnd),
                                                      openAtEnd: openAtEnd)))
            default:
                continue  // comments, the document node
            }
        }
        return result
    }

    /// The lower-case name of an HTML element, or "" for an unknown or foreign one.
    static func elementName(_ node: UnsafeMutablePointer<GumboNode>) -> String {
        let element = node.pointee.v.element
        if element.tag_namespace == GUMBO_NAMESPACE_SVG || element.tag_namespace == GUMBO_NAMESPACE_MATHML {
            // Foreign content: its script and style still drop their content.
            let n = string(notepress_gumbo_normalized_tagname(element.tag))
            return n == "script" || n == "style" ? n : ""
        }
        if element.tag == GUMBO_TAG_UNKNOWN { return "" }
        return string(notepress_gumbo_normalized_tagname(element.tag))
    }

    /// The attributes of an element, in source order.
    static func attributes(of node: UnsafeMutablePointer<GumboNode>) -> [RawHTMLAttribute] {
        let vector = node.pointee.v.element.attributes
        var result: [RawHTMLAttribute] = []
        for i in 0..<Int(vector.length) {
            guard let a = vector.data[i]?.assumingMemoryBound(to: GumboAttribute.self) else { continue }
            result.append(RawHTMLAttribute(name: string(a.pointee.name).lowercased(), value: string(a.pointee.value)))
        }
        return result
    }

    /// The text below `node` (dropped content left out), without recursion: for elements past
    /// the depth limit.
    static func flattenedText(_ node: UnsafeMutablePointer<GumboNode>) -> String {
        var text = ""
        var stack = [node]
        while let n = stack.popLast() {
            switch n.pointee.type {
            case GUMBO_NODE_TEXT, GUMBO_NODE_WHITESPACE, GUMBO_NODE_CDATA:
                text += string(n.pointee.v.text.text)
            case GUMBO_NODE_ELEMENT, GUMBO_NODE_TEMPLATE:
                if RawHTMLPolicy.dropsContent(elementName(n)) { continue }
                let v = n.pointee.v.element.children
                for i in stride(from: Int(v.length) - 1, through: 0, by: -1) {
                    if let c = v.data[i]?.assumingMemoryBound(to: GumboNode.self) { stack.append(c) }
                }
            default: continue
            }
        }
        return text
    }

    static func string(_ p: UnsafePointer<CChar>?) -> String {
        guard let p else { return "" }
        return String(cString: p)
    }
}
