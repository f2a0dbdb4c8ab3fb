/// Attributes an author wrote for a block, link or image (Python-Markdown's `attr_list`:
/// `{ #id .class key=value }`), as read: the policy of which of them an HTML page may carry is
/// ``htmlAttributes``, the one place that decides it.
public struct MarkupAttributes: Sendable, Equatable, Hashable {
    /// `#id`: the last one written.
    public var id: String?
    /// `.class` names, in order.
    public var classes: [String]
    /// `key=value` pairs, in order (quotes removed).
    public var pairs: [Pair]

    /// One `key=value`.
    public struct Pair: Sendable, Equatable, Hashable {
        /// The name as written.
        public var key: String
        /// The value, without its quotes.
        public var value: String
        /// A pair of `key` and `value`.
        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    /// Attributes (see the properties).
    public init(id: String? = nil, classes: [String] = [], pairs: [Pair] = []) {
        self.id = id
        self.classes = classes
        self.pairs = pairs
    }

    /// Whether nothing was given.
    public var isEmpty: Bool { id == nil && classes.isEmpty && pairs.isEmpty }

    /// The attribute names an HTML page takes from an author's `key=value`: presentation and
    /// accessibility names with no script, style or URL in them (`style`, `on…`, `href`, `src`
    /// and the rest are dropped, so an attribute list cannot bring in what `--unsafe` keeps out).
    static let safeNames: Set<String> = [
        "title", "lang", "dir", "align", "width", "height", "alt", "role", "tabindex", "hidden", "loading",
        "target", "rel", "download", "colspan", "rowspan", "start", "reversed", "translate",
    ]

    /// Whether an HTML page may carry an attribute `name` an author wrote (``safeNames``, and
    /// `data-*` / `aria-*` of letters, digits and `-`).
    public static func isSafeHTMLName(_ name: String) -> Bool {
        let n = name.lowercased()
        if safeNames.contains(n) { return true }
        guard n.hasPrefix("data-") || n.hasPrefix("aria-"), n.count > 5 else { return false }
        return n.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
    }

    /// The `key=value` pairs an HTML page carries (``isSafeHTMLName(_:)``), minus `skip` (names
    /// the writer sets itself: an image's `width`/`height`), unescaped: the writer escapes values.
    public func htmlAttributes(skipping skip: Set<String> = []) -> [Pair] {
        pairs.filter { Self.isSafeHTMLName($0.key) && !skip.contains($0.key.lowercased()) }
    }

    /// The classes as one `class` value (names of characters other than space, as HTML takes
    /// them); `nil` without classes.
    public var classValue: String? { classes.isEmpty ? nil : classes.joined(separator: " ") }
}
