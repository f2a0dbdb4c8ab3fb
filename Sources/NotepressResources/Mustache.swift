/// A Mustache template (the Mustache spec, github.com/mustache/spec, modules comments, delimiters,
/// interpolation, inverted, partials and sections; no lambdas, no inheritance), compiled once by
/// ``init(_:name:)`` and rendered any number of times by ``render(_:partials:escape:)``.
///
/// Tags (`{{` `}}` are the default delimiters):
/// - `{{name}}` the value, escaped with the `escape` function given to ``render(_:partials:escape:)``;
///   `{{{name}}}` and `{{& name}}` the value unescaped.
/// - `{{#name}}…{{/name}}` a section: nothing when the value is falsey, the content once per item
///   of a list, else the content once with the value on top of the context stack;
///   `{{^name}}…{{/name}}` an inverted section: the content once when the value is falsey.
/// - `{{> name}}` a partial: the template `partials[name]` rendered with the current context
///   stack (nothing when there is none). On a line of its own, the whitespace before it is
///   prepended to each line of the partial.
/// - `{{! text }}` a comment; `{{=<% %>=}}` sets new delimiters (two non-empty strings without
///   whitespace or `=`) for the rest of this template (not for its partials).
/// - Names: `.` is the top of the context stack; `a.b.c` finds `a` in the innermost context that
///   has it, then `b` in that value and `c` in that one only (``MustacheValue``).
/// - Standalone lines: a line holding only whitespace and one section, inverted, end, comment,
///   partial or delimiter tag is removed entirely, its line ending included.
/// Padding inside tags is allowed (`{{ name }}`, `{{# name }}`); the sigil comes right after the
/// opening delimiter.
///
/// Compiling is one pass over the source (substring search by Knuth–Morris–Pratt, so linear even
/// for long delimiters); the result is a flat list of nodes in which each section knows where it
/// ends. Sections may nest ``maximumDepth`` deep, and rendering stops with an error when sections
/// and partials together nest deeper than that (a partial that includes itself without end), so
/// neither step can exhaust the stack. Positions in errors are 1-based lines and columns counted
/// in Unicode scalars.
package struct MustacheTemplate: Sendable {
    /// How deep sections may nest in one template, and sections and partials together while
    /// rendering.
    package static let maximumDepth = 100

    /// The name used in error messages (a path, or a partial's name).
    package let name: String
    let nodes: [MustacheNode]
    /// The source, for turning byte offsets into lines and columns in errors.
    let source: [UInt8]

    /// Compiles `source`.
    /// - Throws: ``MustacheError`` for an unclosed tag, an empty or malformed name, a bad
    ///   delimiter tag, an end tag that closes no section or another one, a section left open, a
    ///   section nested deeper than ``maximumDepth``, and the unsupported `{{<parent}}` and
    ///   `{{$block}}` tags of the optional inheritance module.
    package init(_ source: String, name: String = "template") throws {
        self.name = name
        self.source = Array(source.utf8)
        var parser = MustacheParser(source: self.source, name: name)
        self.nodes = try parser.parse()
    }

    /// The rendered text.
    /// - Parameters:
    ///   - data: the bottom of the context stack (usually a `.map`).
    ///   - partials: compiled templates by partial name; a missing one renders as nothing.
    ///   - escape: what `{{name}}` applies to a value (the output format's escaper, e.g.
    ///     `HTMLEscape.text` for HTML, which turns `&` `<` `>` `"` into entities as the spec
    ///     requires).
    ///   - capacity: the caller's estimate of the output's size in UTF-8 bytes (a page's body and
    ///     stylesheet), reserved up front with the template's own size so that the text is not
    ///     copied as it grows; only a hint, the output is the same for any value.
    /// - Throws: ``MustacheError`` when sections and partials nest deeper than ``maximumDepth``.
    package func render(_ data: MustacheValue, partials: [String: MustacheTemplate] = [:],
                       escape: (String) -> String, capacity: Int = 0, memo: MustacheMemo? = nil) throws -> String {
        try render(data, partials: partials, escape: escape, capacity: capacity, memo: memo, into: String.self)
    }

    /// ``render(_:partials:escape:capacity:)`` as UTF-8 bytes: the same text, and
    /// ``MustacheValue/utf8(_:)`` values go into it by `{{{name}}}` without a `String` between.
    /// `memo`: partials rendered with a memo key (``MustacheMemo``) are taken from it, or kept in it.
    package func renderUTF8(_ data: MustacheValue, partials: [String: MustacheTemplate] = [:],
                           escape: (String) -> String, capacity: Int = 0, memo: MustacheMemo? = nil) throws -> [UInt8] {
        try render(data, partials: partials, escape: escape, capacity: capacity, memo: memo, into: [UInt8].self)
    }

    private func render<Output: MustacheOutput>(_ data: MustacheValue, partials: [String: MustacheTemplate],
                                                escape: (String) -> String, capacity: Int, memo: MustacheMemo?,
                                                into: Output.Type) throws -> Output {
        try withoutActuallyEscaping(escape) { escape in
            var r = MustacheRenderer<Output>(partials: partials, escape: escape, stack: [data])
            r.memo = memo
            r.out.reserve(source.count + partials.values.reduce(0) { $0 + $1.source.count } + max(0, capacity))
            try r.render(self, from: 0, to: nodes.count, depth: 0)
            return r.out
        }
    }

    /// Compiles several templates (for ``render(_:partials:escape:)``'s `partials`), each named
    /// by its key. - Throws: the first ``MustacheError``.
    package static func compile(_ sources: [String: String]) throws -> [String: MustacheTemplate] {
        var out: [String: MustacheTemplate] = [:]
        for (name, text) in sources.sorted(by: { $0.key < $1.key }) { out[name] = try MustacheTemplate(text, name: name) }
        return out
    }

    /// The partials this template includes (`{{> name}}`), each name once, in order of first use,
    /// with the 1-based line and column of that first tag: what a caller must load and pass to
    /// ``render(_:partials:escape:)`` (the names its partials include in turn are theirs).
    package var partialReferences: [(name: String, line: Int, column: Int)] {
        var seen: Set<String> = []
        var out: [(name: String, line: Int, column: Int)] = []
        // Tags come in source order: one forward walk gives every position (linear).
        var line = 1, column = 1, i = 0
        for node in nodes {
            guard case .partial(let name, _, let offset) = node, seen.insert(name).inserted else { continue }
            while i < offset && i < source.count {
                if source[i] == 0x0A { line += 1; column = 1 } else if source[i] & 0xC0 != 0x80 { column += 1 }
                i += 1
            }
            out.append((name, line, column))
        }
        return out
    }

    /// 1-based line and column (in Unicode scalars) of byte `offset` of the source.
    func position(_ offset: Int) -> (line: Int, column: Int) {
        Self.position(in: source, offset)
    }

    /// 1-based line and column (in Unicode scalars) of byte `offset` of `source`.
    static func position(in source: [UInt8], _ offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        var i = 0
        while i < offset && i < source.count {
            let b = source[i]
            if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return (line, column)
    }
}

/// A template that cannot be compiled or rendered, with its place.
package struct MustacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The template's name (``MustacheTemplate/name``).
    package var template: String
    /// 1-based line of the tag at fault.
    package var line: Int
    /// 1-based column of the tag at fault, in Unicode scalars.
    package var column: Int
    /// What is wrong.
    package var message: String

    /// An error at `line`:`column` of `template`.
    package init(template: String, line: Int, column: Int, message: String) {
        self.template = template; self.line = line; self.column = column; self.message = message
    }

    /// `template:line:column: message`.
    package var description: String { "\(template):\(line):\(column): \(message)" }
}

