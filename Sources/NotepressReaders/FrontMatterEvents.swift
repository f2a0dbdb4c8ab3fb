import CYAML
import Foundation
import NotepressAST

// The libyaml event reader of front matter (``FrontMatter/parseYAML(_:path:firstLine:)``).

/// A libyaml scalar with its position.
struct YAMLScalar {
    var value: String
    var plain: Bool
    var line: Int  // 0-based, in the YAML text
    var column: Int  // 0-based
    /// A plain `~`, `null`, `Null`, `NULL` or empty scalar.
    var isNull: Bool { plain && (value.isEmpty || value == "~" || value == "null" || value == "Null" || value == "NULL") }
}

/// Pulls events from a libyaml parser and builds a ``FrontMatter``.
struct EventReader {
    let parser: UnsafeMutablePointer<yaml_parser_t>
    let path: String?
    let firstLine: Int

    enum Event {
        case streamStart, streamEnd, documentStart, documentEnd
        case scalar(YAMLScalar)
        case sequenceStart(line: Int, column: Int), sequenceEnd
        case mappingStart(line: Int, column: Int), mappingEnd
        case alias(line: Int, column: Int)
    }

    /// Scalars by their anchor (`&name`): an alias of one reads as the scalar.
    var anchors: [String: YAMLScalar] = [:]
    /// Anchors of sequences and mappings (their aliases are not expanded).
    var collectionAnchors: Set<String> = []
    /// Bytes of scalar text that aliases may still copy: at most the YAML's own length, so a
    /// stream of aliases of one long scalar stays linear.
    var aliasBudget = 0
    /// Warnings for the front matter (``FrontMatter/warnings``).
    var warnings: [Diagnostic] = []

    init(parser: UnsafeMutablePointer<yaml_parser_t>, path: String?, firstLine: Int, length: Int) {
        self.parser = parser
        self.path = path
        self.firstLine = firstLine
        self.aliasBudget = length
    }

    static func string(_ p: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        p.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }

    mutating func next() throws -> Event {
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else { throw yamlError() }
        defer { yaml_event_delete(&event) }
        let line = Int(event.start_mark.line), column = Int(event.start_mark.column)
        switch event.type {
        case YAML_STREAM_START_EVENT: return .streamStart
        case YAML_STREAM_END_EVENT: return .streamEnd
        case YAML_DOCUMENT_START_EVENT: return .documentStart
        case YAML_DOCUMENT_END_EVENT: return .documentEnd
        case YAML_ALIAS_EVENT:
            let name = Self.string(event.data.alias.anchor) ?? ""
            if var s = anchors[name], s.value.utf8.count <= aliasBudget {
                aliasBudget -= s.value.utf8.count
                s.line = line; s.column = column
                return .scalar(s)
            }
            let why = collectionAnchors.contains(name) ? "is a sequence or mapping, which is not expanded"
                : anchors[name] != nil ? "would copy more text than the front matter holds" : "names no anchor before it"
            warnings.append(Diagnostic(.warning, "front matter: the YAML alias *\(name) \(why); the value is left out", file: path,
                                       position: SourcePosition(line: line + firstLine, column: column + 1)))
            return .alias(line: line, column: column)
        case YAML_SCALAR_EVENT:
            let s = event.data.scalar
            let value: String
            if let p = s.value, s.length > 0 {
                value = String(decoding: UnsafeBufferPointer(start: p, count: Int(s.length)), as: UTF8.self)
            } else {
                value = ""
            }
            let scalar = YAMLScalar(value: value, plain: s.style == YAML_PLAIN_SCALAR_STYLE, line: line, column: column)
            if let anchor = Self.string(s.anchor) { anchors[anchor] = scalar; collectionAnchors.remove(anchor) }
            return .scalar(scalar)
        case YAML_SEQUENCE_START_EVENT:
            if let anchor = Self.string(event.data.sequence_start.anchor) { collectionAnchors.insert(anchor); anchors[anchor] = nil }
            return .sequenceStart(line: line, column: column)
        case YAML_SEQUENCE_END_EVENT: return .sequenceEnd
        case YAML_MAPPING_START_EVENT:
            if let anchor = Self.string(event.data.mapping_start.anchor) { collectionAnchors.insert(anchor); anchors[anchor] = nil }
            return .mappingStart(line: line, column: column)
        case YAML_MAPPING_END_EVENT: return .mappingEnd
        default: return .streamEnd
        }
    }

