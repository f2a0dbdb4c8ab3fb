/// A minimal XML element tree and its serializer. All user text reaches the output through
/// ``XMLEscaping/text(_:)`` (character data) or ``XMLEscaping/attribute(_:)`` (attribute values),
/// which also remove characters that XML 1.0 does not allow (XML 1.0 §2.2, production [2] `Char`).
package indirect enum XMLTreeNode: Sendable, Equatable {
    /// An element: qualified name, attributes in output order, children.
    case element(XMLTreeElement)
    /// Character data, unescaped; escaped on output.
    case text(String)
}

/// One XML element. Names are written verbatim; they come from this module, never from user text.
package struct XMLTreeElement: Sendable, Equatable {
    package var name: String
    /// Attributes in output order: (qualified name, unescaped value).
    package var attributes: [(String, String)]
    package var children: [XMLTreeNode]

    package init(_ name: String, _ attributes: [(String, String)] = [], _ children: [XMLTreeNode] = []) {
        self.name = name
        self.attributes = attributes
        self.children = children
    }

    package static func == (a: XMLTreeElement, b: XMLTreeElement) -> Bool {
        a.name == b.name && a.children == b.children
            && a.attributes.map(\.0) == b.attributes.map(\.0) && a.attributes.map(\.1) == b.attributes.map(\.1)
    }

    /// Appends a child element.
    package mutating func append(_ e: XMLTreeElement) { children.append(.element(e)) }

    /// Appends character data, merging it with a preceding text node. The node is taken out of
    /// the array first, so that its string is uniquely referenced and grows in place: many runs
    /// merged into one text node cost linear time, not a copy of the whole text per run.
    package mutating func append(text: String) {
        guard !text.isEmpty else { return }
        if case .text(var t)? = children.last {
            children.removeLast()
            t += text
            children.append(.text(t))
        } else {
            children.append(.text(text))
        }
    }
}

/// The two escaping functions of the XML output.
package enum XMLEscaping {
    /// Escapes character data: `&`, `<`, `>` become references, CR becomes `&#xD;` (so that the
    /// parser's line-end normalisation, XML 1.0 §2.11, keeps it), non-`Char`s are removed.
    package static func text(_ s: String) -> String {
        var out: [UInt8] = []
        appendText(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Escapes an attribute value written between double quotes: `&`, `<`, `>`, `"` become
    /// references; TAB, LF and CR become character references so that attribute-value
    /// normalisation (XML 1.0 §3.3.3) keeps them; non-`Char`s are removed.
    package static func attribute(_ s: String) -> String {
        var out: [UInt8] = []
        appendAttribute(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// ``text(_:)`` appended to UTF-8 bytes.
    package static func appendText(_ s: String, to out: inout [UInt8]) { append(s, attribute: false, to: &out) }

    /// ``attribute(_:)`` appended to UTF-8 bytes.
    package static func appendAttribute(_ s: String, to out: inout [UInt8]) { append(s, attribute: true, to: &out) }

    /// Both rules, byte by byte over the UTF-8 (which is valid, so has no surrogates): the
    /// non-`Char`s are the C0 controls but TAB, LF, CR, and U+FFFE, U+FFFF (`EF BF BE`, `EF BF BF`);
    /// every other byte of two-, three- and four-byte sequences is copied.
    private static func append(_ s: String, attribute: Bool, to out: inout [UInt8]) {
        var s = s
        s.withUTF8 { b in
            let n = b.count
            var i = 0
            var start = 0
            func flush(_ end: Int) { if start < end { out.append(contentsOf: UnsafeBufferPointer(rebasing: b[start..<end])) } }
            while i < n {
                let c = b[i]
                if c >= 0x80 {
                    if c == 0xEF && i + 2 < n && b[i + 1] == 0xBF && (b[i + 2] == 0xBE || b[i + 2] == 0xBF) {
                        flush(i); i += 3; start = i
                    } else {
                        i += 1
                    }
                    continue
                }
                let replacement: StaticString?
                switch c {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case 0x0D: replacement = "&#xD;"
                case UInt8(ascii: "\""): replacement = attribute ? "&quot;" : nil
                case 0x09: replacement = attribute ? "&#x9;" : nil
                case 0x0A: replacement = attribute ? "&#xA;" : nil
                case 0x00..<0x20:
                    flush(i); i += 1; start = i
                    continue
                default: replacement = nil
                }
                if let replacement {
                    flush(i)
                    replacement.withUTF8Buffer { out.append(contentsOf: $0) }
                    i += 1
                    start = i
                } else {
                    i += 1
                }
            }
            flush(n)
        }
    }
}

/// Serializes an ``XMLTreeElement`` tree. Elements named in `blockElements` whose parent is also laid
/// out as blocks get one child per line, indented by two spaces per level; everything else
/// (mixed content) is written without added whitespace, so no character data changes.
struct XMLSerializer {
    var blockElements: Set<String>
    /// The UTF-8 bytes written so far.
    var out: [UInt8] = []

    init(blockElements: Set<String>) { self.blockElements = blockElements }

    /// `<?xml version="1.0" encoding="UTF-8"?>`, the root, and a final newline.
    mutating func document(_ root: XMLTreeElement) -> String {
        String(decoding: documentBytes(root), as: UTF8.self)
    }

    /// ``document(_:)`` as UTF-8 bytes.
    mutating func documentBytes(_ root: XMLTreeElement) -> [UInt8] {
        out = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".utf8)
        write(root, indent: 0)
        out.append(0x0A)
        return out
    }

    private mutating func raw(_ s: String) { out.append(contentsOf: s.utf8) }

    private mutating func pad(_ level: Int) {
        out.append(0x0A)
        out.append(contentsOf: repeatElement(0x20, count: 2 * level))
    }

    private mutating func startTag(_ e: XMLTreeElement) {
        out.append(UInt8(ascii: "<")); raw(e.name)
        for (name, value) in e.attributes {
            out.append(0x20); raw(name); out.append(UInt8(ascii: "=")); out.append(UInt8(ascii: "\""))
            XMLEscaping.appendAttribute(value, to: &out)
            out.append(UInt8(ascii: "\""))
        }
    }

    /// Writes `e`; `indent` is its nesting level in block layout, or `nil` inside mixed content.
    /// Iterative (a stack of open elements, not recursion), so any depth is safe.
    private mutating func write(_ e: XMLTreeElement, indent: Int?) {
        struct Open {
            let element: XMLTreeElement
            var next = 0
            /// Block layout: one child per line at `indent + 1`.
            let indent: Int?
        }
        var stack: [Open] = []
        func start(_ e: XMLTreeElement, indent: Int?) {
            startTag(e)
            if e.children.isEmpty { out.append(UInt8(ascii: "/")); out.append(UInt8(ascii: ">")); return }
            out.append(UInt8(ascii: ">"))
            let block = indent.flatMap { blockElements.contains(e.name) ? $0 : nil }
            stack.append(Open(element: e, indent: block))
        }
        start(e, indent: indent)
        while let top = stack.last {
            if top.next == top.element.children.count {
                stack.removeLast()
                if let indent = top.indent { pad(indent) }
                out.append(UInt8(ascii: "<")); out.append(UInt8(ascii: "/")); raw(top.element.name); out.append(UInt8(ascii: ">"))
                continue
            }
            let child = top.element.children[top.next]
            stack[stack.count - 1].next += 1
            if let indent = top.indent { pad(indent + 1) }
            switch child {
            case .element(let c): start(c, indent: top.indent.map { $0 + 1 })
            case .text(let t): XMLEscaping.appendText(t, to: &out)
            }
        }
    }
}