/// A name in a tag: `.` (no parts) or dotted parts.
struct MustacheName: Sendable {
    /// The name as written (trimmed), for matching end tags and for messages.
    var text: String
    /// `["a", "b"]` for `a.b`; empty for `.`.
    var parts: [String]
}

/// One node of a compiled template.
enum MustacheNode: Sendable {
    /// Literal template text.
    case text(String)
    /// `{{name}}` (escaped) or `{{{name}}}`/`{{&name}}` (raw).
    case variable(MustacheName, escaped: Bool)
    /// `{{#name}}` or `{{^name}}`: its content is the nodes up to index `end` (exclusive), where
    /// the node after the section follows. `offset`: the tag's byte offset.
    case section(MustacheName, inverted: Bool, end: Int, offset: Int)
    /// `{{>name}}`; `indent` is the whitespace before a standalone tag (nil when not standalone).
    case partial(String, indent: String?, offset: Int)
}

/// What a renderer writes into: a `String`, or UTF-8 bytes (``MustacheTemplate/renderUTF8(_:partials:escape:capacity:)``).
protocol MustacheOutput {
    init()
    /// Makes room for `count` UTF-8 bytes (a hint).
    mutating func reserve(_ count: Int)
    /// Appends text.
    mutating func put(_ s: String)
    /// Appends text.
    mutating func put(_ s: Substring)
    /// Appends text given as UTF-8 (``MustacheValue/utf8(_:)``).
    mutating func put(utf8 bytes: [UInt8])
}

extension String: MustacheOutput {
    mutating func reserve(_ count: Int) { reserveCapacity(count) }
    mutating func put(_ s: String) { self += s }
    mutating func put(_ s: Substring) { self += s }
    mutating func put(utf8 bytes: [UInt8]) { self += String(decoding: bytes, as: UTF8.self) }
}

extension Array: MustacheOutput where Element == UInt8 {
    mutating func reserve(_ count: Int) { reserveCapacity(count) }
    mutating func put(_ s: String) {
        var s = s
        s.withUTF8 { append(contentsOf: $0) }
    }
    mutating func put(_ s: Substring) { append(contentsOf: s.utf8) }
    mutating func put(utf8 bytes: [UInt8]) { append(contentsOf: bytes) }
}

