import Foundation
import NotepressAST

/// Metadata given on the command line, `-M KEY[=VALUE]` (pandoc's `-M`/`--metadata`). Applied to
/// every document after its front matter, so a value given here wins over the document's own
/// field, which wins over the defaults (the file name as title, the file time as `created`, the
/// page template's `lang` of `en`) — pandoc's precedence.
///
/// Values are YAML-ish scalars, as pandoc reads them: `true`/`false` (``MetadataValue/boolean(_:)``)
/// are booleans, anything else is text (no quotes needed or removed); `-M KEY` alone is `true`.
/// The fields with a meaning of their own take the front matter's rules:
/// - `title`: the title (the last `-M title=…` wins);
/// - `created`: an ISO 8601 date (``CivilDateTime/parse(_:)``), else a usage error;
/// - `tags`: comma-separated tags (``FrontMatter/splitTags(_:)``) that replace the front
///   matter's, added up over repeated options (`-M tags=a,b -M tags=c`).
/// Any other key sets ``DocumentMetadata/fields`` (text; a boolean as `true`/`false`); the
/// same key given twice makes a list (``DocumentMetadata/collections``), as pandoc does.
package struct MetadataOverrides: Sendable, Equatable {
    /// One `-M` option: its key and its value (`nil` for `-M KEY` alone).
    package struct Entry: Sendable, Equatable {
        package var key: String
        package var value: String?
        package init(key: String, value: String?) { self.key = key; self.value = value }
    }

    /// The options in command-line order.
    package private(set) var entries: [Entry] = []
    /// `created`, parsed once.
    private var created: Date?

    /// No overrides.
    package init() {}

    /// Parses the values of `-M` options (`KEY=VALUE` or `KEY`), in order.
    /// - Throws: ``MetadataOverrideError`` for an empty key, a `created` that is not an ISO 8601
    ///   date, and a `title`, `created` or `tags` without a value.
    package init(_ arguments: [String]) throws {
        for a in arguments {
            let key: String
            var value: String?
            if let eq = a.firstIndex(of: "=") {
                key = String(a[..<eq])
                value = String(a[a.index(after: eq)...])
            } else {
                key = a
            }
            guard !key.isEmpty else { throw MetadataOverrideError(argument: a, message: "the key is empty (expected KEY=VALUE)") }
            if ["title", "created", "tags"].contains(key) && value == nil {
                throw MetadataOverrideError(argument: a, message: "'\(key)' needs a value (\(key)=…)")
            }
            if key == "created", let value {
                guard let d = CivilDateTime.parse(value) else {
                    throw MetadataOverrideError(argument: a, message: "created is not an ISO 8601 date (expected YYYY-MM-DD, "
                        + "YYYY-MM-DDTHH:MM[:SS][Z|±HH:MM] or YYYY-MM-DD HH:MM[:SS])")
                }
                created = d
            }
            entries.append(Entry(key: key, value: value))
        }
    }

    /// Whether there is nothing to apply.
    package var isEmpty: Bool { entries.isEmpty }

    /// A deterministic text of the options, for build fingerprints (``entries`` in order).
    package var fingerprint: String {
        entries.map { $0.key + ($0.value.map { "=" + $0 } ?? "") }.joined(separator: "\u{1F}")
    }

    /// Sets the fields of `metadata` (see the type's rules).
    package func apply(to metadata: inout DocumentMetadata) {
        guard !entries.isEmpty else { return }
        var given: [String: [String]] = [:]
        var order: [String] = []
        var tags: [String]?
        for e in entries {
            switch e.key {
            case "title":
                metadata.title = e.value
                metadata.titleSource = .frontMatter  // given, as front matter gives it: shown in the page chrome
            case "created": break
            case "tags": tags = (tags ?? []) + FrontMatter.splitTags(e.value ?? "")
            default:
                if given[e.key] == nil { order.append(e.key) }
                given[e.key, default: []].append(e.value ?? "true")
            }
        }
        if let created { metadata.created = created }
        if let tags { metadata.tags = tags }
        for key in order {
            let values = given[key]!
            if values.count == 1 {
                metadata.fields[key] = values[0]
                metadata.collections[key] = nil
            } else {
                metadata.fields[key] = nil
                metadata.collections[key] = .list(values.map { MetadataValue.boolean($0).map(MetadataValue.bool) ?? .string($0) })
            }
        }
    }
}

/// A `-M` option that cannot be used.
package struct MetadataOverrideError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The option's value as given.
    package var argument: String
    /// What is wrong.
    package var message: String

    package init(argument: String, message: String) {
        self.argument = argument
        self.message = message
    }

    /// `-M 'ARGUMENT': MESSAGE`.
    package var description: String { "-M '\(argument)': \(message)" }
}