    func yamlError() -> FrontMatterError {
        let problem = parser.pointee.problem.map { String(cString: $0) } ?? "unknown YAML error"
        let mark = parser.pointee.problem_mark
        var message = "invalid YAML front matter: \(problem)"
        if let ctx = parser.pointee.context.map({ String(cString: $0) }) {
            message += " (\(ctx) at line \(Int(parser.pointee.context_mark.line) + firstLine))"
        }
        return FrontMatterError(file: path, line: Int(mark.line) + firstLine, column: Int(mark.column) + 1, message: message,
                                kind: .notAMapping)
    }

    func error(_ message: String, line: Int, column: Int, kind: FrontMatterError.Kind = .invalidField) -> FrontMatterError {
        FrontMatterError(file: path, line: line + firstLine, column: column + 1, message: message, kind: kind)
    }

    /// Skips the rest of a node whose start event has been read (depth 1 = inside it).
    mutating func skipNode() throws {
        var depth = 1
        while depth > 0 {
            switch try next() {
            case .sequenceStart, .mappingStart: depth += 1
            case .sequenceEnd, .mappingEnd: depth -= 1
            case .streamEnd: return
            default: break
            }
        }
    }

    /// The front matter of a mapping; `nil` for a stream without a node or with a null one.
    mutating func readFrontMatter() throws -> FrontMatter? {
        var fm = FrontMatter()
        // stream start, document start (absent for an empty stream)
        guard case .streamStart = try next() else { return nil }
        switch try next() {
        case .documentStart: break
        default: return nil
        }
        switch try next() {
        case .mappingStart: break
        case .scalar(let s) where s.isNull: return nil
        case .scalar(let s):
            throw error("front matter must be a mapping of fields, found a scalar", line: s.line, column: s.column, kind: .notAMapping)
        case .sequenceStart(let l, let c):
            throw error("front matter must be a mapping of fields, found a sequence", line: l, column: c, kind: .notAMapping)
        default: return nil
        }
        while true {
            let keyEvent = try next()
            let key: String
            switch keyEvent {
            case .mappingEnd:
                // Drain to the end so later syntax errors in the stream still surface.
                while true {
                    if case .streamEnd = try next() { break }
                }
                return fm
            case .scalar(let s): key = s.value
            case .sequenceStart, .mappingStart:
                // A complex key: skip it and its value.
                try skipNode()
                try skipValue()
                continue
            default:
                try skipValue()
                continue
            }
            try readValue(for: key, into: &fm)
        }
    }

    /// Skips one value node.
    mutating func skipValue() throws {
        switch try next() {
        case .sequenceStart, .mappingStart: try skipNode()
        default: break
        }
    }

    mutating func readValue(for key: String, into fm: inout FrontMatter) throws {
        let event = try next()
        switch key {
        case "tags":
            switch event {
            case .scalar(let s):
                fm.tags = s.isNull ? [] : splitTags(s.value)
            case .sequenceStart:
                var tags: [String] = []
                loop: while true {
                    switch try next() {
                    case .sequenceEnd: break loop
                    case .scalar(let s) where !s.isNull:
                        let t = s.value.trimmingHorizontalWhitespace()
                        if !t.isEmpty { tags.append(t) }
                    case .sequenceStart, .mappingStart: try skipNode()
                    case .streamEnd: break loop
                    default: break
                    }
                }
                fm.tags = tags
            case .mappingStart: try skipNode()
            default: break
            }
        case "title":
            switch event {
            case .scalar(let s):
                if !s.isNull, Self.isTemplatePlaceholder(s.value) {
                    // A template's `title: "{{title}}"` (Obsidian) or `<% tp.file.title %>` (Templater).
                    leaveOut("title", "is a template's placeholder, not a title: \"\(s.value)\"", line: s.line, column: s.column)
                    break
                }
                fm.title = s.isNull ? nil : s.value
            case .sequenceStart(let l, let c), .mappingStart(let l, let c):
                try skipNode()
                leaveOut("title", "is not text but a collection (a template's {{title}}?)", line: l, column: c)
            default: break
            }
        case "created":
            switch event {
            case .scalar(let s):
                if s.isNull { fm.created = nil; break }
                if Self.isTemplatePlaceholder(s.value) {
                    leaveOut("created", "is a template's placeholder, not a date: \"\(s.value)\"", line: s.line, column: s.column)
                    break
                }
                guard let date = CivilDateTime.parse(s.value) else {
                    if s.value.trimmingHorizontalWhitespace().hasPrefix("0000-") {
                        throw error("`created` is in year 0000: \"\(s.value)\" (dates run from year 0001 to 9999, as XML Schema and TEI have them)",
                                    line: s.line, column: s.column)
                    }
                    throw error("`created` is not an ISO 8601 date: \"\(s.value)\" (expected YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS][Z|±HH:MM] or YYYY-MM-DD HH:MM[:SS])",
                                line: s.line, column: s.column)
                }
                fm.created = date
            case .sequenceStart(let l, let c), .mappingStart(let l, let c):
                // A template's `created: {{date}}` is a YAML mapping: no date, said, and left out.
                try skipNode()
                leaveOut("created", "is not a date but a collection (a template's {{date}}?)", line: l, column: c)
            default: break
            }
        default:
            switch event {
            case .scalar(let s):
                fm.collections[key] = nil
                if s.isNull { fm.fields[key] = nil } else { fm.fields[key] = s.value }
            case .sequenceStart:
                fm.fields[key] = nil
                fm.collections[key] = try collection(isMap: false, depth: 1)
            case .mappingStart:
                fm.fields[key] = nil
                fm.collections[key] = try collection(isMap: true, depth: 1)
            default: break
            }
        }
    }

