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
package struct NoteReader: Sendable {
    /// Keep delimiters (and escaping backslashes) in the text as runs inside a `.marker` span.
    package var keepMarkers: Bool
    /// Which side of a wiki link's `|` is the target (``WikiLinkSyntax/Order``): label first in
    /// TiddlyWiki files.
    package var wikiLinkOrder: WikiLinkSyntax.Order

    package init(keepMarkers: Bool = false, wikiLinkOrder: WikiLinkSyntax.Order = .targetFirst) {
        self.keepMarkers = keepMarkers
        self.wikiLinkOrder = wikiLinkOrder
    }

    /// Parses note markup (body only, front matter already removed). `lineOffset` is added to
    /// reported line numbers. Span ids start at 1 and count up in source order across the note.
    package func parse(_ text: String, lineOffset: Int = 0) -> [Block] {
        parse(text, lineOffset: lineOffset, topLevelBlock: nil, retainBlocks: true)
    }

    /// ``parse(_:lineOffset:)`` that hands each top-level block to `topLevelBlock` as soon as it is
    /// complete (document order). With `retainBlocks` false the blocks are not kept and the result
    /// is empty: a writer fed through the callback can then let each block go once written, so
    /// memory holds the text, the output and the blocks in flight rather than the whole tree.
    package func parse(_ text: String, lineOffset: Int = 0, topLevelBlock: ((Block) -> Void)?, retainBlocks: Bool) -> [Block] {
        var builder = NoteBlockBuilder(keepMarkers: keepMarkers, wikiLinkOrder: wikiLinkOrder, lineOffset: lineOffset)
        builder.emit = topLevelBlock
        builder.retain = retainBlocks
        var text = text
        // Lines are byte ranges of the text's UTF-8 (no copy for a native string), split at LF;
        // a line may end with LF or CR LF (man/notepress-markup.7.md), so one CR before the LF
        // (or at the very end of the text) is dropped.
        text.withUTF8 { all in
            let n = all.count
            guard n > 0, let base = all.baseAddress else {
                builder.add(line: UnsafeBufferPointer(start: nil, count: 0), number: 1)
                return
            }
            var lineNumber = 0
            var start = 0
            while true {
                let newline = memchr(base + start, 0x0A, n - start)
                let end = newline.map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? n
                lineNumber += 1
                var lineEnd = end
                if lineEnd > start, base[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                builder.add(line: UnsafeBufferPointer(start: base + start, count: lineEnd - start), number: lineNumber)
                if newline == nil { break }
                start = end + 1
            }
        }
        builder.finish()
        return NoteBlockBuilder.takeExact(&builder.blocks, refill: Block(.thematicBreak))
    }

    /// Reads a whole note file: front matter (if any) and body.
    ///
    /// The metadata title is the front-matter `title`, else the file name's stem, else `nil`.
    /// A front-matter error is thrown (callers usually report its ``FrontMatterError/diagnostic``).
    package func read(_ text: String, path: String? = nil) throws -> ReadResult {
        let (fm, body, offset) = try FrontMatter.split(text, path: path)
        let blocks = parse(body, lineOffset: offset)
        var title = fm?.title
        if title == nil, let path {
            let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            if !stem.isEmpty { title = stem }
        }
        let metadata = DocumentMetadata(title: title, created: fm?.created, tags: fm?.tags ?? [], sourcePath: path,
                                        sourceFormat: .note, fields: fm?.fields ?? [:], collections: fm?.collections ?? [:])
        return ReadResult(document: Document(metadata: metadata, blocks: blocks), diagnostics: [])
    }
}

/// Groups lines into paragraphs and ordered lists.
struct NoteBlockBuilder {
    var scanner: NoteInlineScanner
    let lineOffset: Int
    var blocks: [Block] = []
    /// Called with each finished block; `retain` false leaves `blocks` empty.
    var emit: ((Block) -> Void)?
    var retain = true

    /// Runs and spans of the open paragraph (scratch: capacity kept between paragraphs).
    private var paragraph = InlinesBuilder()
    /// Runs and spans of the list item being read (scratch).
    private var itemRuns = InlinesBuilder()
    private var paragraphLine = 0
    private var inParagraph = false
    private var listItems: [ListItem] = []

    init(keepMarkers: Bool, wikiLinkOrder: WikiLinkSyntax.Order = .targetFirst, lineOffset: Int) {
        scanner = NoteInlineScanner(keepMarkers: keepMarkers, wikiLinkOrder: wikiLinkOrder)
        self.lineOffset = lineOffset
    }

    /// Adds one line: its UTF-8 bytes without the line terminator; `number` is 1-based in the body.
    mutating func add(line: UnsafeBufferPointer<UInt8>, number: Int) {
        let fileLine = number + lineOffset
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
            finish()
            return
        }
        if let (value, contentStart) = Self.listMarker(line) {
            closeParagraph()
            scanner.scan(UnsafeBufferPointer(rebasing: line[contentStart...]), lineNumber: fileLine, columnOffset: contentStart,
                         into: &itemRuns)
            let content: [Block] = itemRuns.isEmpty ? [] : [
                Block(.paragraph(itemRuns.takeExact()),
                      position: SourcePosition(line: fileLine, column: contentStart + 1)),
            ]
            listItems.append(ListItem(number: value, blocks: content, position: SourcePosition(line: fileLine, column: 1)))
            return
        }
        closeList()
        if inParagraph {
            paragraph.append(.hardBreak)
        } else {
            inParagraph = true
            paragraphLine = fileLine
        }
        scanner.scan(line, lineNumber: fileLine, into: &paragraph)
    }

    /// `digits "." (space|tab)+` at the start of the line (UTF-8 bytes), at most 9 digits.
    /// Returns the number and the byte offset where the content starts (the prefix is ASCII, so
    /// this is also the 0-based column).
    static func listMarker(_ line: UnsafeBufferPointer<UInt8>) -> (Int, Int)? {
        let n = line.count
        var i = 0
        var value = 0
        while i < n, i < 10, line[i] >= 0x30, line[i] <= 0x39 {
            value = value * 10 + Int(line[i] - 0x30)
            i += 1
        }
        guard i > 0, i <= 9, i + 1 < n, line[i] == 0x2E, line[i + 1] == 0x20 || line[i + 1] == 0x09 else {
            return nil
        }
        i += 1
        while i < n, line[i] == 0x20 || line[i] == 0x09 { i += 1 }
        return (value, i)
    }

    mutating func closeParagraph() {
        guard inParagraph else { return }
        output(Block(.paragraph(paragraph.takeExact()), position: SourcePosition(line: paragraphLine, column: 1)))
        inParagraph = false
    }

    /// Moves the elements of the scratch array `elements` into a new array allocated for exactly
    /// `elements.count` of them (``InlinesBuilder/takeExact(_:refill:)``, which paragraphs use
    /// too): the tree, which lives until the process ends, gets no up-to-2× slack of a grown array.
    @inline(__always)
    static func takeExact<Element>(_ elements: inout [Element], refill: Element) -> [Element] {
        InlinesBuilder.takeExact(&elements, refill: refill)
    }

    mutating func closeList() {
        guard let first = listItems.first else { return }
        let items = Self.takeExact(&listItems, refill: ListItem(blocks: []))
        let list = ListBlock(type: .ordered, start: first.number ?? 1, delimiter: .period, tight: true, items: items)
        output(Block(.list(list), position: first.position))
    }

    /// A finished top-level block: to the callback, and kept unless `retain` is off.
    mutating func output(_ block: Block) {
        emit?(block)
        if retain { blocks.append(block) }
    }

    mutating func finish() {
        closeParagraph()
        closeList()
    }
}
