import Foundation
import NotepressAST

/// Reads note markup, the plain-text format of the iOS Text Kit note editor.
///
/// - `*bold*`, `_italic_`, `-struck-`, `~script~` (see man/notepress-markup.7.md for the exact
///   flanking rules), nesting across kinds, never within one kind, never across lines;
/// - lines `N. text` form ordered lists that keep each line's own number;
/// - ALL-CAPS words (two or more letters) get the `alert` colour role;
/// - consecutive lines form one paragraph joined by hard breaks; blank lines separate paragraphs;
/// - `\` before `* _ - ~ \` makes that character literal.
public struct NoteReader: Sendable {
    /// Keep delimiters (and escaping backslashes) in the text as runs inside a `.marker` span.
    public var keepMarkers: Bool

    public init(keepMarkers: Bool = false) {
        self.keepMarkers = keepMarkers
    }

    /// Parses note markup (body only, front matter already removed). `lineOffset` is added to
    /// reported line numbers. Span ids start at 1 and count up in source order across the note.
    public func parse(_ text: String, lineOffset: Int = 0) -> [Block] {
        var builder = NoteBlockBuilder(keepMarkers: keepMarkers, lineOffset: lineOffset)
        var lineNumber = 0
        for rawLine in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = Substring(rawLine)
            if line.utf8.last == UInt8(ascii: "\r") { line = line.dropLast() }
            builder.add(line: line, number: lineNumber)
        }
        builder.finish()
        return builder.blocks
    }

    /// Reads a whole note file: front matter (if any) and body.
    ///
    /// The metadata title is the front-matter `title`, else the file name's stem, else `nil`.
    /// A front-matter error is thrown (callers usually report its ``FrontMatterError/diagnostic``).
    public func read(_ text: String, path: String? = nil) throws -> ReadResult {
        let (fm, body, offset) = try FrontMatter.split(text, path: path)
        let blocks = parse(body, lineOffset: offset)
        var title = fm?.title
        if title == nil, let path {
            let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            if !stem.isEmpty { title = stem }
        }
        let metadata = DocumentMetadata(title: title, created: fm?.created, tags: fm?.tags ?? [], sourcePath: path,
                                        sourceFormat: .note, fields: fm?.fields ?? [:])
        return ReadResult(document: Document(metadata: metadata, blocks: blocks), diagnostics: [])
    }
}

/// Groups lines into paragraphs and ordered lists.
struct NoteBlockBuilder {
    var scanner: NoteInlineScanner
    let lineOffset: Int
    var blocks: [Block] = []

    private var paragraph: [InlineRun] = []
    private var paragraphLine = 0
    private var inParagraph = false
    private var listItems: [ListItem] = []

    init(keepMarkers: Bool, lineOffset: Int) {
        scanner = NoteInlineScanner(keepMarkers: keepMarkers)
        self.lineOffset = lineOffset
    }

    mutating func add(line: Substring, number: Int) {
        let chars = Array(line.unicodeScalars)
        let fileLine = number + lineOffset
        if chars.allSatisfy({ $0 == " " || $0 == "\t" }) {
            finish()
            return
        }
        if let (value, contentStart) = Self.listMarker(chars) {
            closeParagraph()
            var runs: [InlineRun] = []
            scanner.scan(chars[contentStart...], into: &runs)
            let content: [Block] = runs.isEmpty ? [] : [
                Block(.paragraph(Inlines(runs)), position: SourcePosition(line: fileLine, column: contentStart + 1)),
            ]
            listItems.append(ListItem(number: value, blocks: content, position: SourcePosition(line: fileLine, column: 1)))
            return
        }
        closeList()
        if inParagraph {
            paragraph.append(InlineRun(.hardBreak))
        } else {
            inParagraph = true
            paragraphLine = fileLine
        }
        scanner.scan(chars[...], into: &paragraph)
    }

    /// `digits "." (space|tab)+` at the start of the line, at most 9 digits. Returns the number
    /// and the index where the content starts (ASCII prefix, so also the UTF-8 byte offset).
    static func listMarker(_ chars: [Unicode.Scalar]) -> (Int, Int)? {
        var i = 0
        var value = 0
        while i < chars.count, i < 10, chars[i].value >= 0x30, chars[i].value <= 0x39 {
            value = value * 10 + Int(chars[i].value - 0x30)
            i += 1
        }
        guard i > 0, i <= 9, i + 1 < chars.count, chars[i] == ".", chars[i + 1] == " " || chars[i + 1] == "\t" else {
            return nil
        }
        i += 1
        while i < chars.count, chars[i] == " " || chars[i] == "\t" { i += 1 }
        return (value, i)
    }

    mutating func closeParagraph() {
        guard inParagraph else { return }
        blocks.append(Block(.paragraph(Inlines(paragraph)), position: SourcePosition(line: paragraphLine, column: 1)))
        paragraph = []
        inParagraph = false
    }

    mutating func closeList() {
        guard let first = listItems.first else { return }
        let list = ListBlock(type: .ordered, start: first.number ?? 1, delimiter: .period, tight: true, items: listItems)
        blocks.append(Block(.list(list), position: first.position))
        listItems = []
    }

    mutating func finish() {
        closeParagraph()
        closeList()
    }
}