    /// A field whose value cannot be used (a template's `{{date}}`): a warning at the value's
    /// line and column (0-based, as the parser's events give them); the note is read without it.
    mutating func leaveOut(_ key: String, _ why: String, line: Int, column: Int) {
        warnings.append(Diagnostic(.warning, "front matter: `\(key)` \(why); the field is left out", file: path,
                                   position: SourcePosition(line: line + firstLine, column: column + 1)))
    }

    func splitTags(_ s: String) -> [String] { FrontMatter.splitTags(s) }

    /// Whether a field's text is a note template's placeholder rather than a value: Obsidian's
    /// core templates (`{{date}}`, `{{title}}`) or Templater's commands (`<% tp.date.now() %>`).
    static func isTemplatePlaceholder(_ value: String) -> Bool {
        func has(_ open: String, _ close: String) -> Bool {
            guard let o = value.range(of: open) else { return false }
            return value[o.upperBound...].contains(close)
        }
        return has("{{", "}}") || has("<%", "%>")
    }

    /// A scalar inside a collection: a plain core-schema boolean is ``MetadataValue/bool(_:)``,
    /// anything else text; `nil` for a null.
    func scalarValue(_ s: YAMLScalar) -> MetadataValue? {
        if s.isNull { return nil }
        if s.plain, let b = MetadataValue.boolean(s.value) { return .bool(b) }
        return .string(s.value)
    }

    /// The rest of a sequence (`isMap` false) or mapping whose start event has been read, at
    /// nesting `depth` (1 for a field's value). Collections deeper than
    /// ``FrontMatter/maximumCollectionDepth`` are skipped; aliases, complex keys and nulls are left
    /// out. Recursion is bounded by that depth.
    mutating func collection(isMap: Bool, depth: Int) throws -> MetadataValue {
        var items: [MetadataValue] = []
        var map: [String: MetadataValue] = [:]
        var key: String?
        while true {
            let event = try next()
            var value: MetadataValue?
            switch event {
            case .sequenceEnd, .mappingEnd, .streamEnd:
                return isMap ? .map(map) : .list(items)
            case .scalar(let s):
                if isMap && key == nil { key = s.value; continue }
                value = scalarValue(s)
            case .sequenceStart, .mappingStart:
                var isMapping = false
                if case .mappingStart = event { isMapping = true }
                if isMap && key == nil {
                    // A complex key: skipped with its value.
                    try skipNode()
                    try skipValue()
                    continue
                }
                if depth >= FrontMatter.maximumCollectionDepth {
                    try skipNode()
                } else {
                    value = try collection(isMap: isMapping, depth: depth + 1)
                }
            default:
                if isMap && key == nil { try skipValue(); continue }
            }
            if isMap {
                if let k = key, let value { map[k] = value }
                key = nil
            } else if let value {
                items.append(value)
            }
        }
    }
}
