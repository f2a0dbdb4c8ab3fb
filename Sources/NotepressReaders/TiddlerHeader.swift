import Foundation
import NotepressAST

/// The header of a TiddlyWiki `.tid` file: `field: value` lines, a blank line, then the body
/// (TiddlyWiki's `application/x-tiddler` deserializer, `$tw.utils.parseFields` in boot/boot.js):
///
///     created: 20130825213500000
///     modified: 20141121111732959
///     tags: Concepts [[to buy]]
///     title: Tiddlers
///     type: text/vnd.tiddlywiki
///
///     Tiddlers are the fundamental units of information in ~TiddlyWiki.
///
/// The header ends at the first empty line (a file without one is all header and has no body).
/// A file whose first line, after `#` comment lines, is not a `field: value` line
/// (``isFieldLine(_:)``) has no header: it is all body (TiddlyWiki would read its first paragraph as fields and lose it).
/// Each header line is split at its first `:`; name and value are trimmed. Lines starting with `#`
/// are comments; other lines without a `:` (or with nothing before it) are ignored with a warning,
/// as TiddlyWiki ignores them silently. A field given twice keeps its last value, as in TiddlyWiki.
///
/// - `title`: the title.
/// - `tags`: TiddlyWiki's title list (`$tw.utils.parseStringArray`): titles separated by
///   whitespace, `[[multi word]]` for a title with spaces (the brackets must stand between
///   whitespace or the ends of the line); duplicates dropped, order kept.
/// - `created`, `modified`: `YYYYMMDDhhmmssSSS` in UTC (``CivilDateTime/parseTiddlyWiki(_:)``);
///   a value that is not a real date is an error at its line and column. `modified` goes into
///   ``fields`` in ISO 8601 form (``CivilDateTime/iso8601``).
/// - `type`: the body's syntax (``bodyFormat``); also kept in ``fields``.
/// - every other field: ``fields``, its value as written.
package struct TiddlerHeader: Sendable, Equatable {
    /// The `title` field.
    package var title: String?
    /// The `tags` field as a title list.
    package var tags: [String] = []
    /// The `created` field.
    package var created: Date?
    /// The `type` field (a MIME type such as `text/vnd.tiddlywiki` or `text/x-markdown`).
    package var type: String?
    /// Every field besides `title`, `tags` and `created` (`modified` in ISO 8601 form).
    package var fields: [String: String] = [:]

    /// A header with these fields (``split(_:path:)`` reads one from a file).
    package init(title: String? = nil, tags: [String] = [], created: Date? = nil, type: String? = nil,
                fields: [String: String] = [:]) {
        self.title = title
        self.tags = tags
        self.created = created
        self.type = type
        self.fields = fields
    }

    /// The MIME types whose body is Markdown (TiddlyWiki's markdown plugin registers both).
    package static let markdownTypes: Set<String> = ["text/x-markdown", "text/markdown"]
    /// The MIME types read as note markup without a warning: TiddlyWiki's wikitext (current and
    /// classic) and plain text. Any other type is read as note markup too, with a warning.
    package static let noteTypes: Set<String> = ["text/vnd.tiddlywiki", "text/x-tiddlywiki", "text/plain"]

    /// The syntax the `type` field names: GFM for ``markdownTypes``, note markup for any other
    /// type, `nil` when there is no `type` field.
    package var bodyFormat: SourceFormat? {
        guard let type else { return nil }
        return Self.markdownTypes.contains(type.lowercased()) ? .gfm : .note
    }

    /// Splits a `.tid` file into its header and body.
    /// - Returns: the header, the body, the number of lines before the body (header lines and the
    ///   blank line: body line `n` is file line `n + bodyLineOffset`), and warnings (ignored lines,
    ///   an unknown `type`).
    /// - Throws: ``FrontMatterError`` at the line and column of a `created` or `modified` value that
    ///   is not a TiddlyWiki date.
    package static func split(_ text: String, path: String?) throws
        -> (header: TiddlerHeader, body: String, bodyLineOffset: Int, warnings: [Diagnostic]) {
        var header = TiddlerHeader()
        var warnings: [Diagnostic] = []
        let utf8 = text.utf8
        var lineStart = utf8.startIndex
        // A UTF-8 byte order mark is tolerated (the loader removes it already).
        if utf8.starts(with: [0xEF, 0xBB, 0xBF]) { lineStart = utf8.index(lineStart, offsetBy: 3) }
        var lineNumber = 0
        var body = ""
        // A file whose first line (after `#` comment lines) is no `field: value` line has no
        // header: it is all body.
        var rest = text[lineStart...]
        var firstField = rest.prefix { $0 != "\n" && $0 != "\r\n" }
        while firstField.first == "#", firstField.endIndex < rest.endIndex {
            rest = rest[rest.index(after: firstField.endIndex)...]
            firstField = rest.prefix { $0 != "\n" && $0 != "\r\n" }
        }
        guard isFieldLine(firstField) else {
            return (header, String(text[lineStart...]), 0, warnings)
        }
        while lineStart < utf8.endIndex {
            let nl = utf8[lineStart...].firstIndex(of: 0x0A)
            var lineEnd = nl ?? utf8.endIndex
            let next = nl.map { utf8.index(after: $0) } ?? utf8.endIndex
            lineNumber += 1
            if lineEnd > lineStart, utf8[utf8.index(before: lineEnd)] == 0x0D { lineEnd = utf8.index(before: lineEnd) }
            if lineEnd == lineStart {
                body = String(text[next...])
                break
            }
            let line = text[lineStart..<lineEnd]
            lineStart = next
            if line.utf8.first == UInt8(ascii: "#") { continue }
            guard let colon = line.firstIndex(of: ":"),
                  case let name = line[..<colon].trimmingHorizontalWhitespace(), !name.isEmpty else {
                warnings.append(Diagnostic(.warning, "not a 'field: value' header line; ignored", file: path,
                                           position: SourcePosition(line: lineNumber, column: 1)))
                continue
            }
            let rawValue = line[line.index(after: colon)...]
            let value = rawValue.trimmingHorizontalWhitespace()
            // The value's column: bytes before its first non-space character, 1-based.
            let leading = rawValue.utf8.prefix { $0 == 0x20 || $0 == 0x09 }.count
            let column = line.utf8.distance(from: line.utf8.startIndex, to: rawValue.utf8.startIndex) + leading + 1
            switch name {
            case "title":
                header.title = value
            case "tags":
                header.tags = titleList(value)
            case "created", "modified":
                guard let date = CivilDateTime.parseTiddlyWiki(value) else {
                    throw FrontMatterError(file: path, line: lineNumber, column: column,
                                           message: "'\(name)' is not a TiddlyWiki date (YYYYMMDDhhmmssSSS, UTC): '\(value)'")
                }
                if name == "created" {
                    header.created = date
                } else {
                    header.fields[name] = CivilDateTime(date).iso8601
                }
            case "type":
                header.type = value
                header.fields[name] = value
                if !markdownTypes.contains(value.lowercased()) && !noteTypes.contains(value.lowercased()) {
                    warnings.append(Diagnostic(.warning, "type '\(value)' is read as note markup", file: path,
                                               position: SourcePosition(line: lineNumber, column: column)))
                }
            default:
                header.fields[name] = value
            }
        }
        return (header, body, lineNumber, warnings)
    }

    /// Whether `line` reads as a header's `field: value` line: a field name without spaces (as
    /// TiddlyWiki writes them), then `:`.
    static func isFieldLine(_ line: Substring) -> Bool {
        guard let colon = line.firstIndex(of: ":") else { return false }
        let name = line[..<colon]
        return !name.isEmpty && !name.contains { $0 == " " || $0 == "\t" }
    }

    /// TiddlyWiki's title list (`$tw.utils.parseStringArray`): items separated by whitespace
    /// other than U+00A0 NO-BREAK SPACE; `[[…]]` holds an item with spaces when it starts the
    /// text or follows whitespace and its `]]` is followed by whitespace or the end (the first
    /// such `]]`); anything else runs to the next whitespace. Empty and repeated items are dropped.
    /// Linear: the next acceptable `]]` after each position is found in one backward pass.
    package static func titleList(_ value: String) -> [String] {
        let s = Array(value.unicodeScalars)
        let n = s.count
        func isSpace(_ u: Unicode.Scalar) -> Bool { u != "\u{A0}" && u.properties.isWhitespace }
        // closing[i]: the smallest j >= i with `]]` at j followed by whitespace or the end.
        var closing = [Int](repeating: -1, count: n + 1)
        var j = n - 1
        while j >= 0 {
            closing[j] = closing[j + 1]
            if j + 1 < n, s[j] == "]", s[j + 1] == "]", j + 2 == n || isSpace(s[j + 2]) { closing[j] = j }
            j -= 1
        }
        var items: [String] = []
        var seen: Set<String> = []
        func add(_ range: Range<Int>) {
            var item = ""
            item.unicodeScalars.append(contentsOf: s[range])
            if !item.isEmpty && seen.insert(item).inserted { items.append(item) }
        }
        var i = 0
        while i < n {
            if isSpace(s[i]) { i += 1; continue }
            if i + 1 < n, s[i] == "[", s[i + 1] == "[", closing[i + 2] >= 0 {
                let end = closing[i + 2]
                add((i + 2)..<end)
                i = end + 2
                continue
            }
            let start = i
            while i < n, !isSpace(s[i]) { i += 1 }
            add(start..<i)
        }
        return items
    }
}
