/// A value a ``MustacheTemplate`` is rendered with: the data of the Mustache context stack.
///
/// Truthiness (which values open a `{{#name}}` section and which open `{{^name}}`): `null`,
/// `false`, the empty list and the empty string are falsey, everything else is truthy (the spec
/// leaves the empty string to the language; it is falsey here, as in mustache.js, so that
/// `{{#author}}…{{/author}}` skips an empty field). Numbers are strings (`"1.5"`): the page data
/// (front matter, `-M key=value`) is text.
package enum MustacheValue: Sendable, Equatable {
    /// No value: interpolates as nothing, falsey.
    case null
    /// `true` or `false`: interpolates as `true`/`false`.
    case bool(Bool)
    /// Text: interpolates as itself (escaped by `{{name}}`, raw by `{{{name}}}` and `{{& name}}`).
    case string(String)
    /// A list: a section renders its content once per item, with the item on top of the context
    /// stack. Interpolates as its items' texts joined by `,` (as JavaScript's `Array.toString`).
    case list([MustacheValue])
    /// A hash: names are looked up in it; a section renders its content once with it on top of the
    /// context stack. Interpolates as nothing.
    case map([String: MustacheValue])
    /// Text given as UTF-8 bytes (valid UTF-8: a page body the HTML writer made): as
    /// ``string(_:)``, but ``MustacheTemplate/renderUTF8(_:partials:escape:capacity:)`` copies it
    /// into the output by `{{{name}}}` without making a `String` of it.
    case utf8([UInt8])

    /// Whether a `{{#name}}` section over this value renders its content (see the type's rules).
    package var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let b): return b
        case .string(let s): return !s.isEmpty
        case .list(let l): return !l.isEmpty
        case .map: return true
        case .utf8(let b): return !b.isEmpty
        }
    }

    /// The text `{{name}}` inserts (before escaping).
    package var interpolated: String {
        switch self {
        case .null, .map: return ""
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return s
        case .list(let l): return l.map(\.interpolated).joined(separator: ",")
        case .utf8(let b): return String(decoding: b, as: UTF8.self)
        }
    }
}

extension MustacheValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    /// `"text"` is `.string("text")`.
    package init(stringLiteral value: String) { self = .string(value) }
    /// `true` is `.bool(true)`.
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `["a", "b"]` is `.list([.string("a"), .string("b")])`.
    package init(arrayLiteral elements: MustacheValue...) { self = .list(elements) }
    /// `["k": "v"]` is `.map(["k": .string("v")])`; a repeated key keeps its last value.
    package init(dictionaryLiteral elements: (String, MustacheValue)...) {
        var m: [String: MustacheValue] = [:]
        for (k, v) in elements { m[k] = v }
        self = .map(m)
    }
    /// `nil` is `.null`.
    package init(nilLiteral: ()) { self = .null }
}
