/// A front-matter value that is not a plain field: a YAML sequence or mapping, kept as written so
/// that page templates can walk it (`{{#authors}}{{name}}{{/authors}}`). Scalars inside are text,
/// except the YAML 1.2 core-schema booleans (`true`/`True`/`TRUE`, `false`/`False`/`FALSE`, plain,
/// not quoted), which are ``bool(_:)``; null items (`~`, `null`, empty) are left out.
public indirect enum MetadataValue: Sendable, Equatable, Hashable, Codable {
    /// A scalar, as written (numbers are text too).
    case string(String)
    /// A plain `true` or `false` scalar.
    case bool(Bool)
    /// A YAML sequence, in order.
    case list([MetadataValue])
    /// A YAML mapping, by key (a repeated key keeps its last value).
    case map([String: MetadataValue])

    /// The YAML 1.2 core-schema boolean a plain scalar `text` spells (`true`, `True`, `TRUE`,
    /// `false`, `False`, `FALSE`), or `nil`. The one boolean rule of front matter, `-M` values
    /// and page-template data.
    public static func boolean(_ text: String) -> Bool? {
        switch text {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default: return nil
        }
    }

    /// The text of a scalar, or of each scalar of a list joined by `separator`; `nil` for a map
    /// (or a list holding one). Booleans are `true`/`false`.
    public func joinedText(separator: String) -> String? {
        switch self {
        case .string(let s): return s
        case .bool(let b): return b ? "true" : "false"
        case .map: return nil
        case .list(let items):
            var parts: [String] = []
            for item in items {
                guard let t = item.joinedText(separator: separator) else { return nil }
                parts.append(t)
            }
            return parts.joined(separator: separator)
        }
    }
}
