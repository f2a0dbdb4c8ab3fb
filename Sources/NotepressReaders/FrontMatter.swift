import CYAML
import Foundation
import NotepressAST

/// YAML front matter at the very top of a note: a `---` line, YAML, and a closing `---` or `...`
/// line. Scalars are read as text, `tags` as a sequence of scalars (or one comma-separated
/// string); other fields holding a sequence or mapping are kept as ``MetadataValue``s for page
/// templates (``collections``), nested up to ``maximumCollectionDepth`` levels.
package struct FrontMatter: Sendable, Equatable {
    /// The `title` field.
    package var title: String?
    /// The `created` field: `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS][Z|±HH:MM]` or
    /// `YYYY-MM-DD HH:MM[:SS]` (UTC when no zone is given).
    package var created: Date?
    /// The `tags` field, in source order.
    package var tags: [String]
    /// Every other scalar field, keyed by name (values as written, without YAML typing).
    package var fields: [String: String]
    /// Every other field whose value is a sequence or mapping, keyed by name
    /// (``DocumentMetadata/collections``).
    package var collections: [String: MetadataValue]
    /// What the reader could not take as written, positioned in the file: a YAML alias (`*x`)
    /// of a sequence or mapping, or of an anchor never defined, is left out with a warning
    /// (an alias of a scalar, `editor: *x` after `author: &x Jane`, is that scalar).
    package var warnings: [Diagnostic] = []

    /// How deep sequences and mappings are kept in ``collections``: deeper ones are left out
    /// (their enclosing value keeps the rest), so building and rendering them stays bounded.
    package static let maximumCollectionDepth = 32

    package init(title: String? = nil, created: Date? = nil, tags: [String] = [], fields: [String: String] = [:],
                collections: [String: MetadataValue] = [:]) {
        self.title = title
        self.created = created
        self.tags = tags
        self.fields = fields
        self.collections = collections
    }

    /// `tags` given as one string: comma-separated, each trimmed of spaces and tabs, empty ones
    /// dropped (`"a, b,,c"` → `a`, `b`, `c`). Also the rule of `-M tags=…`.
    package static func splitTags(_ s: String) -> [String] {
        s.split(separator: ",").map { $0.trimmingHorizontalWhitespace() }.filter { !$0.isEmpty }
    }

    /// Splits `---\n…\n---\n` (or a `...` closing line) at the very top of `text`.
    ///
    /// Returns `nil` front matter, the whole text and offset 0 when the text does not start with a
    /// `---` line or the block is never closed. `bodyLineOffset` is the number of lines consumed
    /// (both fence lines included), so body line `n` is file line `n + bodyLineOffset`.
    ///
    /// Only a YAML **mapping** is front matter. With `markdown` (CommonMark and GFM input, where
    /// `---` lines are thematic breaks or setext underlines) a block that is not one — empty
    /// (`---\n---\n`, CommonMark spec example 68: two thematic breaks), a scalar, a sequence, or
    /// invalid YAML — is not front matter: `nil`, the whole text, offset 0. Without it (note
    /// markup, where `---` has no meaning) an empty block is empty front matter and is removed,
    /// and the others are errors.
    ///
    /// - Throws: ``FrontMatterError``, positioned by lines and columns of the file: for a mapping
    ///   whose `created` is not an accepted date (``CivilDateTime/parse(_:)``: `2024-02-30` is
    ///   rejected) or is a collection, in both syntaxes (``FrontMatterError/Kind/invalidField``);
    ///   without `markdown` also for invalid YAML and a scalar or sequence top level
    ///   (``FrontMatterError/Kind/notAMapping``).
    /// `invalidYAML` is called, in Markdown, when the block is no front matter because it is not
    /// valid YAML although its first line reads as a field (`title: [unclosed`): a writer of front
    /// matter made a mistake that the reader should hear about (a warning; the block stays Markdown).
    package static func split(_ text: String, path: String?, markdown: Bool = false,
                              invalidYAML: ((FrontMatterError) -> Void)? = nil) throws
        -> (frontMatter: FrontMatter?, body: String, bodyLineOffset: Int) {
        let utf8 = text.utf8
        var start = utf8.startIndex
        // A UTF-8 byte order mark before the opening fence is tolerated.
        if utf8.starts(with: [0xEF, 0xBB, 0xBF]) { start = utf8.index(start, offsetBy: 3) }

        // Walk lines: the first must be the opening fence.
        var lineStart = start
        var lineNumber = 0
        var yamlStart: String.Index? = nil
        while lineStart < utf8.endIndex {
            let nl = utf8[lineStart...].firstIndex(of: UInt8(ascii: "\n"))
            let lineEnd = nl ?? utf8.endIndex
            let next = nl.map { utf8.index(after: $0) } ?? utf8.endIndex
            lineNumber += 1
            let line = trimmedFenceLine(utf8[lineStart..<lineEnd])
            if lineNumber == 1 {
                guard line == "---" else { return (nil, text, 0) }
                yamlStart = next
            } else if line == "---" || line == "..." {
                let yaml = String(text[yamlStart!..<lineStart])
                let fm: FrontMatter?
                do {
                    fm = try parseYAML(yaml, path: path, firstLine: 2)
                } catch let e as FrontMatterError where markdown && e.kind == .notAMapping {
                    if e.message.hasPrefix("invalid YAML"), Self.startsWithField(yaml) { invalidYAML?(e) }
                    return (nil, text, 0)
                }
                guard let fm else { return markdown ? (nil, text, 0) : (FrontMatter(), String(text[next...]), lineNumber) }
                return (fm, String(text[next...]), lineNumber)
            }
            if nl == nil { break }
            lineStart = next
        }
        return (nil, text, 0)
    }

    /// Whether the block's first line is `key: …` (a word of letters, digits, `_` or `-`, then `:`
    /// and a blank or the end of the line): what front matter looks like, and Markdown rarely does.
    static func startsWithField(_ yaml: String) -> Bool {
        let line = yaml.utf8.prefix { $0 != 0x0A }
        guard let colon = line.firstIndex(of: 0x3A), colon != line.startIndex else { return false }
        let key = line[..<colon]
        guard key.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F || $0 == 0x2D })
        else { return false }
        let after = line.index(after: colon)
        return after == line.endIndex || line[after] == 0x20 || line[after] == 0x09 || line[after] == 0x0D
    }

    /// A fence line with trailing spaces, tabs and a carriage return removed.
    private static func trimmedFenceLine(_ bytes: Substring.UTF8View) -> String {
        var end = bytes.endIndex
        while end > bytes.startIndex {
            let b = bytes[bytes.index(before: end)]
            if b == 0x20 || b == 0x09 || b == 0x0D { end = bytes.index(before: end) } else { break }
        }
        // Only fences matter; avoid building long strings for long lines.
        if bytes.distance(from: bytes.startIndex, to: end) != 3 { return "" }
        return String(Substring(bytes[bytes.startIndex..<end]))
    }

    // MARK: YAML (libyaml event API)
    /// The deepest flow nesting (`[`, `{`) front matter may have. libyaml's scanner keeps a
    /// possible simple key per open flow level and checks all of them for every token, so time grows
    /// with the square of the depth (40 000 levels: 2.4 s, 80 000: about 10 s); deeper YAML is
    /// refused before libyaml sees it, as other YAML parsers bound nesting (PyYAML, yaml-cpp).
    static let maxFlowDepth = 256

    /// The 1-based line and column of the `[` or `{` that opens level ``maxFlowDepth`` + 1, or
    /// `nil`. One pass; brackets inside quoted scalars and comments do not count.
    static func flowNestingBeyondLimit(_ bytes: [UInt8]) -> (Int, Int)? {
        var depth = 0, line = 1, lineStart = 0, i = 0
        var quote: UInt8 = 0  // 0, ' or "
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x0A { line += 1; lineStart = i + 1; if quote == 0 { i += 1; continue } }
            if quote == 0x22 {
                if b == 0x5C { i += 2; continue }
                if b == 0x22 { quote = 0 }
            } else if quote == 0x27 {
                if b == 0x27 { if i + 1 < bytes.count && bytes[i + 1] == 0x27 { i += 2; continue }; quote = 0 }
            } else {
                switch b {
                case 0x22, 0x27:
                    // A quote opens a quoted scalar only where a scalar may start (after space,
                    // a flow indicator or at the line start); `it's` in a plain scalar does not.
                    let prev = i > lineStart ? bytes[i - 1] : 0x20
                    if prev == 0x20 || prev == 0x09 || prev == 0x5B || prev == 0x7B || prev == 0x2C || prev == 0x3A { quote = b }
                case 0x23:
                    let prev = i > lineStart ? bytes[i - 1] : 0x20
                    if prev == 0x20 || prev == 0x09 {
                        while i < bytes.count && bytes[i] != 0x0A { i += 1 }
                        continue
                    }
                case 0x5B, 0x7B:
                    depth += 1
                    if depth > maxFlowDepth { return (line, i - lineStart + 1) }
                case 0x5D, 0x7D:
                    depth = max(0, depth - 1)
                default: break
                }
            }
            i += 1
        }
        return nil
    }


    /// Parses the YAML between the fences. `firstLine` is the file line of the YAML's first line.
    /// `nil` when the YAML holds no node (empty, comments only, or a null scalar such as `~`).
    package static func parseYAML(_ yaml: String, path: String?, firstLine: Int) throws -> FrontMatter? {
        var bytes = Array(yaml.utf8)
        if bytes.isEmpty { return nil }
        if let (line, column) = flowNestingBeyondLimit(bytes) {
            throw FrontMatterError(file: path, line: firstLine + line - 1, column: column,
                                   message: "front matter nested deeper than \(maxFlowDepth) levels", kind: .invalidField)
        }
        bytes.append(0)
        return try bytes.withUnsafeBufferPointer { buf -> FrontMatter? in
            let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
            defer { parser.deallocate() }
            parser.initialize(to: yaml_parser_t())
            guard yaml_parser_initialize(parser) == 1 else {
                throw FrontMatterError(file: path, line: firstLine, column: 1, message: "cannot initialise the YAML parser",
                                       kind: .notAMapping)
            }
            defer { yaml_parser_delete(parser) }
            yaml_parser_set_input_string(parser, buf.baseAddress!, buf.count - 1)
            var reader = EventReader(parser: parser, path: path, firstLine: firstLine, length: buf.count - 1)
            var fm = try reader.readFrontMatter()
            fm?.warnings = reader.warnings
            return fm
        }
    }
}

/// An error in front matter, positioned in the file (1-based line and column).
package struct FrontMatterError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, which decides whether Markdown input still reads the block as Markdown.
    package enum Kind: Sendable, Equatable {
        /// The block is not a YAML mapping: invalid YAML, or a scalar or sequence at the top.
        /// In Markdown the block then is no front matter (``FrontMatter/split(_:path:markdown:)``).
        case notAMapping
        /// The block is a mapping, but a field's value is wrong (a `created` that is no date):
        /// an error in every syntax.
        case invalidField
    }

    package var file: String?
    package var line: Int
    package var column: Int
    package var message: String
    package var kind: Kind

    package init(file: String?, line: Int, column: Int, message: String, kind: Kind = .invalidField) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.kind = kind
    }

    /// `file:line:column: error: message` (`<stdin>` when there is no file).
    package var description: String {
        "\(file ?? "<stdin>"):\(line):\(column): error: \(message)"
    }

    /// The error as a reader diagnostic.
    package var diagnostic: Diagnostic {
        Diagnostic(.error, message, file: file, position: SourcePosition(line: line, column: column))
    }
}