/// Renders nodes into `out` (one renderer per ``MustacheTemplate/render(_:partials:escape:)``).
struct MustacheRenderer<Output: MustacheOutput> {
    let partials: [String: MustacheTemplate]
    let escape: (String) -> String
    var stack: [MustacheValue]
    var out = Output()
    /// Indentation of the standalone partials being rendered (prepended to each of their lines).
    var indent = ""
    /// Whether the output is at the start of a line of an indented partial's source.
    var atLineStart = false
    /// Rendered partials by memo key (``MustacheMemo``).
    var memo: MustacheMemo?

    init(partials: [String: MustacheTemplate], escape: @escaping (String) -> String, stack: [MustacheValue]) {
        self.partials = partials; self.escape = escape; self.stack = stack
    }

    mutating func render(_ t: MustacheTemplate, from start: Int, to end: Int, depth: Int) throws {
        var i = start
        while i < end {
            switch t.nodes[i] {
            case .text(let s):
                if indent.isEmpty { out.put(s) } else { indented(s) }
                i += 1
            case .variable(let name, let escaped):
                if atLineStart && !indent.isEmpty { out.put(indent); atLineStart = false }
                if let v = lookup(name) {
                    if !escaped, case .utf8(let bytes) = v {
                        out.put(utf8: bytes)
                    } else {
                        out.put(escaped ? escape(v.interpolated) : v.interpolated)
                    }
                }
                i += 1
            case .section(let name, let inverted, let sectionEnd, let offset):
                let v = lookup(name) ?? .null
                if inverted {
                    if !v.isTruthy { try nested(t, offset, depth) { try $0.render(t, from: i + 1, to: sectionEnd, depth: depth + 1) } }
                } else if case .list(let items) = v {
                    for item in items {
                        stack.append(item)
                        try nested(t, offset, depth) { try $0.render(t, from: i + 1, to: sectionEnd, depth: depth + 1) }
                        stack.removeLast()
                    }
                } else if v.isTruthy {
                    stack.append(v)
                    try nested(t, offset, depth) { try $0.render(t, from: i + 1, to: sectionEnd, depth: depth + 1) }
                    stack.removeLast()
                }
                i = sectionEnd
            case .partial(let name, let partialIndent, let offset):
                if let memo, indent.isEmpty, (partialIndent ?? "").isEmpty, case .map(let m)? = stack.last,
                   case .string(let id)? = m[MustacheMemo.key], let p = partials[name] {
                    // A context that names its content: the partial's bytes are the same every time.
                    let key = name + "\u{1F}" + id
                    if let done = memo.get(key) {
                        out.put(utf8: done)
                    } else {
                        var sub = MustacheRenderer<[UInt8]>(partials: partials, escape: escape, stack: stack)
                        sub.memo = memo
                        try nested(t, offset, depth) { _ in try sub.render(p, from: 0, to: p.nodes.count, depth: depth + 1) }
                        memo.set(key, sub.out)
                        out.put(utf8: sub.out)
                    }
                } else if let p = partials[name] {
                    let saved = indent
                    if let partialIndent {
                        indent += partialIndent
                        atLineStart = true
                    }
                    try nested(t, offset, depth) { try $0.render(p, from: 0, to: p.nodes.count, depth: depth + 1) }
                    indent = saved
                }
                i += 1
            }
        }
    }

    /// Runs `body` one level deeper, or throws when that is deeper than the limit.
    private mutating func nested(_ t: MustacheTemplate, _ offset: Int, _ depth: Int,
                                 _ body: (inout MustacheRenderer) throws -> Void) throws {
        guard depth < MustacheTemplate.maximumDepth else {
            let (line, column) = t.position(offset)
            throw MustacheError(template: t.name, line: line, column: column,
                                message: "sections and partials nest deeper than \(MustacheTemplate.maximumDepth) levels (a partial that includes itself?)")
        }
        try body(&self)
    }

    /// Template text inside an indented partial: the indentation before each line that has any.
    /// A line ends at LF or CR LF (the Mustache spec's line endings; Swift reads CR LF as one
    /// `Character`, so searching for `"\n"` alone missed it).
    private mutating func indented(_ s: String) {
        var rest = Substring(s)
        while !rest.isEmpty {
            if atLineStart { out.put(indent); atLineStart = false }
            if let nl = rest.firstIndex(where: { $0 == "\n" || $0 == "\r\n" }) {
                out.put(rest[...nl])
                rest = rest[rest.index(after: nl)...]
                atLineStart = true
            } else {
                out.put(rest)
                rest = ""
            }
        }
    }

    /// The value `name` resolves to on the context stack, or nil (see ``MustacheTemplate``).
    func lookup(_ name: MustacheName) -> MustacheValue? {
        guard let first = name.parts.first else { return stack.last }
        var found: MustacheValue?
        var k = stack.count
        while k > 0 {
            k -= 1
            if case .map(let m) = stack[k], let v = m[first] { found = v; break }
        }
        guard var v = found else { return nil }
        for part in name.parts.dropFirst() {
            guard case .map(let m) = v, let w = m[part] else { return nil }
            v = w
        }
        return v
    }
}
